import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { fail } from '../core/errors.js';
import { writeError } from './reply.js';

/** The commit of each held response, for a request that ends without an answer (committed). */
const commits = new WeakMap<Response, () => Promise<void>>();

/**
 * Resolves once what the request changed is as durable as an answer would have waited for:
 * at once without a state file. For a request that closes its connection instead of
 * answering (an injected dropped answer), so the change it did not report is still kept.
 */
export function committed(res: Response): Promise<void> {
  return commits.get(res)?.() ?? Promise.resolve();
}

/** Headers a replacement error answer keeps; the others described the answer it replaces. */
const KEPT = new Set(['request-id', 'service-version']);

/**
 * Holds every answer until `commit()` has resolved (with --state-file: until a write holding
 * what the request changed is on the disk), so an answer is never sent for a change a kill
 * could still lose. The handler's `res.end` is deferred as it was called; answers held together
 * share one write. When the commit fails, the answer is replaced by a 500 state_not_written in
 * the envelope: the change is not acknowledged. Anything already streamed cannot be taken back,
 * so such a response is cut instead.
 */
export function holdAnswers(commit: () => Promise<void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    commits.set(res, commit);
    const end = res.end;
    res.end = function held(this: Response, ...args: unknown[]) {
      res.end = end;
      commit().then(
        () => void (end as (...a: unknown[]) => Response).apply(res, args),
        (err: unknown) => {
          if (res.headersSent) return void res.destroy();
          for (const name of res.getHeaderNames()) if (!KEPT.has(name)) res.removeHeader(name);
          writeError(req, res, fail('state_not_written', `The change could not be written to the state file, so it is not acknowledged: ${(err as Error).message}`));
        },
      );
      return res;
    } as Response['end'];
    next();
  };
}
