import { printTable } from './client.js';
import { UsageError } from '../client/http.js';

/**
 * What the following commands (`events tail`, `requests --follow`) share: the poll interval,
 * the loop that polls until Ctrl-C, and the printers of batches that arrive one at a time.
 */

/** --interval in milliseconds: a whole number, at least 50 (tighter would only load the server). */
export function parseInterval(raw: string): number {
  const interval = Number(raw);
  if (!Number.isInteger(interval) || interval < 50) throw new UsageError(`not a valid interval in ms (at least 50): ${raw}`);
  return interval;
}

/**
 * Calls `poll` every `intervalMs` (after the previous poll finished, so polls never overlap)
 * until Ctrl-C, which exits 0. A poll that throws ends the loop with its error, for the
 * command's action() to report: a server gone away is exit 2.
 */
export async function pollUntilInterrupted(intervalMs: number, poll: () => Promise<void>): Promise<void> {
  process.once('SIGINT', () => process.exit(0));
  for (;;) {
    await new Promise((r) => setTimeout(r, intervalMs));
    await poll();
  }
}

/** Items as one JSON object per line (NDJSON), as the API returns them. */
export function printNdjson(items: readonly unknown[]): void {
  for (const item of items) process.stdout.write(`${JSON.stringify(item)}\n`);
}

type Cell = Parameters<typeof printTable>[1][number][number];

/**
 * A table printed batch by batch: the header with the first rows only, and columns at least
 * `minWidths` wide so the rows polled later line up with the first ones.
 */
export function tableStream(headers: string[], minWidths: number[]): (rows: Cell[][]) => void {
  let headerShown = false;
  return (rows) => {
    if (rows.length === 0) return;
    printTable(headers, rows, { minWidths, header: !headerShown });
    headerShown = true;
  };
}
