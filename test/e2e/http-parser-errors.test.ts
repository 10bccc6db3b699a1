import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { DRAIN_LIMITS } from '../../src/http/lingering-close.js';
import { allControlRoutes } from '../../src/http/routes.js';
import { createBody } from '../support/harness.js';
import { within } from '../support/wait.js';

/**
 * The real server (listen() on 127.0.0.1:0) spoken to in raw HTTP/1.1: requests Node's parser
 * refuses, and bodies over the 1 MB limit, are answered with the error envelope, read in full by
 * the client, and leave the server answering. Every wait has a deadline.
 */
const KEY = 'hrs_test_acme_owner';
const MB = 1024 * 1024;
const REQUEST_ID = /^req_[A-Za-z0-9]{20}$/;

let em: InProcessEmulator;
let url: string;
let port: number;

beforeAll(async () => {
  em = createEmulator();
  url = (await em.start(0)).url;
  port = Number(new URL(url).port);
});
afterAll(() => em.close());

afterEach(async () => {
  // Whatever the case did to its connection, the server still answers.
  const res = await fetch(`${url}/_emulator/health`, { signal: AbortSignal.timeout(5_000) });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { status: string }).status).toBe('ok');
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits one raw HTTP/1.1 response; the body must be exactly Content-Length long. */
function parse(raw: Buffer): Answer {
  const text = raw.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  expect(end, JSON.stringify(text.slice(0, 200))).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  expect(Buffer.byteLength(body)).toBe(Number(headers['content-length']));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** The error envelope with the spec's fields, its request id also in the Request-Id header. */
function expectEnvelope(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers.connection).toBe('close');
  const { error } = JSON.parse(answer.body) as { error: Record<string, string> };
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'request_id', 'type']);
  expect(error).toMatchObject({ type: 'invalid_request', code });
  expect(error.message).not.toMatch(/\bat .+\.(?:js|ts):\d+/);
  expect(error.request_id).toMatch(REQUEST_ID);
  expect(answer.headers['request-id']).toBe(error.request_id);
  return error;
}

/**
 * A raw connection that keeps its own side open after the server's FIN (allowHalfOpen), as a
 * client still uploading does: everything it reads, and whether writing or reading failed.
 */
function rawClient() {
  const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const chunks: Buffer[] = [];
  let failure: string | null = null;
  let firstByte: (() => void) | null = null;
  const gotFirstByte = new Promise<void>((resolve) => (firstByte = resolve));
  socket.on('data', (c: Buffer) => {
    chunks.push(c);
    firstByte?.();
  });
  socket.on('error', (e: NodeJS.ErrnoException) => (failure = e.code ?? e.message));
  const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    get failure() {
      return failure;
    },
    received: () => Buffer.concat(chunks),
    /** Resolves once every byte is handed to the kernel; rejects on EPIPE and the like. */
    write: (data: string | Buffer) =>
      new Promise<void>((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve()))),
    firstAnswer: (ms: number) => within(gotFirstByte, ms, 'no answer'),
    /** The server's FIN (or a reset), then our own end: a client done sending hangs up. */
    closed: async (ms: number) => {
      await within(Promise.race([ended, closed]), ms, 'the server did not close the connection');
      socket.end();
      await within(closed, 1_000, 'the connection did not close');
    },
  };
}

/** Sends a whole request, lets the client half-close, and reads until the server closes. */
async function exchange(request: string | Buffer): Promise<Answer> {
  const client = rawClient();
  await client.write(request);
  client.socket.end();
  await client.closed(5_000);
  expect(client.failure).toBeNull();
  return parse(client.received());
}

/** Like exchange(), for an answer that is not an error (no Connection: close expected). */
async function exchangeRaw(request: string): Promise<Buffer> {
  const client = rawClient();
  await client.write(request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
  await client.closed(5_000);
  expect(client.failure).toBeNull();
  return client.received();
}

const get = (headers: string) => `GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`;

describe('requests the HTTP parser refuses', () => {
  it('a 20 kB header is a 431 envelope with a request id', async () => {
    const error = expectEnvelope(await exchange(get(`X-Large: ${'a'.repeat(20 * 1024)}\r\n`)), 431, 'request_header_too_large');
    expect(error.message).toContain('16 kB');
  });

  it('a NUL in a header value is a 400 request_malformed envelope', async () => {
    expectEnvelope(await exchange(get('X-Nul: a\0b\r\n')), 400, 'request_malformed');
  });

  it('a method that is not a token is a 400 envelope', async () => {
    expectEnvelope(await exchange('G(T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), 400, 'request_malformed');
  });

  it('a broken chunk in a body the app is reading is a 400 envelope', async () => {
    const head = `POST /v1/onboardings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    expectEnvelope(await exchange(`${head}2\r\n{}\r\nzz\r\n`), 400, 'request_malformed');
  });

  it('gives each refused request its own id', async () => {
    const a = expectEnvelope(await exchange(get('X-Nul: \0\r\n')), 400, 'request_malformed');
    const b = expectEnvelope(await exchange(get('X-Nul: \0\r\n')), 400, 'request_malformed');
    expect(a.request_id).not.toBe(b.request_id);
  });

  // Node counts no headers against a limit of its own below 2000 (maxHeadersCount): 150 headers
  // are refused only by their size, 16 kB for the request line and all headers together.
  it('150 short headers are an ordinary request', async () => {
    const headers = Array.from({ length: 150 }, (_, i) => `X-Header-${i}: value-${i}\r\n`).join('');
    const answer = parse(await exchangeRaw(get(headers)));
    expect(answer.status).toBe(200);
    expect(answer.headers['request-id']).toMatch(REQUEST_ID);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' });
  });

  it('150 headers of 120 bytes (over 16 kB together) are a 431 envelope', async () => {
    const headers = Array.from({ length: 150 }, (_, i) => `X-Header-${String(i).padStart(3, '0')}: ${'v'.repeat(104)}\r\n`).join('');
    expect(headers.length).toBeGreaterThan(16 * 1024);
    expectEnvelope(await exchange(get(headers)), 431, 'request_header_too_large');
  });
});

describe('a 2 MB body to every control route that reads one', () => {
  const body = JSON.stringify({ name: 'x'.repeat(2 * MB) });
  const writes = allControlRoutes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && !r.bodyLimit);
  const filled = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? 'onb_missing' : 'default'));

  it.each(writes.map((r) => [r.method, r.path]))('%s %s: a readable 413 envelope, the upload not cut short', async (method, path) => {
    const res = await fetch(`${url}${filled(path)}`, { method, headers: { 'Content-Type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
  });
});

describe('a JSON body over the 1 MB limit', () => {
  const body = JSON.stringify({ reference: 'x'.repeat(2 * MB) });
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
  const head = (framing: string) => `POST /v1/onboardings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  it('sent with fetch: the client reads the whole 413 envelope', async () => {
    const res = await fetch(`${url}/v1/onboardings`, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    const { error } = (await res.json()) as { error: Record<string, string> };
    expect(error).toMatchObject({ type: 'invalid_request', code: 'body_too_large', request_id: res.headers.get('request-id') });
  });

  it('sent with http.request: the response arrives and the upload ends without EPIPE or ECONNRESET', async () => {
    const answer = await within(
      new Promise<{ status: number; text: string; failure: string | null }>((resolve, reject) => {
        let failure: string | null = null;
        let status = 0;
        let text = '';
        const req = httpRequest(`${url}/v1/onboardings`, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
          status = res.statusCode ?? 0;
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('error', reject);
        });
        req.on('error', (e: NodeJS.ErrnoException) => (failure = e.code ?? e.message));
        // The request's last event, after the answer's end and after any error of the upload.
        req.on('close', () => resolve({ status, text, failure }));
        req.end(body);
      }),
      10_000,
      'no response to http.request',
    );
    expect(answer.failure).toBeNull();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.code).toBe('body_too_large');
  });

  it('written whole on a raw socket: every byte is accepted and the 413 envelope read in full', async () => {
    const client = rawClient();
    await client.write(head(`Content-Length: ${Buffer.byteLength(body)}`));
    await client.write(body); // rejects on EPIPE / ECONNRESET
    await client.closed(10_000);
    expect(client.failure).toBeNull();
    expectEnvelope(parse(client.received()), 413, 'body_too_large');
  });

  it('announced by Content-Length: answered before the body is sent, the body then drained', async () => {
    const client = rawClient();
    await client.write(head(`Content-Length: ${Buffer.byteLength(body)}`));
    await client.firstAnswer(3_000); // nothing of the body sent yet
    await client.write(body);
    await client.closed(10_000);
    expect(client.failure).toBeNull();
    expectEnvelope(parse(client.received()), 413, 'body_too_large');
  });

  it('chunked without a length: answered once the limit is passed, before the body ends', async () => {
    const client = rawClient();
    await client.write(head('Transfer-Encoding: chunked'));
    const piece = Buffer.alloc(256 * 1024, 'y');
    for (let i = 0; i < 6; i++) await client.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
    await client.firstAnswer(3_000); // 1.5 MB sent, the final chunk not yet
    await client.write('0\r\n\r\n');
    await client.closed(10_000);
    expect(client.failure).toBeNull();
    expectEnvelope(parse(client.received()), 413, 'body_too_large');
  });

  it('drains a bounded amount only: a client sending far more is cut off after its answer', async () => {
    const saved = { ...DRAIN_LIMITS };
    DRAIN_LIMITS.bytes = 256 * 1024;
    DRAIN_LIMITS.ms = 60_000; // the byte bound alone must end it
    try {
      const client = rawClient();
      await client.write(head(`Content-Length: ${100 * MB}`));
      await client.firstAnswer(3_000);
      const piece = Buffer.alloc(64 * 1024, 'z');
      let sent = 0;
      const deadline = Date.now() + 10_000;
      try {
        while (sent < 64 * MB && Date.now() < deadline) {
          await client.write(piece);
          sent += piece.length;
        }
      } catch {
        // the server dropped the connection: what this case expects
      }
      expect(sent).toBeLessThan(64 * MB);
      expect(client.failure).toMatch(/^(EPIPE|ECONNRESET)$/);
      expectEnvelope(parse(client.received()), 413, 'body_too_large');
    } finally {
      Object.assign(DRAIN_LIMITS, saved);
    }
  });
});

describe('a form over the hosted page\'s own limit (8 MB)', () => {
  it('is a 413 page the client reads in full while it sends the whole body', async () => {
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody()),
      signal: AbortSignal.timeout(5_000),
    });
    expect(created.status).toBe(201);
    const path = new URL(((await created.json()) as { hosted_url: string }).hosted_url).pathname;
    const form = Buffer.alloc(9 * MB, 'a');
    const client = rawClient();
    await client.write(`POST ${path}/code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n`);
    await client.firstAnswer(3_000);
    await client.write(form); // rejects on EPIPE / ECONNRESET
    await client.closed(10_000);
    expect(client.failure).toBeNull();
    const answer = parse(client.received());
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toContain('too large');
  });

  it('is a 413 page the client reads in full when the form comes chunked, without a length', async () => {
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(createBody()),
      signal: AbortSignal.timeout(5_000),
    });
    const path = new URL(((await created.json()) as { hosted_url: string }).hosted_url).pathname;
    const client = rawClient();
    await client.write(`POST ${path}/code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const piece = Buffer.alloc(256 * 1024, 'a');
    for (let i = 0; i < 36; i++) await client.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])); // 9 MB
    await client.write('0\r\n\r\n');
    await client.closed(10_000);
    expect(client.failure).toBeNull();
    const answer = parse(client.received());
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('too large');
  });
});
