import { fail } from '../core/errors.js';
import { compileBounded } from '../core/bounded-validation.js';
import { check, compile, type Validator } from '../core/validation.js';
import type { Workspace } from '../core/workspace.js';
import type { Reply, RouteBase } from './reply.js';

/**
 * What every transport does with a row, with no transport in it: the query and body checked
 * against the row's own schemas (the HTTP adapter checks what it parsed from a request, the
 * in-process control helpers what they were given, so both refuse the same input with the same
 * error), and the one pipeline around the handler.
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
    ...(route.body ? { body: compileBounded(route.body) } : {}),
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
 * A request let in by its kind of row: the API checked its key (and took its faults), the
 * control API picked its workspace, a page found its link. What is left is the same for every
 * row, in process or over HTTP (`serve`).
 */
export interface Admitted<T> {
  /** The workspace it acts on; none for a page without a link (a static file). */
  workspace: Workspace | undefined;
  /** The handler (after any checks of its input): the reply to give. */
  run(): Reply | Promise<Reply>;
  /**
   * Gives the reply (writes it, or returns it in process). What it returns as a promise is the
   * rest of a slow or dropped answer: due work starts before it, once the request is done.
   */
  deliver(reply: Reply): T | Promise<T>;
  /** A reply for a refusal `run` threw (a page's own refusal page); undefined leaves the error to the caller. */
  refused?(err: unknown): Reply | undefined;
  /** Undoes what admitting reserved (an Idempotency-Key) when the request fails. */
  abandon?(): void;
}

/**
 * The one pipeline of every row: due work before (what a realtime clock passed since the last
 * request), the handler, the reply given, then what the request made due (the deliveries of its
 * events) started at once, and the workspace's change notice raised (core/activity.ts: the waits
 * and the state file hear it), whoever called: the HTTP adapter or a caller in process. No
 * service or page asks for due work itself, and no caller raises the notice itself.
 */
export async function serve<T>(request: Admitted<T>): Promise<T> {
  const { workspace } = request;
  if (workspace) workspace.scheduler.runDue();
  let given: T | Promise<T>;
  try {
    let reply: Reply;
    try {
      reply = await request.run();
    } catch (err) {
      const page = request.refused?.(err);
      if (page === undefined) throw err;
      reply = page;
    }
    given = request.deliver(reply);
  } catch (err) {
    request.abandon?.();
    throw err;
  }
  if (workspace) {
    workspace.scheduler.runDue();
    workspace.activity.notify();
  }
  return given;
}
