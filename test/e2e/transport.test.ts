import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpTransport, type TransportRequest } from '../../src/delivery/transport.js';

/** Every receiver binds 127.0.0.1 on a free port and is closed after its test. */
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

interface Received {
  method: string;
  path: string;
  rawHeaders: string[];
  body: Buffer;
}

async function receiver(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      handler(req, res);
    });
  });
  server.on('connection', (s) => sockets.add(s));
  // A client that goes away mid-response is expected here, not a test failure.
  server.on('clientError', (_err, socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, received, sockets };
}

const transport = httpTransport();
const BODY = '{"id":"evt_1","type":"onboarding.created","data":{"reference":"Zoë – 😀"}}';

function request(url: string, overrides: Partial<TransportRequest> = {}): TransportRequest {
  return { url, headers: { 'Content-Type': 'application/json' }, body: BODY, timeoutMs: 5_000, ...overrides };
}

describe('httpTransport', () => {
  it.each([200, 201, 204, 299])('counts %i as received', async (status) => {
    const r = await receiver((_req, res) => res.writeHead(status).end(status === 204 ? undefined : 'thanks'));
    const result = await transport.send(request(`${r.url}/hooks`));
    expect(result).toEqual({ ok: true, status, error: null, durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(r.received).toHaveLength(1);
  });

  it('delivers the headers and the body byte for byte', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1',
      'Service-Event-Id': 'evt_123',
      'Service-Event-Type': 'onboarding.created',
      'Service-Signature': `t=1790000000,v1=${'ab'.repeat(32)},v1=${'cd'.repeat(32)}`,
      // Whatever a caller claims, the length is the body's own.
      'content-length': '3',
    };
    await transport.send(request(`${r.url}/hooks/in?x=1`, { headers }));
    const [got] = r.received;
    expect(got!.method).toBe('POST');
    expect(got!.path).toBe('/hooks/in?x=1');
    expect(got!.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    const pairs = new Map<string, string[]>();
    for (let i = 0; i < got!.rawHeaders.length; i += 2) {
      const name = got!.rawHeaders[i]!;
      pairs.set(name, [...(pairs.get(name) ?? []), got!.rawHeaders[i + 1]!]);
    }
    for (const [name, value] of Object.entries(headers)) {
      if (name !== 'content-length') expect(pairs.get(name)).toEqual([value]);
    }
    expect(pairs.get('Content-Length')).toEqual([String(Buffer.byteLength(BODY))]);
    expect(pairs.has('content-length')).toBe(false);
    expect(pairs.has('Transfer-Encoding')).toBe(false);
    expect(pairs.get('Connection')).toEqual(['close']);
    expect(pairs.get('Host')).toEqual([`127.0.0.1:${r.port}`]);
  });

  it('connects to the addresses it is given, without resolving the name again (the Host header keeps the name)', async () => {
    const r = await receiver((_req, res) => res.writeHead(204).end());
    // A name no resolver answers: only the given address can have been used.
    const result = await transport.send(request(`http://never-resolves.invalid:${r.port}/hooks`, { addresses: ['127.0.0.1'] }));
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(r.received).toHaveLength(1);
    const host = r.received[0]!.rawHeaders[r.received[0]!.rawHeaders.findIndex((h) => h.toLowerCase() === 'host') + 1];
    expect(host).toBe(`never-resolves.invalid:${r.port}`);
    // Without addresses, the same name is looked up, and fails.
    expect(await transport.send(request(`http://never-resolves.invalid:${r.port}/hooks`))).toMatchObject({ ok: false, error: 'could not resolve never-resolves.invalid' });
  });

  it('reports a refusal by its status alone when told not to quote (no body excerpt, no Location)', async () => {
    const r = await receiver((req, res) => (req.url === '/moved' ? res.writeHead(302, { Location: 'http://10.0.0.1/secret' }).end() : res.writeHead(500).end('internal page')));
    expect(await transport.send(request(`${r.url}/hooks`, { quote: false }))).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
    expect(await transport.send(request(`${r.url}/moved`, { quote: false }))).toMatchObject({ ok: false, status: 302, error: 'redirect (302) not followed' });
    expect(await transport.send(request(`${r.url}/hooks`))).toMatchObject({ error: 'HTTP 500: internal page' });
  });

  it('opens a fresh connection for every attempt', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    await transport.send(request(r.url));
    await transport.send(request(r.url));
    expect(r.received).toHaveLength(2);
    expect(r.sockets.size).toBe(2);
  });

  it('reports a 500 with an excerpt of its body', async () => {
    const r = await receiver((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('database\n\tunavailable\u0000, try later'));
    const result = await transport.send(request(r.url));
    expect(result).toMatchObject({ ok: false, status: 500, error: 'HTTP 500: database unavailable , try later' });
  });

  it('reports a 4xx without a body as its status alone', async () => {
    const r = await receiver((_req, res) => res.writeHead(410).end());
    expect(await transport.send(request(r.url))).toMatchObject({ ok: false, status: 410, error: 'HTTP 410' });
  });

  it('keeps the excerpt to about 300 characters', async () => {
    const r = await receiver((_req, res) => res.writeHead(502).end('é'.repeat(1_500)));
    const result = await transport.send(request(r.url));
    expect(result.error).toBe(`HTTP 502: ${'é'.repeat(300)}…`);
  });

  it('does not follow a redirect', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const r = await receiver((_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const result = await transport.send(request(r.url));
    expect(result).toMatchObject({ ok: false, status: 302, error: `redirect (302 to ${target.url}/elsewhere) not followed` });
    expect(target.received).toHaveLength(0);
  });

  it('does not follow a 307 or 308 either, with or without Location', async () => {
    const r = await receiver((req, res) => (req.url === '/a' ? res.writeHead(307, { location: '/b' }) : res.writeHead(308)).end());
    expect(await transport.send(request(`${r.url}/a`))).toMatchObject({ ok: false, status: 307, error: 'redirect (307 to /b) not followed' });
    expect(await transport.send(request(`${r.url}/c`))).toMatchObject({ ok: false, status: 308, error: 'redirect (308) not followed' });
    expect(r.received.map((x) => x.path)).toEqual(['/a', '/c']);
  });

  it('gives up on a receiver that never answers', async () => {
    const r = await receiver(() => {});
    const result = await transport.send(request(r.url, { timeoutMs: 200 }));
    expect(result).toMatchObject({ ok: false, status: null, error: 'timed out after 200 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(2_000);
  }, 5_000);

  it('gives up on a receiver that never accepts the request body', async () => {
    // The server reads nothing and answers nothing: the timeout covers the whole exchange.
    const server = createServer(() => {});
    servers.push(server);
    server.on('connection', (socket) => socket.pause());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const result = await transport.send(request(`http://127.0.0.1:${port}/`, { timeoutMs: 200, body: 'x'.repeat(8 << 20) }));
    expect(result).toMatchObject({ ok: false, status: null, error: 'timed out after 200 ms' });
    expect(result.durationMs).toBeLessThan(2_000);
  }, 5_000);

  it('reports the status of an error whose body stalls, at the timeout', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(503);
      res.write('partial');
    });
    const result = await transport.send(request(r.url, { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: 503, error: 'HTTP 503: partial' });
    expect(result.durationMs).toBeLessThan(2_000);
  }, 5_000);

  it('counts a 2xx as received without waiting for its body', async () => {
    const r = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('still talking');
    });
    const result = await transport.send(request(r.url, { timeoutMs: 3_000 }));
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.durationMs).toBeLessThan(1_000);
  }, 5_000);

  it('reports a receiver that drops the connection as a reset', async () => {
    const r = await receiver((req) => req.socket.destroy());
    expect(await transport.send(request(r.url))).toMatchObject({ ok: false, status: null, error: 'connection reset' });
    const rst = await receiver((req) => req.socket.resetAndDestroy());
    expect(await transport.send(request(rst.url))).toMatchObject({ ok: false, status: null, error: 'connection reset' });
  });

  it('reports a closed port as connection refused', async () => {
    const r = await receiver(() => {});
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await transport.send(request(r.url));
    expect(result).toMatchObject({ ok: false, status: null, error: 'connection refused' });
  });

  it.each([200, 500])('returns promptly from a 5 MB answer with status %i', async (status) => {
    const r = await receiver((_req, res) => {
      res.on('error', () => {});
      res.writeHead(status, { 'content-type': 'text/plain' }).end(Buffer.alloc(5 << 20, 'x'));
    });
    const result = await transport.send(request(r.url, { timeoutMs: 5_000 }));
    expect(result.ok).toBe(status === 200);
    expect(result.status).toBe(status);
    expect(result.durationMs).toBeLessThan(1_000);
    if (status === 500) expect(result.error).toBe(`HTTP 500: ${'x'.repeat(300)}…`);
  }, 10_000);

  it('stops reading an error body after 4 KiB instead of waiting for the rest', async () => {
    // 8 KiB arrive at once, the rest never: only a reader that stops at its cap returns early.
    const r = await receiver((_req, res) => {
      res.writeHead(500);
      res.write(Buffer.alloc(8 << 10, 'y'));
    });
    const result = await transport.send(request(r.url, { timeoutMs: 5_000 }));
    expect(result).toMatchObject({ ok: false, status: 500, error: `HTTP 500: ${'y'.repeat(300)}…` });
    expect(result.durationMs).toBeLessThan(2_000);
  }, 10_000);

  it('reports a TLS failure when an https URL reaches a plain HTTP receiver', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    const result = await transport.send(request(r.url.replace('http:', 'https:'), { timeoutMs: 2_000 }));
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toMatch(/^TLS error|^connection reset/);
  });

  it('never throws, whatever the request', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end());
    expect(await transport.send(request('not a url'))).toMatchObject({ ok: false, status: null, error: 'invalid URL' });
    expect(await transport.send(request('ftp://127.0.0.1/'))).toMatchObject({ ok: false, status: null, error: 'unsupported protocol ftp:' });
    const badHeader = await transport.send(request(r.url, { headers: { 'X-Bad': 'a\r\nInjected: 1' } }));
    expect(badHeader).toMatchObject({ ok: false, status: null });
    expect(badHeader.error).toMatch(/^invalid request/);
    expect(r.received).toHaveLength(0);
  });
});
