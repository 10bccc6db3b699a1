import express, { type Request, type Response } from 'express';
import { BODY_CONTAINER_LIMIT, BODY_DEPTH_LIMIT, opensMoreThan, parseYaml } from '../core/documents.js';
import { ApiError, fail } from '../core/errors.js';
import { BODY_LIMIT, bodyTooDeep, bodyTooLarge, checkBodyShape, tooManyContainers } from '../core/request-body.js';
import type { BodyType } from '../operations/reply.js';
import { lingeringClose } from './lingering-close.js';

/**
 * A YAML body's own limit: the parser takes up to about 3 ms per KB (a dense flow list; a
 * scenario's usual text half that), so 128 KB held the process 0.3 s. A scenario written by
 * hand is a few KB; larger documents go as JSON.
 */
const YAML_BODY_LIMIT = 32 * 1024;
/** The values a YAML body may hold once its aliases are expanded: a few KB of anchors can stand for millions, which every check after reads in full. */
const YAML_VALUES_LIMIT = 100_000;

/** The body's bytes as sent, kept on the request for the journal (src/http/journal.ts). */
export type WithRawBody = Request & { rawBody?: Buffer };
/** A refusal of a body by its bytes, before they are parsed; undefined to take it. */
type Admit = (raw: Buffer) => ApiError | undefined;
type Admitting = Request & { admitBody?: Admit | undefined };
/** Runs on the text before it is parsed: keeps it for the journal, and refuses one too costly to parse. */
const beforeParse = (req: unknown, _res: unknown, buf: Buffer): void => {
  const refusal = (req as Admitting).admitBody?.(buf);
  if (refusal) throw Object.assign(new Error(refusal.message), { type: 'entity.refused', refusal });
  if (opensMoreThan(buf, BODY_CONTAINER_LIMIT)) throw Object.assign(new Error('too many objects'), { type: 'entity.too.many' });
  (req as WithRawBody).rawBody = buf;
};

/** The parsers for one limit, made once per limit a row asks for. */
const parsers = new Map<number, { json: ReturnType<typeof express.json>; text: ReturnType<typeof express.text> }>();
function parsersFor(limit: number) {
  let p = parsers.get(limit);
  if (!p) parsers.set(limit, (p = { json: express.json({ limit, strict: false, type: () => true, verify: beforeParse }), text: express.text({ limit, type: () => true }) }));
  return p;
}

const JSON_TYPES = ['application/json', 'application/*+json'];
/** Every name YAML goes by: the registered one and the two in common use before it. */
const YAML_TYPES = ['application/yaml', 'text/yaml', 'application/x-yaml'];

/** Did the client send a body at all (a length above zero, or a chunked stream)? */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a write request's body. No body counts as {} (cancel, hosted-link); a body must be
 * JSON (or YAML, on a row that takes it), at most 1 MB, and an object. Each refusal has its
 * own status (docs/decisions.md). `admit` may refuse a JSON body by its bytes before they are
 * parsed (the MCP endpoint: only a restore may be larger than 1 MB).
 */
export async function readJsonBody(req: Request, res: Response, types: readonly BodyType[] = ['json'], limit = BODY_LIMIT, depth = BODY_DEPTH_LIMIT, admit?: Admit): Promise<unknown> {
  if (!hasBody(req)) return {};
  (req as Admitting).admitBody = admit;
  const yaml = types.includes('yaml') && typeof req.is(YAML_TYPES) === 'string';
  if (yaml) limit = Math.min(limit, YAML_BODY_LIMIT);
  if (!yaml && !req.is(JSON_TYPES)) {
    throw fail('content_type_unsupported', types.includes('yaml')
      ? 'Send the body as JSON with Content-Type: application/json, or as YAML with Content-Type: application/yaml.'
      : 'Send the body as JSON with Content-Type: application/json.');
  }
  // A body announced or seen to be over the limit is answered at once, not once the parser has
  // read it to its end (however long that is); the rest is drained after the answer.
  if (Number(req.headers['content-length']) > limit) throw tooLarge(req, res, limit);
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    const count = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > limit) {
        req.off('data', count);
        reject(tooLarge(req, res, limit));
      }
    };
    req.on('data', count);
    const { json, text } = parsersFor(limit);
    (yaml ? text : json)(req, res, (err?: unknown) => {
      req.off('data', count);
      if (err) reject(translate(err, yaml ? 'YAML' : 'JSON', limit));
      else resolve();
    });
  });
  let body: unknown = req.body;
  if (yaml) {
    const read = parseYaml(typeof body === 'string' ? body : '', YAML_VALUES_LIMIT);
    if (!read.ok) {
      if (read.tooLarge) throw fail('body_too_large', `The body holds ${read.message}.`);
      throw read.tooDeep ? forgotten(req, bodyTooDeep(depth)) : fail('body_invalid_yaml', `The body is ${read.message}.`);
    }
    body = read.data;
  }
  try {
    checkBodyShape(body, depth, yaml ? 'YAML' : 'JSON');
  } catch (err) {
    throw err instanceof ApiError && err.code === 'body_too_deep' ? forgotten(req, err) : err;
  }
  return body;
}

/** Refused, and forgotten: what was parsed is not kept on the request for the journal to record. */
function forgotten(req: Request, err: ApiError): ApiError {
  (req as Request & { body?: unknown }).body = undefined;
  (req as WithRawBody).rawBody = undefined;
  return err;
}

function tooLarge(req: Request, res: Response, limit: number): ApiError {
  lingeringClose(req, res);
  return bodyTooLarge(limit);
}

function translate(err: unknown, format: 'JSON' | 'YAML', limit: number): ApiError {
  const type = (err as { type?: string }).type;
  switch (type) {
    case 'entity.refused':
      return (err as { refusal: ApiError }).refusal;
    case 'entity.too.large':
      return bodyTooLarge(limit);
    case 'entity.too.many':
      return tooManyContainers();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return fail('content_type_unsupported', `Send the body as UTF-8 ${format}.`);
    case 'request.size.invalid':
    case 'request.aborted':
      return fail(format === 'YAML' ? 'body_invalid_yaml' : 'body_invalid_json', 'The body ended before its announced length.');
    default:
      return fail(format === 'YAML' ? 'body_invalid_yaml' : 'body_invalid_json', `The body is not valid ${format}: ${(err as Error).message ?? 'parse error'}.`);
  }
}
