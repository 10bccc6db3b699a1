import type { Static, TSchema } from '../core/schema.js';
import type { Workspace } from '../core/workspace.js';
import type { JsonFile, JsonText, RawFile, Reply, RequestInfo, RouteBase } from './reply.js';

/**
 * The control API's rows. A row is the whole of a control action: method, path, schemas and
 * handler for HTTP and OpenAPI, and, with `client`, the method it makes in every client (the
 * in-process helpers, the HTTP client the CLI and Testcontainers use, and the ControlClient type
 * of both). Adding a control action is a schema, a service function and a row.
 */
interface ControlContext<E = unknown, B = unknown, Q = unknown> {
  emulator: E;
  /** The selected workspace: by path, by bearer key, else the default one. */
  workspace: Workspace;
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The request headers the row declares (`headers`), by their declared names; undefined when not sent. */
  headers: Record<string, string | undefined>;
  info: RequestInfo;
}

/** What a request header a row reads holds; a header the row does without says `optional`. */
type HeaderDeclaration = string | { readonly description: string; readonly optional: true };

/** How a row appears in the clients. */
export interface ClientCall {
  /** Its place in the client, dotted for a group: `faults.add`. */
  readonly name: string;
  /**
   * What the method takes: nothing (left out); `body`, the whole body (`{}` when left out and
   * every field is optional); `query`, the whole query, optional; or names in order, each a
   * parameter of the row's path, else a header the row declares (`headers`: a string, sent as
   * that header), else a value of its query, else a property of its body (one that may be left
   * out is an optional argument).
   */
  readonly args?: 'body' | 'query' | readonly string[];
  /** The property of the answer the method returns instead of the whole answer (`data` of a list). */
  readonly pick?: string;
  /**
   * Query values the method always sends (`{ format: 'har' }`): it asks for another form of the
   * answer, which the handler gives as a JsonFile, and the method answers that document.
   */
  readonly query?: Readonly<Record<string, string>>;
}

export interface ControlRoute<E = unknown> extends RouteBase {
  kind: 'control';
  /** Acts on one workspace: also served under /_emulator/workspaces/:workspaceId/... */
  perWorkspace: boolean;
  /** Its method in the clients; a list where one answer makes two (`clock.state`, and `clock.now` picking from it). */
  client?: ClientCall | readonly ClientCall[];
  /**
   * Request headers the row reads, by name, with what each holds (a header parameter each in
   * the OpenAPI document, required unless declared `optional`); no other header reaches `handle`.
   */
  headers?: Readonly<Record<string, HeaderDeclaration>>;
  /**
   * Refuses the request's bearer key before its workspace is chosen and its body read: the MCP
   * row takes test keys only. Throws the refusal.
   */
  admitKey?(key: string): void;
  /**
   * Set on the few rows whose answer hands secrets out by design: the key table, a new
   * workspace's keys, the snapshot (the state itself), the outbox's mails, the dashboard's new
   * onboarding (its hosted_url), the Postman collection (keys as variables), a relay's claim
   * (the message as it is to be sent), a relay's open (its session address's secret); and MCP's, whose tools answer what those rows answer,
   * each masked by its own row already. Every other answer is masked (control-runner.ts).
   */
  showsSecrets?: true;
  handle(ctx: ControlContext<E>): Reply | Promise<Reply>;
}

/** A control row as written: `handle` sees the body and query typed from the row's own schemas. */
interface TypedControlRoute<E, B extends TSchema, Q extends TSchema, R, C> extends Omit<ControlRoute<E>, 'body' | 'query' | 'handle' | 'client'> {
  body?: B;
  query?: Q;
  handle(ctx: ControlContext<E, Static<B>, Static<Q>>): Reply<R> | Promise<Reply<R>>;
  client?: C;
}

/** A row as defined: the list's type and, at the type level only (the `~` key never exists), the client method it makes. */
type ControlRow<E, M> = ControlRoute<E> & { readonly '~client'?: M };

type Optional<T> = {} extends T ? [T?] : [T];
type ArgsOf<C, B, Q> = C extends { args: 'body' }
  ? Optional<B>
  : C extends { args: 'query' }
    ? Optional<Q>
    : C extends { args: infer N extends readonly string[] }
      ? Positional<N, B, Q>
      : [];
/** A path parameter or a declared header is a string: neither is in the body's or the query's schema. */
type ValueOf<Name, B, Q> = Name extends keyof Q ? Q[Name] : Name extends keyof B ? B[Name] : string;
/** Named arguments in order; one that may be left out is optional (it must come last, as in TypeScript). */
type Positional<N, B, Q> = N extends readonly [infer Name, ...infer Rest]
  ? undefined extends ValueOf<Name, B, Q>
    ? [ValueOf<Name, B, Q>?, ...Positional<Rest, B, Q>]
    : [ValueOf<Name, B, Q>, ...Positional<Rest, B, Q>]
  : [];
/**
 * A client asks for JSON: the file forms a query can ask for (JUnit, Mermaid) are not its
 * answer, unless the method's fixed `query` asks for a JSON document (a JsonFile) instead.
 */
type AnswerOf<R, C> = C extends { query: object }
  ? R extends JsonFile<infer D> ? D : never
  : C extends { pick: infer K extends keyof R } ? R[K] : Written<Exclude<R, RawFile>>;
/** JSON text written ahead answers the value it stands for. */
type Written<R> = R extends JsonText<infer D> ? D : R;
type MethodOf<C, B, Q, R> = C extends readonly (infer One)[]
  ? MethodOf<One, B, Q, R>
  : C extends { name: infer N extends string }
    ? { name: N; call: (...args: ArgsOf<C, B, Q>) => Promise<AnswerOf<R, C>> }
    : never;

/**
 * The one place a row's types are widened to the list's (sound because the adapter checks the
 * body and query against these same schemas before `handle` runs). `E` (the emulator as the rows
 * see it) comes from the list's `satisfies ControlRoute<ControlHost>[]`: this module may not import
 * the control API.
 */
export function defineControlRoute<E, B extends TSchema = TSchema, Q extends TSchema = TSchema, R = unknown, const C extends ClientCall | readonly ClientCall[] | undefined = undefined>(
  row: TypedControlRoute<E, B, Q, R, C>,
): ControlRow<E, MethodOf<C, Static<B>, Static<Q>, R>> {
  return { ...row, handle: (ctx) => row.handle(ctx as ControlContext<E, Static<B>, Static<Q>>) } as ControlRoute<E>;
}

type Nest<N extends string, F> = N extends `${infer Group}.${infer Rest}` ? { [K in Group]: Nest<Rest, F> } : { [K in N]: F };
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Tidy<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? T[K] : Tidy<T[K]> };

/** The client the rows of a list make: each row's `client.name` a method, grouped at its dots. */
export type ClientOf<Row> = Tidy<
  Intersect<Row extends { readonly '~client'?: infer M } ? (M extends { name: infer N extends string; call: infer F } ? Nest<N, F> : never) : never>
>;

/** A per-workspace path as served for one workspace named in it (`:workspaceId` for the route itself). */
export const workspacePath = (path: string, workspaceId = ':workspaceId'): string => path.replace('/_emulator/', `/_emulator/workspaces/${workspaceId}/`);

/** The paths a row is served at: a per-workspace row twice, as is and under its workspace. */
export const servedPaths = (row: ControlRoute<never>): string[] => (row.perWorkspace ? [row.path, workspacePath(row.path)] : [row.path]);

/** The client methods a row makes, as a list. */
export const clientCalls = (row: ControlRoute<never>): readonly ClientCall[] => (row.client === undefined ? [] : Array.isArray(row.client) ? row.client : [row.client as ClientCall]);

/** The names of a row's path parameters, in order (`:id` is `id`). */
export const pathParams = (row: ControlRoute<never>): string[] => row.path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
