import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './reply.js';

const HEALTH_PATH = '/_emulator/health';

/**
 * One JSON line per request: request id, method, path, status (null when the connection
 * closed before an answer was sent) and duration. Written on
 * 'finish' with a plain object, so a request costs one log call (no child logger per request,
 * which measurably slowed the hot path; docs/decisions.md).
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const status = res.statusCode;
      const entry = {
        req: { id: requestIdOf(req), method: req.method, path: req.originalUrl },
        res: { status },
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (status >= 500) logger.error(entry, 'request');
      // A container engine probes health every few seconds: at info it would bury the requests that matter.
      else if (status === 200 && req.path === HEALTH_PATH) logger.debug(entry, 'request');
      else logger.info(entry, 'request');
    });
    // No answer went out (an injected reset or dropped answer, or a client that hung up): still
    // one line, with no status, so the request is not missing from the log; not an error of ours.
    res.once('close', () => {
      if (res.writableFinished) return;
      logger.info({
        req: { id: requestIdOf(req), method: req.method, path: req.originalUrl },
        res: { status: null, dropped: true },
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      }, 'request');
    });
    next();
  };
}
