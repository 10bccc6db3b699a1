import { BODY_CONTAINER_LIMIT, BODY_DEPTH_LIMIT, deeperThan, opensMoreThan } from './documents.js';
import { fail, type ApiError } from './errors.js';

/**
 * What a request body must be, however it comes: read off the wire by the HTTP adapter, or
 * handed over as a value in process (the control helpers, MCP). Both apply these checks, so a
 * body refused over HTTP is refused the same way in process.
 */

/** 1 MB, in bytes: of the body as sent, and of the JSON once decoded. */
export const BODY_LIMIT = 1024 * 1024;

/** "1 MB", "128 KB": the limit as a refusal names it. */
const megabytes = (bytes: number): string => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`);

export const bodyTooLarge = (limit: number): ApiError => fail('body_too_large', `The body is larger than ${megabytes(limit)}.`);

export const tooManyContainers = (): ApiError => fail('body_too_large', `The body holds more than ${BODY_CONTAINER_LIMIT.toLocaleString('en')} objects and arrays.`);

export const bodyTooDeep = (depth: number): ApiError => fail('body_too_deep', `The body nests objects and arrays more than ${depth} levels deep.`);

/** A body once read: nested at most `depth` deep, and an object (a YAML body says mapping). */
export function checkBodyShape(body: unknown, depth: number, form: 'JSON' | 'YAML' = 'JSON'): void {
  if (deeperThan(body, depth)) throw bodyTooDeep(depth);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail('body_not_object', form === 'YAML' ? 'The body must be a YAML mapping (an object), not a list or a single value.' : 'The body must be a JSON object.');
  }
}

/**
 * A body given as a value, as HTTP would have delivered it: its JSON text (what JSON cannot carry
 * is what it would be on the wire: an undefined field left out, NaN null, a Date its ISO text),
 * held to the same size, count and depth limits, read back. Left out (or nothing JSON can write),
 * it is `{}`, as a request without a body.
 */
export function bodyAsSent(body: unknown, limit = BODY_LIMIT, depth = BODY_DEPTH_LIMIT): unknown {
  // Before writing it: a value nested too deep (or holding itself) would overflow JSON.stringify.
  if (deeperThan(body, depth)) throw bodyTooDeep(depth);
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (err) {
    throw fail('body_invalid_json', `The body cannot be written as JSON: ${(err as Error).message}.`);
  }
  if (text === undefined) return {};
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > limit) throw bodyTooLarge(limit);
  if (opensMoreThan(bytes, BODY_CONTAINER_LIMIT)) throw tooManyContainers();
  const read: unknown = JSON.parse(text);
  checkBodyShape(read, depth);
  return read;
}
