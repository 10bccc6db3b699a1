import { setTimeout as sleep } from 'node:timers/promises';
import type { Request } from 'express';
import { ApiError, fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';

/**
 * Applies the workspace's injected faults to a /v1 request (docs/decisions.md, "Fault
 * injection"). A 429 or 500 fault throws here, before anything is read or written; a latency
 * fault returns its wait, which the caller spends after the idempotency reservation.
 * payroll_down faults are not request faults: onboardings.payroll.ts takes them.
 */
export function takeFault(workspace: Workspace, req: Request): number {
  const fault = workspace.faults.take(req.method, req.path);
  if (!fault) return 0;
  if (fault.kind === 'rate_limit') throw tooManyRequests(fault.retry_after_seconds ?? 1, `Too many requests (injected fault ${fault.id})`);
  if (fault.kind === 'error') throw fail('internal_error', `Injected fault ${fault.id}: the service failed to handle this request.`);
  return fault.latency_ms ?? 0;
}

/** 429 rate_limited with Retry-After in whole seconds: an injected fault or the --rate-limit limiter. */
export function tooManyRequests(seconds: number, why: string): ApiError {
  const after = String(seconds);
  return new ApiError('rate_limited', `${why}; retry after ${after} s.`, undefined, { 'Retry-After': after });
}

/** A real timer: latency is wall time, whatever the workspace clock does. */
export async function faultDelay(ms: number): Promise<void> {
  if (ms > 0) await sleep(ms);
}
