import type { Static, TSchema } from '../core/schema.js';
import type { Caller, Principal } from './organizations/organizations.access.js';
import type { Workspace } from '../core/workspace.js';
import type { Scope } from './organizations/organizations.model.js';

/**
 * Routes are data: one table per resource feeds the HTTP adapter (matching, auth, scopes,
 * validation) and the published OpenAPI document. Handlers return a reply; one place writes it.
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
 * and is run by the one pipeline (`serve`, route.run.ts).
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
  /** `media`: the body is a file of one of these types (RawFile) instead of JSON. */
  responses: Record<number, { description: string; schema?: TSchema; media?: readonly string[] }>;
}

/** `B` and `Q`: the body and query as their schemas let them through (`defineRoute`). */
export interface ApiContext<B = unknown, Q = unknown> {
  workspace: Workspace;
  caller: Caller;
  /** Set on every route that acts for an employer (all but GET /v1/organizations). */
  principal: Principal;
  params: Record<string, string>;
  query: Q;
  body: B;
  info: RequestInfo;
}

/** A route row as the adapter and OpenAPI see it: every row in one list, whatever its schemas. */
export interface ApiRoute extends RouteBase {
  kind: 'api';
  scope: Scope;
  /** False for the one route that lists employers instead of acting for one. */
  acting?: boolean;
  handle(ctx: ApiContext): Reply | Promise<Reply>;
}

/**
 * A route row as written: `handle` sees the body and query typed from the row's own schemas
 * (with no schema, `unknown`: the query as parsed, the body as read, `undefined` on a read).
 */
export interface TypedApiRoute<B extends TSchema, Q extends TSchema> extends Omit<ApiRoute, 'body' | 'query' | 'handle'> {
  body?: B;
  query?: Q;
  handle(ctx: ApiContext<Static<B>, Static<Q>>): Reply | Promise<Reply>;
}

/**
 * The one place a row's types are widened to the list's. Sound because the adapter
 * (`http/mount.ts`) checks the body and query against these same schemas before `handle`
 * runs, so a schema change breaks the handler's types instead of a cast hiding it.
 */
export function defineRoute<B extends TSchema = TSchema, Q extends TSchema = TSchema>(row: TypedApiRoute<B, Q>): ApiRoute {
  return { ...row, handle: (ctx) => row.handle(ctx as ApiContext<Static<B>, Static<Q>>) };
}

export const ok = <T>(body: T, status = 200): Reply<T> => ({ status, body });
