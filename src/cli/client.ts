import { Command, CommanderError, Option, type CommandOptions } from 'commander';
import { queryText, type ControlInput } from '../control/control.call.js';
import { clientMethods, type ControlClient } from '../control/control.client.js';
import { workspacePath } from '../control/control.row.js';
import { DEFAULT_BASE_URL } from '../core/product.js';

/**
 * The CLI's tiny HTTP client for a running emulator: base URL and key from flags or the
 * environment, the spec's error envelope turned into one line on stderr, and exit codes a CI
 * script can use (0 success, 1 the API refused, 2 connection or usage problem).
 */
const DEFAULT_URL = DEFAULT_BASE_URL;

export interface ClientOptions {
  url: string;
  key?: string | undefined;
  json?: boolean | undefined;
  /** Sent with every request besides the client's own (a relay's token). */
  headers?: Readonly<Record<string, string>> | undefined;
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

export async function request<T = unknown>(options: ClientOptions, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const base = baseUrl(options.url);
  if (!path.startsWith('/')) throw new UsageError(`not a valid path: ${path} (it must start with /)`);
  let url: URL;
  try {
    url = new URL(path, base.href.endsWith('/') ? base.href : `${base.href}/`);
  } catch (err) {
    throw new UsageError(`not a valid URL or path: ${options.url} ${path} (${(err as Error).message})`);
  }
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), ...(signal ? { signal } : {}) });
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
    return request(options, row.method, pathOf(path, input), body);
  });
  return { ...methods, workspace: { ...methods.workspace, get: (id) => httpControl(options, id) } };
}

/**
 * Adds --url, --key and --json (with their environment variables) to a command that talks to the
 * emulator; `{ isDefault: true }` runs it when its group is given without a command (`requests`).
 */
export function clientCommand(parent: Command, name: string, description: string, options: CommandOptions = {}): Command {
  const cmd = parent.command(name, options).description(description);
  cmd.addOption(new Option('--url <url>', 'base URL of the running emulator').env('EMULATOR_URL').default(DEFAULT_URL));
  cmd.addOption(new Option('--key <key>', 'API key, sent as a Bearer token; for the control API it picks the workspace').env('EMULATOR_KEY'));
  cmd.option('--json', 'print the raw JSON answer instead of a table');
  cmd.exitOverride(usageExit);
  return cmd;
}

/** `--workspace <id>` for a command that acts on one workspace. */
export const WORKSPACE_OPTION = ['--workspace <id>', 'the workspace (default: the one --key belongs to, else default)'] as const;

/** A group of client commands (clock, onboardings, events, workspace). */
export function commandGroup(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).exitOverride(usageExit);
}

/** Commander's own errors (unknown option, missing argument) are usage problems: exit 2; help exits 0. */
export function usageExit(err: CommanderError): never {
  process.exit(err.exitCode === 0 ? 0 : 2);
}

/** Runs a command's body, turning refusals and connection problems into messages and exit codes. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      if (err instanceof ApiError) {
        process.stderr.write(`error ${err.status} ${err.code ?? 'unknown'}: ${err.message}\n`);
        for (const d of err.details) process.stderr.write(`  ${d.path}: ${d.message}\n`);
        // The server speaks of a header; the CLI user sets a flag or a variable.
        if (err.code === 'api_key_missing') process.stderr.write(`  pass --key <API_KEY> or set EMULATOR_KEY (fixture keys: onboarding-emulator control GET /_emulator/keys)\n`);
        process.exitCode = 1;
      } else if (err instanceof UsageError) {
        process.stderr.write(`onboarding-emulator: ${err.message}\n`);
        process.exitCode = 2;
      } else {
        throw err;
      }
    }
  };
}

/** The options of a leaf command (the last argument commander passes before the command itself). */
export function optionsOf(cmd: Command): ClientOptions {
  return cmd.opts<ClientOptions>();
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

type Cell = string | number | boolean | null | undefined;

/**
 * An aligned plain-text table; no colours, so it reads the same in a terminal, a pipe or a CI
 * log. minWidths keeps the columns of later batches (events tail) aligned with the first;
 * header: false prints the rows only.
 */
export function printTable(headers: string[], rows: Cell[][], layout: { minWidths?: number[]; header?: boolean } = {}): void {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined || c === '' ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, layout.minWidths?.[i] ?? 0, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [...(layout.header === false ? [] : [line(headers)]), ...text.map(line)];
  if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
}

/** Two columns, name and value, for one object. */
export function printFields(fields: [string, Cell][]): void {
  const width = Math.max(...fields.map(([k]) => k.length));
  process.stdout.write(`${fields.map(([k, v]) => `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : String(v)}`).join('\n')}\n`);
}
