import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { ApiError, errorBody, fail } from '../core/errors.js';
import { answerIds } from '../core/journal.js';
import { RawFile, RawJson, Redirect, type Reply } from '../operations/reply.js';
import { endAtClose, endServerSpan } from './server-span.js';

/**
 * The one place an answer leaves: JSON replies, files, pages, redirects and the spec's error
 * envelope all go out through `send`. It holds an answer until what the request changed is
 * durable (with --state-file, src/http/hold.ts), and hands what it sent to the request journal
 * (`onAnswer`), which records that instead of reading the bytes on the wire.
 */

/** What was answered, as the journal records it. */
export interface Sent {
  status: number;
  /** The JSON text of a JSON answer; undefined for any other. */
  json: string | undefined;
  /** The envelope's code, for an error answer. */
  errorCode: string | undefined;
  /** The onboarding ids the answer names, when the writer had the answer as an object. */
  onboardingIds: string[] | undefined;
  /** Sent with Idempotent-Replayed: true, as the replay of an earlier answer. */
  replayed: boolean;
}

export interface Answer {
  status: number;
  headers?: Readonly<Record<string, string>> | undefined;
  /** No body at all when left out (a 204). */
  body?: string | Uint8Array;
  contentType?: string;
  cookies?: readonly string[] | undefined;
  errorCode?: string | undefined;
  /** The onboarding ids the answer names (its id and onboarding_id), when known without reading the text; asked only when someone listens (onAnswer). */
  onboardingIds?: (() => string[]) | undefined;
  /** slow_response: nothing for firstByteMs, then the body in pieces with betweenBytesMs between them. */
  pace?: { firstByteMs: number; betweenBytesMs: number; pieces: number } | undefined;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What the writer is told about one response, kept in Express's own per-request store
 * (res.locals) rather than a WeakMap keyed by the response: an entry per request there left the
 * garbage collector an ephemeron per request, which cost GET about a tenth of its throughput.
 */
interface WriterLocals {
  /** Told what the writer sends: the journal, for the requests it records. */
  onAnswer?: (sent: Sent) => void;
  /** The commit the answer waits for (holdAnswers, with a state file). */
  commit?: () => Promise<void>;
}
const localsOf = (res: Response): WriterLocals => res.locals as WriterLocals;

/** Has the writer tell `listener` what it sends for this response, as it sends it. */
export const onAnswer = (res: Response, listener: (sent: Sent) => void): void => void (localsOf(res).onAnswer = listener);

/** The commit this response's answer waits for. */
export const holdUntil = (res: Response, commit: () => Promise<void>): void => void (localsOf(res).commit = commit);

/**
 * Resolves once what the request changed is as durable as an answer would have waited for: at
 * once without a state file. For a request that closes its connection instead of answering (an
 * injected dropped answer), so the change it did not report is still kept.
 */
export function committed(res: Response): Promise<void> {
  return localsOf(res).commit?.() ?? Promise.resolve();
}

/** Headers a replacement error answer keeps; the others described the answer it replaces. */
const KEPT = new Set(['request-id', 'service-version']);

/**
 * Sends the answer once the request's change is durable. When the commit fails, a 500
 * state_not_written in the envelope goes instead: the change is not acknowledged. A promise
 * only when there is something to wait for (a commit, a paced answer): not on the hot path.
 */
export function send(req: Request, res: Response, answer: Answer): Promise<void> | undefined {
  const { commit } = localsOf(res);
  if (!commit) return write(res, answer);
  return commit().then(
    () => write(res, answer),
    (err: unknown) => {
      if (res.headersSent) {
        endServerSpan(res, res.statusCode, false);
        return void res.destroy();
      }
      for (const name of res.getHeaderNames()) if (!KEPT.has(name)) res.removeHeader(name);
      return write(res, errorAnswer(req, fail('state_not_written', `The change could not be written to the state file, so it is not acknowledged: ${(err as Error).message}`)));
    },
  );
}

/** Plain node calls: this is the hot path of every request. */
function write(res: Response, a: Answer): Promise<void> | undefined {
  if (res.destroyed) return void endServerSpan(res, a.status, false); // the client hung up first
  const listener = localsOf(res).onAnswer;
  if (listener) {
    const json = a.contentType === JSON_TYPE && typeof a.body === 'string' ? a.body : undefined;
    listener({ status: a.status, json, errorCode: a.errorCode, onboardingIds: a.onboardingIds?.(), replayed: a.headers?.['Idempotent-Replayed'] === 'true' });
  }
  res.statusCode = a.status;
  if (a.headers) for (const name in a.headers) res.setHeader(name, a.headers[name]!);
  if (a.cookies) for (const cookie of a.cookies) res.appendHeader('Set-Cookie', cookie);
  if (a.body === undefined) {
    res.end();
    return void endServerSpan(res, a.status, true);
  }
  const bytes = a.body;
  if (a.contentType) res.setHeader('Content-Type', a.contentType);
  res.setHeader('Content-Length', typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength);
  if (!a.pace) {
    res.end(bytes);
    return void endServerSpan(res, a.status, true);
  }
  endAtClose(res); // a paced answer may be cut short by the client
  return paced(res, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, a.pace);
}

/** Writes the body in pieces; a client that hangs up meanwhile ends the writing. */
async function paced(res: Response, bytes: Uint8Array, pace: NonNullable<Answer['pace']>): Promise<void> {
  if (pace.firstByteMs > 0) await sleep(pace.firstByteMs);
  if (res.destroyed) return;
  const size = Math.max(1, Math.ceil(bytes.length / pace.pieces));
  let at = 0;
  for (; at + size < bytes.length; at += size) {
    res.write(bytes.subarray(at, at + size));
    if (pace.betweenBytesMs > 0) await sleep(pace.betweenBytesMs);
    if (res.destroyed) return;
  }
  res.end(bytes.subarray(at));
}

export const jsonAnswer = (status: number, text: string, headers?: Readonly<Record<string, string>>): Answer => ({ status, headers, body: text, contentType: JSON_TYPE });

/**
 * Writes any row's reply (API, control or page); returns its JSON text for the idempotency
 * record ('' for a file, a redirect or no body, which no API write answers).
 */
export function writeReply(req: Request, res: Response, reply: Reply): string {
  const { status, headers, cookies, body } = reply;
  if (body === undefined) {
    send(req, res, { status, headers, cookies });
    return '';
  }
  if (body instanceof RawFile) {
    send(req, res, { status, headers, cookies, body: body.bytes, contentType: body.contentType });
    return '';
  }
  if (body instanceof Redirect) {
    res.location(body.location); // percent-encodes what a Location header may not hold
    const location = String(res.getHeader('Location'));
    send(req, res, { status, headers, cookies, body: `Redirecting to ${location}`, contentType: 'text/plain; charset=utf-8' });
    return '';
  }
  const text = replyText(reply);
  // The journal gets the answer's onboarding ids from the object, or from the maker of a text that says them, without reading the text.
  send(req, res, { status, headers, cookies, body: text, contentType: JSON_TYPE, onboardingIds: answerIdsOf(body) });
  return text;
}

function answerIdsOf(body: unknown): (() => string[]) | undefined {
  if (!(body instanceof RawJson)) return () => answerIds(body);
  const ids = body.onboardingIds;
  return ids ? () => [...ids] : undefined;
}

/** The JSON text writeReply would send ('' for a file, a redirect or no body), for an answer that is kept but not sent. */
export function replyText(reply: Reply): string {
  if (reply.body === undefined || reply.body instanceof RawFile || reply.body instanceof Redirect) return '';
  return reply.body instanceof RawJson ? reply.body.text : JSON.stringify(reply.body);
}

/** The envelope of an error as JSON text, as writeError would send it. */
export const envelopeText = (req: Request, err: ApiError): string => JSON.stringify(errorBody(err, requestIdOf(req)));

function errorAnswer(req: Request, err: ApiError): Answer {
  const headers = err.status === 401 ? { ...err.headers, 'WWW-Authenticate': 'Bearer' } : err.headers;
  return { ...jsonAnswer(err.status, envelopeText(req, err), headers), errorCode: err.code };
}

export function writeError(req: Request, res: Response, err: ApiError): void {
  void send(req, res, errorAnswer(req, err));
}

export function requestIdOf(req: Request): string {
  return (req as Request & { id?: string }).id ?? 'req_unknown';
}
