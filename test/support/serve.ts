import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The built CLI, spawned by the end-to-end tests (vitest's global setup builds it). */
export const CLI = 'dist/cli/main.js';
/** The same, for a child started in another working folder. */
const CLI_PATH = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** How long `serve` may take to print its ready line before the start counts as failed. */
const START_TIMEOUT_MS = 10_000;

export interface Served {
  url: string;
  child: ChildProcess;
  ready: Record<string, unknown>;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** stdout and stderr so far. */
  output(): string;
  /** The whole non-empty lines of output() so far (the JSON log lines, stderr included). */
  lines(): string[];
}

/**
 * Starts `serve --port 0` on 127.0.0.1 (given last, so no args widen it: nothing in the tests
 * should listen beyond loopback) and resolves once the ready line is out; rejects with the output if the
 * process exits first or prints nothing ready within START_TIMEOUT_MS. The child is pushed on
 * `children` so the caller's afterEach/afterAll can kill it. `cli`: another copy of the built CLI.
 */
export function serve(args: string[], children: ChildProcess[], env: Record<string, string> = {}, cwd?: string, cli = CLI_PATH): Promise<Served> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args, '--host', '127.0.0.1'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  children.push(child);
  let seen = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${seen}`)), START_TIMEOUT_MS);
    let started = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (started) return;
      // Only whole lines: a chunk may end in the middle of the ready line.
      const line = seen.split('\n').slice(0, -1).find((l) => l.includes('"url"') || l.includes('"listening"'));
      if (!line) return;
      started = true;
      clearTimeout(timer);
      const ready = JSON.parse(line) as Record<string, unknown>;
      // With --public-url, `url` is the address clients are told to use; `listening` is this process's.
      resolve({ url: String(ready.listening ?? ready.url), child, ready, exited, output: () => seen, lines: () => seen.split('\n').slice(0, -1).filter(Boolean) });
    });
    child.stderr!.on('data', (c: Buffer) => (seen += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`exited ${code}: ${seen}`));
    });
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they came. */
  out: string;
}

/** Runs the built CLI with these args to its exit (bounded by the test's timeout), in `cwd` if given; the child is pushed on `children`. */
export function run(args: string[], children: ChildProcess[], env: Record<string, string> = {}, cwd?: string): Promise<Ran> {
  return new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) });
    children.push(child);
    const r: Ran = { code: null, stdout: '', stderr: '', out: '' };
    child.stdout.on('data', (c: Buffer) => ((r.stdout += c), (r.out += c)));
    child.stderr.on('data', (c: Buffer) => ((r.stderr += c), (r.out += c)));
    child.on('close', (code) => resolve({ ...r, code }));
  });
}

export interface Receiver {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1; `handle` answers (or holds) each message once its body is read. */
export async function receiver(handle: (body: string, req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(body, req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
