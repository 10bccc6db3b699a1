import express, { type Request, type Response } from 'express';
import { fail, type ApiError } from '../core/errors.js';
import { lingeringClose } from './lingering-close.js';

/** 1 MB, in bytes: of the body as sent, and of the JSON once decoded. */
export const BODY_LIMIT = 1024 * 1024;

const parseJson = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });

/** Did the client send a body at all (a length above zero, or a chunked stream)? */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a write request's body. No body counts as {} (cancel, hosted-link); a body must be
 * JSON, at most 1 MB, and an object. Each refusal has its own status (docs/decisions.md).
 */
export async function readJsonBody(req: Request, res: Response): Promise<unknown> {
  if (!hasBody(req)) return {};
  if (!req.is(['application/json', 'application/*+json'])) {
    throw fail('content_type_unsupported', 'Send the body as JSON with Content-Type: application/json.');
  }
  // A body announced or seen to be over the limit is answered at once, not once the parser has
  // read it to its end (however long that is); the rest is drained after the answer.
  if (Number(req.headers['content-length']) > BODY_LIMIT) throw tooLarge(req, res);
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    const count = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > BODY_LIMIT) {
        req.off('data', count);
        reject(tooLarge(req, res));
      }
    };
    req.on('data', count);
    parseJson(req, res, (err?: unknown) => {
      req.off('data', count);
      if (err) reject(translate(err));
      else resolve();
    });
  });
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('body_not_object', 'The body must be a JSON object.');
  }
  return body;
}

function tooLarge(req: Request, res: Response): ApiError {
  lingeringClose(req, res);
  return fail('body_too_large', 'The body is larger than 1 MB.');
}

function translate(err: unknown): ApiError {
  const type = (err as { type?: string }).type;
  switch (type) {
    case 'entity.too.large':
      return fail('body_too_large', 'The body is larger than 1 MB.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return fail('content_type_unsupported', 'Send the body as UTF-8 JSON.');
    case 'request.size.invalid':
    case 'request.aborted':
      return fail('body_invalid_json', 'The body ended before its announced length.');
    default:
      return fail('body_invalid_json', `The body is not valid JSON: ${(err as Error).message ?? 'parse error'}.`);
  }
}
