import { ApiError } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import { runReceiverCheck, type ReceiverCheckReport, type RequestsSeen } from '../receiver-check/receiver-check.js';
import type { ReceiverCheckBody } from './receiver-check.schemas.js';

/**
 * A receiver check run by the emulator (POST /_emulator/receiver-checks and the in-process
 * helper): with the emulator's own webhook URL policy, resolver and transport, so an address it
 * would not deliver to is not checked either. The workspace's state is neither read nor changed,
 * but for `expect_fetch` (check 12), which reads the workspace's request journal.
 */
/** Receiver checks running at once in this process: each may open 50 connections and run for minutes. */
const MAX_RUNNING_RECEIVER_CHECKS = 4;
let running = 0;

export async function receiverCheck(ws: Workspace, body: ReceiverCheckBody, signal?: AbortSignal): Promise<ReceiverCheckReport> {
  if (running >= MAX_RUNNING_RECEIVER_CHECKS) {
    throw new ApiError('rate_limited', `At most ${MAX_RUNNING_RECEIVER_CHECKS} receiver checks run at once: try again when one has finished.`, undefined, { 'Retry-After': '5' });
  }
  running++;
  try {
    return await run(ws, body, signal);
  } finally {
    running--;
  }
}

function run(ws: Workspace, body: ReceiverCheckBody, signal: AbortSignal | undefined): Promise<ReceiverCheckReport> {
  const settings = ws.delivery;
  return runReceiverCheck(
    {
      url: body.url,
      secret: body.secret,
      ...(body.previous_secret !== undefined ? { previousSecret: body.previous_secret } : {}),
      ...(body.timeout_ms !== undefined ? { timeoutMs: body.timeout_ms } : {}),
      ...(body.burst !== undefined ? { burst: body.burst } : {}),
      ...(body.expect_fetch !== undefined
        ? {
            expectFetch: {
              path: body.expect_fetch.path,
              ...(body.expect_fetch.method !== undefined ? { method: body.expect_fetch.method } : {}),
              ...(body.expect_fetch.within_ms !== undefined ? { withinMs: body.expect_fetch.within_ms } : {}),
            },
          }
        : {}),
    },
    {
      ...(settings ? { transport: settings.transport, urlPolicy: settings.urlPolicy, resolver: settings.resolver } : {}),
      requests: journalSeen(ws),
      signal,
    },
  );
}

/** An entry's place in the journal: its id's number (`jrn_000042`), which a clear does not reset. */
const seqOf = (id: string) => Number.parseInt(id.slice(id.indexOf('_') + 1), 10);

/**
 * The workspace's /v1 requests recorded after start(): by sequence, not time, since the
 * workspace clock may be frozen or travel. Read anew each time (a reset replaces the journal).
 */
function journalSeen(ws: Workspace): RequestsSeen {
  return {
    enabled: ws.requests.enabled,
    start() {
      const newest = ws.requests.newestFirst()[0];
      const after = newest ? seqOf(newest.id) : 0;
      return () => {
        const out = [];
        for (const e of ws.requests.newestFirst()) {
          if (seqOf(e.id) <= after) break;
          out.push({ method: e.method, path: e.path });
        }
        return out;
      };
    },
  };
}
