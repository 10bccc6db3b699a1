import type { Static, TSchema } from '../core/schema.js';
import type { Caller, Principal } from './organizations/organizations.access.js';
import type { Workspace } from '../core/workspace.js';
import type { Scope } from './organizations/organizations.model.js';
import type { Reply, RequestInfo, RouteBase } from '../operations/reply.js';

/**
 * The API's routes are data: one table per resource feeds the HTTP adapter (matching, auth,
 * scopes, validation) and the published OpenAPI document. Handlers return a reply (the shapes
 * every row shares: src/operations/reply.ts); one place writes it.
 */

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

