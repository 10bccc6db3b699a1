import type { Response } from 'express';
import type { Span } from '../core/tracing.js';

/**
 * The end of a /v1 request's SERVER span. The writer (reply.ts) ends it as it sends the answer,
 * since it knows the status: no 'close' listener per request. The answers the writer never
 * sends whole (a fault's reset, dropped or slow answer) are handed to endAtClose by the fault
 * handling that takes them; a client that hung up is seen by the writer, whose socket is gone.
 */
const SPAN = Symbol('server span');
// In res.locals, the dictionary Express makes for each request.
type Marked = { [SPAN]?: Span | undefined };

/** The request's span, for the writer to end. */
export function spanToEnd(res: Response, span: Span): void {
  (res.locals as Marked)[SPAN] = span;
}

/** Ends the request's span, if it has one still open, with the status answered (or that would have been). */
export function endServerSpan(res: Response, status: number, completed: boolean): void {
  const marked = res.locals as Marked;
  const span = marked[SPAN];
  if (!span) return;
  marked[SPAN] = undefined;
  span.set({
    'http.response.status_code': status,
    'error.type': status >= 500 ? String(status) : undefined,
    'emulator.answer.completed': completed ? undefined : false,
  });
  // For a server, only a 5xx is its own failure; a 4xx is the caller's.
  if (status >= 500) span.fail(`answered ${status}`);
  span.end();
}

/** For an answer that will not go out through the writer whole: the span ends when the connection closes. */
export function endAtClose(res: Response): void {
  if (!(res.locals as Marked)[SPAN]) return;
  res.once('close', () => endServerSpan(res, res.statusCode, res.writableFinished));
}
