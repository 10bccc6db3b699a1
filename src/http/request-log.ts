import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { maskSecrets } from '../core/mask.js';
import { requestIdOf } from './reply.js';

const HEALTH_PATH = '/_emulator/health';

/**
 * A request as every log line names it: the path and query as sent, with every key, webhook
 * secret and link token masked (src/core/mask.ts). Headers are never logged.
 */
export const loggedRequest = (req: Request) => ({ id: requestIdOf(req), method: req.method, path: maskSecrets(req.originalUrl) });

/** An unexpected error as the log shows it: an Error still (pino writes its type and stack), its message and stack masked. */
export function loggedError(err: unknown): Error {
  const shown = new Error(maskSecrets(err instanceof Error ? err.message : String(err)));
  if (err instanceof Error) {
    shown.name = err.name;
    shown.stack = maskSecrets(err.stack ?? '');
  }
  return shown;
}

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
        req: loggedRequest(req),
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
        req: loggedRequest(req),
        res: { status: null, dropped: true },
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
      }, 'request');
    });
    next();
  };
}
