import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { holdUntil } from './reply.js';

/**
 * With --state-file: every answer waits until a write holding what the request changed is on
 * the disk, so an answer is never sent for a change a kill could still lose. The writer
 * (src/http/reply.ts, `send`) does the waiting; answers waiting together share one write, and a
 * failed write turns the answer into a 500 state_not_written.
 */
export function holdAnswers(commit: () => Promise<void>): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction) => {
    holdUntil(res, commit);
    next();
  };
}
