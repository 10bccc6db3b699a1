import { Command, CommanderError, Option, type CommandOptions } from 'commander';
import { ApiError, UsageError, type ClientOptions } from '../client/http.js';
import { DEFAULT_BASE_URL } from '../core/product.js';

/**
 * What every CLI command that talks to a running emulator shares: --url and --key from flags or
 * the environment, the spec's error envelope turned into one line on stderr, exit codes a CI
 * script can use (0 success, 1 the API refused, 2 connection or usage problem), and plain tables.
 */
const DEFAULT_URL = DEFAULT_BASE_URL;

/**
 * Adds --url, --key and --json (with their environment variables) to a command that talks to the
 * emulator; `{ isDefault: true }` runs it when its group is given without a command (`requests`).
 */
export function clientCommand(parent: Command, name: string, description: string, options: CommandOptions = {}): Command {
  const cmd = parent.command(name, options).description(description);
  cmd.addOption(new Option('--url <url>', 'base URL of the running emulator').env('EMULATOR_URL').default(DEFAULT_URL));
  cmd.addOption(new Option('--key <key>', 'API key, sent as a Bearer token; for the control API it picks the workspace').env('EMULATOR_KEY'));
  cmd.option('--json', 'print the raw JSON answer instead of a table');
  cmd.exitOverride(usageExit);
  return cmd;
}

/** `--workspace <id>` for a command that acts on one workspace. */
export const WORKSPACE_OPTION = ['--workspace <id>', 'the workspace (default: the one --key belongs to, else default)'] as const;

/** A group of client commands (clock, onboardings, events, workspace). */
export function commandGroup(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).exitOverride(usageExit);
}

/** Commander's own errors (unknown option, missing argument) are usage problems: exit 2; help exits 0. */
export function usageExit(err: CommanderError): never {
  process.exit(err.exitCode === 0 ? 0 : 2);
}

/** Runs a command's body, turning refusals and connection problems into messages and exit codes. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      if (err instanceof ApiError) {
        process.stderr.write(`error ${err.status} ${err.code ?? 'unknown'}: ${err.message}\n`);
        for (const d of err.details) process.stderr.write(`  ${d.path}: ${d.message}\n`);
        // The server speaks of a header; the CLI user sets a flag or a variable.
        if (err.code === 'api_key_missing') process.stderr.write(`  pass --key <API_KEY> or set EMULATOR_KEY (fixture keys: onboarding-emulator control GET /_emulator/keys)\n`);
        process.exitCode = 1;
      } else if (err instanceof UsageError) {
        process.stderr.write(`onboarding-emulator: ${err.message}\n`);
        process.exitCode = 2;
      } else {
        throw err;
      }
    }
  };
}

/** The options of a leaf command (the last argument commander passes before the command itself). */
export function optionsOf(cmd: Command): ClientOptions {
  return cmd.opts<ClientOptions>();
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

type Cell = string | number | boolean | null | undefined;

/**
 * An aligned plain-text table; no colours, so it reads the same in a terminal, a pipe or a CI
 * log. minWidths keeps the columns of later batches (events tail) aligned with the first;
 * header: false prints the rows only.
 */
export function printTable(headers: string[], rows: Cell[][], layout: { minWidths?: number[]; header?: boolean } = {}): void {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, layout.minWidths?.[i] ?? 0, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [...(layout.header === false ? [] : [line(headers)]), ...text.map(line)];
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}

/** Two columns, name and value, for one object. */
export function printFields(fields: [string, Cell][]): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  process.stdout.write(`${fields.map(([k, v]) => `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : String(v)}`).join('\n')}\n`);
}

/** What a report command prints on stdout: a table for people; JSON, JUnit XML or CTRF JSON for tools. */
const REPORT_FORMATS = ['table', 'json', 'junit', 'ctrf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const reportFormatOption = (): Option =>
  new Option('--format <format>', 'what to print on stdout: table, json (as --json), junit (JUnit XML) or ctrf (CTRF JSON)').choices(REPORT_FORMATS);

/** The machine formats of one report; `table` prints the people's form itself. */
export interface ReportRenders {
  json: () => unknown;
  junit: () => string;
  ctrf: () => unknown;
  table: () => void;
}

/** The format --format (or --json) asks for; both naming different ones is a usage mistake. */
export function reportFormat(o: { format?: ReportFormat; json?: boolean }): ReportFormat {
  if (o.json && o.format !== undefined && o.format !== 'json') throw new UsageError(`--json and --format ${o.format} ask for two formats: give one`);
  return o.format ?? (o.json ? 'json' : 'table');
}

export function printReportAs(format: ReportFormat, renders: ReportRenders): void {
  if (format === 'table') renders.table();
  else if (format === 'junit') process.stdout.write(renders.junit());
  else printJson(renders[format]());
}
