import type { Request, Response } from 'express';
import { ApiError, errorBody } from '../core/errors.js';
import { RawJson, type Reply } from '../resources/route.js';

/** The one place that writes responses: JSON replies and the spec's error envelope. */
export function writeReply(res: Response, reply: Reply): string {
  const text = reply.body instanceof RawJson ? reply.body.text : JSON.stringify(reply.body);
  writeJsonText(res, reply.status, text, reply.headers);
  return text;
}

/** Plain node calls: this is the hot path of every request. */
export function writeJsonText(res: Response, status: number, text: string, headers?: Record<string, string>): void {
  res.statusCode = status;
  if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function writeError(req: Request, res: Response, err: ApiError): void {
  if (err.status === 401) res.set('WWW-Authenticate', 'Bearer');
  writeReply(res, { status: err.status, body: errorBody(err, requestIdOf(req)), headers: err.headers });
}

export function requestIdOf(req: Request): string {
  return (req as Request & { id?: string }).id ?? 'req_unknown';
}
