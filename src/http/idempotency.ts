import type { Request } from 'express';
import { fail } from '../core/errors.js';
import { canonicalJson, IDEMPOTENCY_KEY_MAX, type StoredResponse } from '../core/idempotency.js';
import type { Workspace } from '../core/workspace.js';

/**
 * Idempotency-Key on write endpoints (spec: Endpoints, conventions). `begin` runs before the
 * body is read, so a duplicate arriving while the first request is still in flight sees it.
 */
export interface IdempotencyGuard {
  /** After the body is known: a stored response to replay, or undefined to go on. */
  check(fingerprint: string): StoredResponse | undefined;
  finish(status: number, body: string, headers: Record<string, string>): void;
  release(): void;
}

export function beginIdempotency(req: Request, ws: Workspace, apiKey: string): IdempotencyGuard | undefined {
  const key = req.get('Idempotency-Key');
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw fail('idempotency_key_invalid', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters.`, 'Idempotency-Key');
  }
  const now = () => ws.clock.nowMs();
  const reservation = ws.idempotency.reserve(apiKey, key, now());
  if (reservation.kind === 'in_progress') {
    throw fail('idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry shortly.');
  }
  let fingerprint = '';
  let settled = reservation.kind === 'done';
  const release = () => {
    if (!settled) ws.idempotency.release(apiKey, key);
    settled = true;
  };
  // A client that hangs up does not free the key: the request runs on, as the service's would,
  // and its end completes or releases the key (finish, or the pipeline's abandon), so a retry
  // meanwhile is 409 idempotency_in_progress and one after it replays what was made.
  return {
    check(fp) {
      fingerprint = fp;
      if (reservation.kind !== 'done') return undefined;
      if (reservation.fingerprint !== fp) {
        throw fail('idempotency_key_reused', 'This Idempotency-Key was used with another request (other endpoint or body) in the last 24 hours.');
      }
      return reservation.response;
    },
    finish(status, body, headers) {
      if (settled) return;
      if (status >= 200 && status < 300) {
        ws.idempotency.complete(apiKey, key, fingerprint, { status, body, headers }, now());
        settled = true;
      } else release();
    },
    release,
  };
}

/** Same endpoint, same employer, same JSON content (key order aside). */
export function fingerprintOf(req: Request, body: unknown): string {
  return `${req.method} ${req.path} ${req.get('Service-Organization') ?? ''} ${canonicalJson(body)}`;
}
