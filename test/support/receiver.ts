import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect } from 'vitest';
import { closedPort } from './net.js';
import { isWebhookMessage, messageProblems } from './webhook-messages.js';

/**
 * Real webhook receivers for the tests: node:http servers on 127.0.0.1 (never another
 * interface), each answering by a programmable behaviour and recording every request with its
 * exact raw body bytes. `useReceivers()` registers an afterEach that closes every server the
 * test started, hanging connections included, and fails the test if any webhook message one of
 * them got does not match its webhook in the published document (test/support/webhook-messages.ts).
 */

/** What a receiver does with one request, after the whole body has been read. */
export type Behaviour =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /** Answers with `then` after `ms` milliseconds. */
  | { kind: 'delay'; ms: number; then: Behaviour }
  /** Never answers; the connection stays open until the client gives up or the test ends. */
  | { kind: 'hang' }
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
  /** Destroys the socket without any response (the client sees a reset / hang-up). */
  | { kind: 'destroy' }
  /** Streams `bytes` bytes of body with this status, in 64 KiB chunks, as long as the client reads. */
  | { kind: 'huge'; status: number; bytes: number };

/** Shorthands. */
export const answer = (status: number, body?: string): Behaviour => ({ kind: 'status', status, ...(body === undefined ? {} : { body }) });
export const hang: Behaviour = { kind: 'hang' };
export const destroy: Behaviour = { kind: 'destroy' };

export interface ReceivedRequest {
  /** 0-based, in arrival order (of complete bodies). */
  index: number;
  method: string;
  /** Path and query as sent. */
  path: string;
  /** Node's lower-cased header object. */
  headers: IncomingHttpHeaders;
  /** Names and values as they came over the wire, in order. */
  rawHeaders: string[];
  /** The exact body bytes. */
  body: Buffer;
  /** Wall-clock milliseconds when the body was complete. */
  receivedAt: number;
}

/** A behaviour for all requests, or one chosen per request (by path, by count, ...). */
export type Program = Behaviour | ((req: ReceivedRequest) => Behaviour);

export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** `${base}${path}`; path defaults to `/hook`. */
  url(path?: string): string;
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** The requests for one path. */
  to(path: string): ReceivedRequest[];
  /** Replaces the behaviour for the requests that come next. */
  program(next: Program): void;
  /** Resolves once at least `count` requests arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** What was wrong with the webhook messages received so far, by the document; the test fails unless empty at its end. */
  readonly mismatches: string[];
  close(): Promise<void>;
}

interface ReceiverOptions {
  /** Paths whose messages are not checked: a receiver check sends wrong ones on purpose. */
  unchecked?: readonly string[];
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Fails unless every webhook message these receivers got matched its webhook in the document. */
export function expectConforming(receivers: readonly Receiver[]): void {
  const mismatches = receivers.flatMap((r) => r.mismatches.map((m) => `${r.base}: ${m}`));
  expect(mismatches, 'webhook messages that do not match their webhook in /openapi.json').toEqual([]);
}

export function useReceivers() {
  const open: Receiver[] = [];
  afterEach(async () => {
    const closing = open.splice(0);
    await Promise.all(closing.map((r) => r.close()));
    expectConforming(closing);
  });

  /** A receiver on 127.0.0.1 with a free port; answers 200 unless programmed otherwise. */
  async function start(initial: Program = answer(200), options: ReceiverOptions = {}): Promise<Receiver> {
    let program: Program = initial;
    const requests: ReceivedRequest[] = [];
    const mismatches: string[] = [];
    const sockets = new Set<Socket>();
    const waiters: { count: number; resolve: () => void }[] = [];
    const timers = new Set<NodeJS.Timeout>();

    const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received: ReceivedRequest = {
          index: requests.length,
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawHeaders: [...req.rawHeaders],
          body: Buffer.concat(chunks),
          receivedAt: Date.now(),
        };
        requests.push(received);
        if (isWebhookMessage(received.headers) && !options.unchecked?.includes(received.path)) mismatches.push(...messageProblems(received.headers, received.body));
        for (const w of waiters.filter((w) => requests.length >= w.count)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
        perform(typeof program === 'function' ? program(received) : program, req, res);
      });
    });

    const perform = (b: Behaviour, req: IncomingMessage, res: ServerResponse): void => {
      // The emulator hangs up on purpose (timeouts, capped bodies): not a test failure.
      res.on('error', () => undefined);
      switch (b.kind) {
        case 'status':
          res.writeHead(b.status, { 'Content-Type': 'text/plain', ...b.headers });
          res.end(b.body);
          return;
        case 'delay': {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) perform(b.then, req, res);
          }, b.ms);
          timers.add(timer);
          return;
        }
        case 'hang':
          return;
        case 'redirect':
          res.writeHead(b.status, { Location: b.location });
          res.end();
          return;
        case 'destroy':
          req.socket.destroy();
          return;
        case 'huge': {
          res.writeHead(b.status, { 'Content-Type': 'text/plain', 'Content-Length': String(b.bytes) });
          let left = b.bytes;
          const pump = (): void => {
            while (left > 0 && !res.destroyed) {
              const n = Math.min(left, CHUNK.length);
              left -= n;
              if (!res.write(CHUNK.subarray(0, n))) return void res.once('drain', pump);
            }
            if (!res.destroyed) res.end();
          };
          pump();
          return;
        }
      }
    };

    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;

    let closed: Promise<void> | undefined;
    const receiver: Receiver = {
      base,
      port,
      url: (path = '/hook') => `${base}${path}`,
      requests,
      to: (path) => requests.filter((r) => r.path === path),
      mismatches,
      program: (next) => {
        program = next;
      },
      waitFor: (count, timeoutMs = 5_000) =>
        new Promise<ReceivedRequest[]>((resolve, reject) => {
          if (requests.length >= count) return resolve(requests);
          const timer = setTimeout(() => reject(new Error(`receiver saw ${requests.length} of ${count} requests after ${timeoutMs} ms`)), timeoutMs);
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(requests)) });
        }),
      close: () => {
        closed ??= new Promise<void>((resolve) => {
          for (const timer of timers) clearTimeout(timer);
          timers.clear();
          server.closeAllConnections();
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        });
        return closed;
      },
    };
    open.push(receiver);
    return receiver;
  }

  /** A URL on 127.0.0.1 where nothing listens: a port that was free a moment ago (connection refused). */
  async function closedPortUrl(path = '/hook'): Promise<string> {
    return `http://127.0.0.1:${await closedPort()}${path}`;
  }

  return { start, closedPortUrl };
}
