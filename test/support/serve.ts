import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The built CLI, spawned by the end-to-end tests of `serve` (vitest's global setup builds it). */
export const CLI = 'dist/cli/main.js';

export interface Served {
  url: string;
  child: ChildProcess;
  ready: Record<string, unknown>;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** stdout and stderr so far. */
  output(): string;
}

/** Starts `serve --port 0`; resolves with its URL once the ready line is out, rejects with its output if it exits first. */
export function serve(args: string[], children: ChildProcess[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let seen = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${seen}`)), 10_000);
    let started = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (started) return;
      const line = seen.split('\n').find((l) => l.includes('"url"'));
      if (!line) return;
      started = true;
      clearTimeout(timer);
      resolve({ url: String((JSON.parse(line) as { url: string }).url), child, ready: JSON.parse(line) as Record<string, unknown>, exited, output: () => seen });
    });
    child.stderr!.on('data', (c: Buffer) => (seen += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`exited ${code}: ${seen}`));
    });
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
