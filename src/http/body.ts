import express, { type Request, type Response } from 'express';
import { fail, type ApiError } from '../core/errors.js';

export const BODY_LIMIT = '1mb';

const parseJson = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });

/** Did the client send a body at all (a length above zero, or a chunked stream)? */
function hasBody(req: Request): boolean {
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
  await new Promise<void>((resolve, reject) => {
    parseJson(req, res, (err?: unknown) => (err ? reject(translate(err)) : resolve()));
  });
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('body_not_object', 'The body must be a JSON object.');
  }
  return body;
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
