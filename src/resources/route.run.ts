import { fail } from '../core/errors.js';
import { check, compile, type Validator } from '../core/validation.js';
import type { Workspace } from '../core/workspace.js';
import type { RouteBase } from './route.js';

/**
 * What every transport does around a row's handler, with no transport in it: the query and body
 * checked against the row's own schemas (the HTTP adapter checks what it parsed from a request,
 * the in-process control helpers what they were given, so both refuse the same input with the
 * same error), and due work run before and after.
 */
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export const isWrite = (route: RouteBase): boolean => WRITES.has(route.method);

export interface CheckedInput {
  body?: Validator<unknown>;
  query?: Validator<unknown>;
  /** Query parameters declared as integers: written in decimal digits only. */
  integers: string[];
}

/** Every schema is compiled once, when the app (or the client) is built. */
export function compileInput(route: RouteBase): CheckedInput {
  const properties = (route.query as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return {
    ...(route.body ? { body: compile(route.body) } : {}),
    ...(route.query ? { query: compile(route.query, { coerce: true }) } : {}),
    integers: Object.entries(properties).filter(([, schema]) => schema.type === 'integer').map(([name]) => name),
  };
}

/**
 * The query, coerced to its declared types. Coercion alone reads `0x10`, `1e1` and ` 16` as
 * numbers; the real service's integer parameters take decimal digits, so anything else is
 * refused before the schema sees it. `query` is the caller's copy: coercion writes into it.
 */
export function checkedQuery(compiled: CheckedInput, query: Record<string, unknown>): unknown {
  for (const name of compiled.integers) {
    const value = query[name];
    if (typeof value === 'string' && !/^-?[0-9]+$/.test(value)) {
      throw fail('parameter_invalid', `${name}: must be an integer written in decimal digits, such as 25.`, name);
    }
  }
  return compiled.query ? check(compiled.query, query) : query;
}

/** The body of a write, through the row's guard (refusals with their own code) and then its schema. */
export function checkedBody(route: RouteBase, compiled: CheckedInput, body: unknown): unknown {
  route.guard?.(body);
  return compiled.body ? check(compiled.body, body) : body;
}

/**
 * Due work runs around every request, so no service or page has to ask for it: before, what a
 * realtime clock passed since the last request; after, what the request made due (the deliveries
 * of its events) starts at once.
 */
export const beforeRequest = (workspace: Workspace): void => void workspace.scheduler.runDue();
export const afterRequest = (workspace: Workspace): void => void workspace.scheduler.runDue();
