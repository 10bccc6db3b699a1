import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { ApiError, fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import { SLOW_RESPONSE_CHUNKS } from '../core/faults.js';
import { committed, jsonAnswer, send } from './reply.js';
import { endAtClose } from './server-span.js';

/** What a request fault leaves for later in the request, once it has been taken. */
export interface FaultEffect {
  /** latency: the wall time to wait after the idempotency reservation. */
  latencyMs: number;
  /** reset_before_commit: the connection is already gone; nothing more may run. */
  reset: boolean;
  /** drop_response_after_commit: run and commit as usual, then close instead of answering. */
  dropResponse: boolean;
  /** slow_response: how the answer is written, slowly; undefined for any other fault. */
  slow?: { firstByteMs: number; betweenBytesMs: number } | undefined;
}

/** Responses whose answer, whatever it turns out to be, is dropped: an error answer too. */
const dropping = new WeakSet<Response>();

const NONE: FaultEffect = { latencyMs: 0, reset: false, dropResponse: false };

/**
 * Applies the workspace's injected faults to a /v1 request (docs/decisions.md, "Fault
 * injection"). A 429 or 500 fault throws here, before anything is read or written; a reset
 * destroys the connection here, for the same reason. A latency fault returns its wait, which
 * the caller spends after the idempotency reservation; a dropped answer is the caller's to
 * carry out once the request committed (dropAnswer). payroll_down faults are not request
 * faults: onboardings.payroll.ts takes them.
 */
export function takeFault(workspace: Workspace, req: Request, res: Response): FaultEffect {
  const fault = workspace.faults.take(req.method, req.path);
  if (!fault) return NONE;
  if (fault.kind === 'rate_limit') throw tooManyRequests(fault.retry_after_seconds ?? 1, `Too many requests (injected fault ${fault.id})`);
  if (fault.kind === 'error') throw fail('internal_error', `Injected fault ${fault.id}: the service failed to handle this request.`);
  // An answer that will not go out whole through the writer: its span ends when the connection closes.
  if (fault.kind === 'reset_before_commit' || fault.kind === 'drop_response_after_commit' || fault.kind === 'slow_response') endAtClose(res);
  if (fault.kind === 'reset_before_commit') {
    req.socket.destroy();
    return { ...NONE, reset: true };
  }
  if (fault.kind === 'drop_response_after_commit') {
    dropping.add(res);
    return { ...NONE, dropResponse: true };
  }
  if (fault.kind === 'slow_response') return { ...NONE, slow: { firstByteMs: fault.first_byte_ms ?? 0, betweenBytesMs: fault.between_bytes_ms ?? 0 } };
  return { ...NONE, latencyMs: fault.latency_ms ?? 0 };
}

/** For the error handler: this request's answer, an error answer too, is to be dropped. */
/**
 * What an answer that never reached the client whole would have said: one a fault dropped, or a
 * slow one the client hung up on. The request ran; the request journal records it unanswered.
 */
export interface DroppedAnswer {
  status: number;
  /** The JSON text that was not sent (its error code and onboarding id are read from it). */
  text: string;
  replayed: boolean;
}

const droppedAnswers = new WeakMap<Response, DroppedAnswer>();
export const droppedAnswerOf = (res: Response): DroppedAnswer | undefined => droppedAnswers.get(res);

export function answerDropped(res: Response): boolean {
  return dropping.has(res);
}

/**
 * Closes the connection without a byte of the answer, once what the request changed is as
 * durable as a sent answer would have made it (with --state-file: on the disk). A failed
 * write changes nothing here: the client hears nothing either way.
 */
export async function dropAnswer(res: Response, would: DroppedAnswer): Promise<void> {
  droppedAnswers.set(res, would);
  await committed(res).catch(() => undefined);
  res.destroy();
}

/**
 * Writes a JSON answer slowly: nothing for `firstByteMs`, then the body in at most
 * SLOW_RESPONSE_CHUNKS pieces with `betweenBytesMs` between them, once the commit is done (the
 * status line cannot be taken back once sent; a failed commit is answered with its 500 at once).
 * A client that hangs up meanwhile ends the writing, and the journal records the request as
 * not answered.
 */
export function writeSlowly(req: Request, res: Response, status: number, text: string, headers: Record<string, string> | undefined, slow: { firstByteMs: number; betweenBytesMs: number }, replayed: boolean): Promise<void> {
  droppedAnswers.set(res, { status, text, replayed });
  return send(req, res, { ...jsonAnswer(status, text, headers), pace: { ...slow, pieces: SLOW_RESPONSE_CHUNKS } }) ?? Promise.resolve();
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
