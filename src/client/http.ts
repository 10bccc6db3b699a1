import { ApiError as Refusal } from '../core/errors.js';
import { queryText, sentHeaders, type ControlInput } from '../operations/control-runner.js';
import { clientMethods, type ControlClient } from '../control/control.client.js';
import { workspacePath } from '../operations/control-row.js';
import { DEFAULT_BASE_URL } from '../core/product.js';

/**
 * The HTTP client of a running emulator, for the CLI, the Node API's relay and the Testcontainers
 * module: a base URL and key, the spec's error envelope thrown as ApiError with its code, and
 * UsageError when nothing (or something else) answers.
 */
const DEFAULT_URL = DEFAULT_BASE_URL;

export interface ClientOptions {
  url: string;
  key?: string | undefined;
  json?: boolean | undefined;
  /** Aborts every request of the client when it fires (a relay's long poll, ended by its close). */
  signal?: AbortSignal | undefined;
}

/** The API answered with an error status: the status and its error envelope (code, message, details, param), for every HTTP client call. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly details: { path: string; message: string }[] = [],
    readonly param?: string,
  ) {
    super(message);
  }
}

/** Nothing answered, or the command line was wrong: exit 2. */
export class UsageError extends Error {}

/**
 * --url as an http(s) base. `127.0.0.1:4304` and `localhost:4010` are what people type: the
 * first is no URL at all, the second one of the scheme `localhost:`; both get the fix named.
 */
function baseUrl(raw: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '') return url;
  const hint = /^[\w.-]+:\d+(\/.*)?$/.test(raw) ? ` (did you mean http://${raw}?)` : '';
  throw new UsageError(`--url must be an http:// or https:// URL, such as ${DEFAULT_URL}; got ${JSON.stringify(raw)}${hint}`);
}

/** One line saying what answered instead: its status, its type and the start of its body, never the whole of it. */
function notAnEmulator(url: URL, res: Response, text: string): string {
  const start = text.replace(/\s+/g, ' ').trim().slice(0, 60);
  const type = res.headers.get('content-type')?.split(';')[0] ?? 'no content type';
  return `${url.origin} is not an onboarding emulator (got ${res.status} ${type}${start ? `: ${JSON.stringify(start)}${text.length > 60 ? '...' : ''}` : ''}); check --url or EMULATOR_URL`;
}

/** One request to the emulator; `headers` are sent besides the client's own (a row's declared headers). */
export async function request<T = unknown>(options: ClientOptions, method: string, path: string, body?: unknown, headers: Readonly<Record<string, string>> = {}): Promise<T> {
  const { signal } = options;
  const base = baseUrl(options.url);
  if (!path.startsWith('/')) throw new UsageError(`not a valid path: ${path} (it must start with /)`);
  let url: URL;
  try {
    url = new URL(path, base.href.endsWith('/') ? base.href : `${base.href}/`);
  } catch (err) {
    throw new UsageError(`not a valid URL or path: ${options.url} ${path} (${(err as Error).message})`);
  }
  const sent: Record<string, string> = { ...headers, Accept: 'application/json' };
  if (options.key) sent.Authorization = `Bearer ${options.key}`;
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers: sent, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), ...(signal ? { signal } : {}) });
  } catch (err) {
    if (signal?.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new UsageError(`cannot reach the emulator at ${url.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message} (is it running? set --url or EMULATOR_URL)`);
  }
  const text = await res.text();
  // Every answer of the emulator, errors, pages and files included, carries both: another server's does not.
  if (!res.headers.has('request-id') || !res.headers.has('service-version')) throw new UsageError(notAnEmulator(url, res, text));
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // A file or text the emulator answers (a Mermaid diagram, JUnit XML): the text itself.
    parsed = res.ok ? text : undefined;
  }
  if (!res.ok) {
    const e = (parsed as { error?: { code?: string; message?: string; param?: string; details?: { path: string; message: string }[] } } | undefined)?.error;
    throw new ApiError(res.status, e?.code, e?.message ?? (text.trim() || res.statusText), e?.details ?? [], e?.param);
  }
  return parsed as T;
}

/** A row's path with its parameters filled in and its query appended. */
function pathOf(path: string, input: ControlInput): string {
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(input.params[name] ?? ''));
  // An object (a wait's body_includes, given as the object in process) goes as its JSON text, as the query takes it.
  const query = new URLSearchParams(Object.entries(input.query).map(([name, value]): [string, string] => [name, queryText(value)]));
  return query.size > 0 ? `${filled}?${query}` : filled;
}

/**
 * A row's declared headers as sent, checked as in process (sentHeaders): a value no request can
 * carry is refused with the same status, code and param as there, not sent.
 */
function headersOf(input: ControlInput): Record<string, string> {
  try {
    return sentHeaders(input.headers);
  } catch (err) {
    if (err instanceof Refusal) throw new ApiError(err.status, err.code, err.message, [], err.param);
    throw err;
  }
}

/**
 * The control interface over HTTP, the twin of createEmulator()'s helpers: each method sends the
 * control row it is made from, and a refusal throws ApiError with the envelope's code, message and
 * details. Without a workspace id the key picks the workspace (the server's rule); with one, the
 * per-workspace paths (/_emulator/workspaces/{id}/...) name it. A write without a body sends `{}`.
 */
export function httpControl(options: ClientOptions, workspace?: string): ControlClient {
  const methods = clientMethods((row, input) => {
    const path = workspace !== undefined && row.perWorkspace ? workspacePath(row.path, encodeURIComponent(workspace)) : row.path;
    // Only a body left out is `{}`: null is sent as null, for the server to refuse as it refuses it from anyone.
    const body = input.body === undefined && (row.method === 'POST' || row.method === 'PUT' || row.method === 'PATCH') ? {} : input.body;
    return request(options, row.method, pathOf(path, input), body, headersOf(input));
  });
  return { ...methods, workspace: { ...methods.workspace, get: (id) => httpControl(options, id) } };
}
