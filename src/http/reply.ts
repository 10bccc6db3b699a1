import type { Request, Response } from 'express';
import { ApiError, errorBody } from '../core/errors.js';
import type { Reply } from '../resources/route.js';

/** The one place that writes responses: JSON replies and the spec's error envelope. */
export function writeReply(res: Response, reply: Reply): string {
  const text = JSON.stringify(reply.body);
  res.status(reply.status);
  if (reply.headers) res.set(reply.headers);
  res.type('application/json').send(text);
  return text;
}

export function writeError(req: Request, res: Response, err: ApiError): void {
  if (err.status === 401) res.set('WWW-Authenticate', 'Bearer');
  writeReply(res, { status: err.status, body: errorBody(err, requestIdOf(req)), headers: err.headers });
}

export function requestIdOf(req: Request): string {
  return (req as Request & { id?: string }).id ?? 'req_unknown';
}
