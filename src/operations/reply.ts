import type { ApiError } from '../core/errors.js';
import type { TSchema } from '../core/schema.js';

/**
 * What every row is and answers, whatever it serves (the API, the control API, a page): where it
 * lives, its schemas, and the reply its handler returns. One place writes a reply (the HTTP
 * adapter's `send`); in process it is read back as the same JSON.
 */
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * A body already serialized to JSON (a cached rendering), written as is. `onboardingIds`: the
 * onboarding ids it names at its top level (its id, its onboarding_id), when its maker knows
 * them; the request journal reads them from the text otherwise.
 */
export class RawJson {
  constructor(readonly text: string, readonly onboardingIds?: readonly string[]) {}
}

/** JSON text written ahead (journal entries with their bodies as kept), standing for a value of type T: what a client method gets back. */
export class JsonText<T> extends RawJson {
  declare readonly value?: T;
}

/** A file's bytes (or text) with their media type (document downloads, pages, scripts), written as is instead of JSON. */
export class RawFile {
  constructor(readonly bytes: string | Uint8Array, readonly contentType: string) {}
}

/**
 * A JSON document answered in another form than the row's usual answer (a HAR export beside a
 * list): its text written as a file of its media type, and its value kept, so a client method
 * asking for this form is typed by it (ClientCall `query`).
 */
export class JsonFile<T> extends RawFile {
  constructor(readonly value: T, contentType = 'application/json; charset=utf-8') {
    super(JSON.stringify(value), contentType);
  }
}

/** A whole HTML document (a page a person reads). */
export const htmlFile = (text: string): RawFile => new RawFile(text, 'text/html; charset=utf-8');

/** A redirect to this location (the status says which kind); the body says where, in plain text. */
export class Redirect {
  constructor(readonly location: string) {}
}

/**
 * What every row answers, whatever it serves: JSON (an object, or RawJson already serialized),
 * a file or page (RawFile), or a redirect. `T`: the body as a handler gives it, so a client
 * derived from the row knows its answer's type.
 */
export interface Reply<T = unknown> {
  status: number;
  /** undefined: no body at all (MCP's 202 to a notification). */
  body: T;
  headers?: Record<string, string> | undefined;
  /** Set-Cookie values, written as given. */
  cookies?: readonly string[] | undefined;
}

/** What the HTTP edge knows that a handler may need, with no HTTP types. */
export interface RequestInfo {
  requestId: string;
  /** Scheme, host and port the caller used, for the links we hand out. */
  baseUrl: string;
  /** HEAD runs the GET handler; a handler that records what was read (downloads) skips it. */
  head: boolean;
  /** Aborted when the client hangs up before its answer (control routes): long work stops there. */
  signal?: AbortSignal;
  /**
   * The published OpenAPI document for this base URL (control routes): built by the adapter,
   * which the control API may not import, and handed down by every transport.
   */
  apiDocument?: (serverUrl: string) => unknown;
}

/** How a body may be written: JSON always; YAML where a person's file is sent as it is (scenarios). */
export type BodyType = 'json' | 'yaml';

/**
 * What every row says, whatever it serves (the API, the control API, a page: each kind adds its
 * own fields): where it lives and how the OpenAPI document names it. Every row answers a Reply
 * and is run by the one pipeline (`serve`, serve.ts).
 */
export interface RowBase {
  method: Method;
  /** Express-style path: /v1/onboardings/:id */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
}

/** A row that speaks JSON (the API's and the control API's), its input checked against its schemas. */
export interface RouteBase extends RowBase {
  tag: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** The forms the body may come in; left out, JSON only. */
  bodyTypes?: readonly BodyType[];
  /** The largest body the row reads, in bytes, when it is not BODY_LIMIT (a whole workspace's snapshot). */
  bodyLimit?: number;
  /** How deep the body may nest objects and arrays, when it is not BODY_DEPTH_LIMIT (a snapshot holds journaled bodies). */
  bodyDepth?: number;
  /** Checks the raw body before the schema, for refusals with their own code. */
  guard?: (body: unknown) => void;
  /**
   * Refuses a body read off the wire by its bytes, before they are parsed (MCP: over 1 MB, only
   * a restore), where parsing and checking it only to refuse it would cost seconds.
   */
  admitBody?: (bytes: Uint8Array) => ApiError | undefined;
  /** `media`: the body is a file of one of these types (RawFile) instead of JSON. */
  responses: Record<number, { description: string; schema?: TSchema; media?: readonly string[] }>;
}

export const ok = <T>(body: T, status = 200): Reply<T> => ({ status, body });
