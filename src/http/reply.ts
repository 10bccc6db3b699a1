import type { Request, Response } from 'express';
import { ApiError, errorBody } from '../core/errors.js';
import { RawFile, RawJson, type Reply } from '../resources/route.js';

/**
 * The one place that writes responses: JSON replies, files and the spec's error envelope.
 * Returns the JSON text for the idempotency record; files come from GET routes only, which
 * keep no record, so they return ''.
 */
export function writeReply(res: Response, reply: Reply): string {
  if (reply.body instanceof RawFile) {
    writeFile(res, reply.status, reply.body, reply.headers);
    return '';
  }
  const text = replyText(reply);
  writeJsonText(res, reply.status, text, reply.headers);
  return text;
}

/** The JSON text writeReply would send ('' for a file), for an answer that is kept but not sent. */
export function replyText(reply: Reply): string {
  if (reply.body instanceof RawFile) return '';
  return reply.body instanceof RawJson ? reply.body.text : JSON.stringify(reply.body);
}

/** Plain node calls: this is the hot path of every request. */
export function writeJsonText(res: Response, status: number, text: string, headers?: Record<string, string>): void {
  res.statusCode = status;
  if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function writeFile(res: Response, status: number, file: RawFile, headers?: Record<string, string>): void {
  res.statusCode = status;
  if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Length', file.bytes.byteLength);
  res.end(file.bytes);
}

/** The envelope of an error as JSON text, as writeError would send it. */
export const envelopeText = (req: Request, err: ApiError): string => JSON.stringify(errorBody(err, requestIdOf(req)));

export function writeError(req: Request, res: Response, err: ApiError): void {
  if (err.status === 401) res.set('WWW-Authenticate', 'Bearer');
  writeReply(res, { status: err.status, body: errorBody(err, requestIdOf(req)), headers: err.headers });
}

export function requestIdOf(req: Request): string {
  return (req as Request & { id?: string }).id ?? 'req_unknown';
}
