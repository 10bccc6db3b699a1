import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WELL_KNOWN_KEYS as KEYS } from '../../src/fixtures/well-known-keys.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { createEmulator } from '../../src/index.js';
import { flowProblems, readCorpus } from '../../src/parity/corpus.js';
import { operationsOf } from '../../src/parity/coverage.js';
import { runParity } from '../../src/parity/parity.js';
import { startParityProxy, type ParityProxy } from '../../src/parity/proxy.js';
import { createBody } from '../support/harness.js';
import { until } from '../support/wait.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function emulator(): Promise<string> {
  const em = createEmulator();
  const { url } = await em.start(0, '127.0.0.1');
  cleanups.push(() => em.close());
  return url;
}

async function proxyTo(target: string, options: { record?: string; flowGapMs?: number; upstreamTimeoutMs?: number } = {}): Promise<{ proxy: ParityProxy; lines: string[] }> {
  const lines: string[] = [];
  const proxy = await startParityProxy({ target, port: 0, document: buildOpenApi(target), log: (l) => lines.push(l), ...options });
  let closed = false;
  const close = proxy.close.bind(proxy);
  proxy.close = () => {
    closed = true;
    return close();
  };
  cleanups.push(async () => {
    if (!closed) await close();
  });
  return { proxy, lines };
}

/** A server on 127.0.0.1 answering as told. */
async function fakeTarget(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = http.createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'parity-proxy-'));

function call(base: string, method: string, path: string, options: { key?: string; flow?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.flow) headers['parity-flow'] = options.flow;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${base}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }), signal: AbortSignal.timeout(10_000) });
}

describe('parity proxy: recording', () => {
  it('records two flows named by header that replay against a fresh emulator without drift', async () => {
    const dir = tmp();
    const { proxy } = await proxyTo(await emulator(), { record: dir });
    for (const flow of ['hire-and-advance', 'hire-and-patch']) {
      const made = await call(proxy.url, 'POST', '/v1/onboardings', { key: KEYS.owner, flow, body: createBody({ reference: flow }) });
      expect(made.status).toBe(201);
      expect(made.headers.get('parity-violations')).toBeNull();
      const id = ((await made.json()) as { id: string }).id;
      expect((await call(proxy.url, 'GET', `/v1/onboardings/${id}`, { key: KEYS.owner, flow })).status).toBe(200);
      expect((await call(proxy.url, 'PATCH', `/v1/onboardings/${id}`, { key: KEYS.owner, flow, body: { metadata: { crm: flow } } })).status).toBe(200);
      for (let i = 0; i < (flow === 'hire-and-advance' ? 3 : 1); i++) {
        expect((await call(proxy.url, 'POST', `/v1/sandbox/onboardings/${id}/advance`, { key: KEYS.owner, flow })).status).toBe(200);
      }
    }
    const closed = await proxy.close();
    expect(closed.violations).toBe(0);
    expect(closed.flows.map((f) => f.split('/').pop()).sort()).toEqual(['hire-and-advance.flow.json', 'hire-and-patch.flow.json']);
    for (const name of readdirSync(dir)) {
      const flow = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { steps: { request: { path: string } }[]; events?: { for: string[]; data: { type: string }[] }; provenance: { recorder: string; service_version?: string } };
      expect(flowProblems(flow)).toEqual([]);
      expect(flow.steps.slice(1).map((s) => s.request.path)).toEqual(expect.arrayContaining([expect.stringContaining('{{onboarding}}')]));
      for (const s of flow.steps.slice(1)) expect(s.request.path).not.toMatch(/onb_/);
      expect(flow.events?.for).toEqual(['onboarding']);
      expect(flow.events!.data.map((e) => e.type)).toContain('onboarding.created');
      expect(flow.provenance.recorder).toMatch(/^onboarding-emulator parity proxy \d/);
      expect(flow.provenance.service_version).toBeTruthy();
    }
    const fresh = await emulator();
    const report = await runParity(readCorpus(dir), { url: fresh, keys: { owner: KEYS.owner } }, operationsOf(buildOpenApi()));
    expect(report.counts.drift, JSON.stringify(report.flows)).toBe(0);
    expect(report.counts.unchecked).toBe(0);
    expect(report.counts.steps).toBeGreaterThan(10);
  });

  it('splits traffic without a header after the idle gap and numbers the flows', async () => {
    const dir = tmp();
    const { proxy } = await proxyTo(await emulator(), { record: dir, flowGapMs: 150 });
    expect((await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner })).status).toBe(200);
    // The gap ends the first flow, which is written then: waited for, not slept.
    await until(() => existsSync(join(dir, 'flow-001.flow.json')), 'the idle gap to end and write the first flow');
    expect((await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner })).status).toBe(200);
    expect((await call(proxy.url, 'GET', '/v1/onboardings', { key: KEYS.owner })).status).toBe(200);
    await proxy.close();
    expect(readdirSync(dir).sort()).toEqual(['flow-001.flow.json', 'flow-002.flow.json']);
    expect((JSON.parse(readFileSync(join(dir, 'flow-002.flow.json'), 'utf8')) as { steps: unknown[] }).steps).toHaveLength(2);
  });

  it('keeps planted secrets out of every file it writes', async () => {
    const dir = tmp();
    const { proxy } = await proxyTo(await emulator(), { record: dir });
    const planted = [KEYS.readonly, KEYS.manager, KEYS.payroll];
    const flow = 'secrets';
    const made = await call(proxy.url, 'POST', '/v1/onboardings', { key: KEYS.owner, flow, body: createBody({ reference: planted[0] }) });
    expect(made.status).toBeLessThan(500);
    await call(proxy.url, 'GET', `/v1/onboardings?reference=${planted[1]}`, { key: KEYS.owner, flow });
    await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner, flow, headers: { 'x-api-key': planted[2]! } });
    const hook = await call(proxy.url, 'POST', '/v1/webhooks', { key: KEYS.owner, flow, body: { url: 'https://hooks.acme.test/parity', events: ['onboarding.created'] } });
    expect(hook.status).toBe(201);
    const secret = ((await hook.json()) as { secret: string }).secret;
    expect(secret).toMatch(/^whsec_/);
    await proxy.close();
    const files = readdirSync(dir);
    expect(files).toEqual(['secrets.flow.json']);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    for (const value of [...planted, KEYS.owner, secret]) expect(text).not.toContain(value);
  });
});

describe('parity proxy: checking', () => {
  it('reports a wrong body and an unlisted status at their JSON paths, in a header and the count', async () => {
    let status = 200;
    const target = await fakeTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'org_acme', object: 'organization', name: 42 }));
    });
    const { proxy, lines } = await proxyTo(target);
    const wrong = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner });
    expect(wrong.status).toBe(200);
    expect(((await wrong.json()) as { name: unknown }).name).toBe(42);
    const found = JSON.parse(wrong.headers.get('parity-violations') ?? '[]') as { location: string; message: string; severity: string }[];
    expect(found).toEqual(expect.arrayContaining([{ location: '$.name', message: 'must be string', severity: 'error' }]));
    status = 202;
    const unlisted = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner });
    expect(unlisted.status).toBe(202);
    const second = JSON.parse(unlisted.headers.get('parity-violations') ?? '[]') as { location: string; message: string }[];
    expect(second).toEqual(expect.arrayContaining([expect.objectContaining({ location: '$', message: 'GET /v1/organization lists no 202 answer' })]));
    const { violations } = await proxy.close();
    expect(violations).toBe(found.length + second.length);
    expect(lines.filter((l) => l.startsWith('violation '))).toHaveLength(violations);
    expect(lines).toEqual(expect.arrayContaining([expect.stringContaining('$.name must be string')]));
  });

  it('leaves the header out when the emulator answers as documented', async () => {
    const { proxy } = await proxyTo(await emulator());
    const res = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner });
    expect(res.status).toBe(200);
    expect(res.headers.get('parity-violations')).toBeNull();
    expect((await proxy.close()).violations).toBe(0);
  });
});

describe('parity proxy: bounds', () => {
  it('leaves the violations header out past 8 KB, counts each, and logs the first 100', async () => {
    const target = await fakeTarget((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: Array.from({ length: 60 }, () => ({ id: 7, object: 'onboarding' })), has_more: false, next_cursor: null }));
    });
    const { proxy, lines } = await proxyTo(target);
    const res = await call(proxy.url, 'GET', '/v1/onboardings', { key: KEYS.owner });
    expect(res.status).toBe(200);
    expect(res.headers.get('parity-violations')).toBeNull();
    const { violations } = await proxy.close();
    // 60 items, each with a number for an id and without the other required fields.
    expect(violations).toBeGreaterThan(600);
    const shown = lines.filter((l) => l.startsWith('violation '));
    expect(shown).toHaveLength(101);
    expect(shown[0]).toMatch(/^violation GET \/v1\/onboardings 200: \$\.data\[0\]\.\w+ /);
    expect(shown[100]).toBe(`violation GET /v1/onboardings 200: ${violations - 100} more not shown`);
  });

  it('refuses a Parity-Flow header that is no flow name with 400 in the envelope, forwarding nothing', async () => {
    let forwarded = 0;
    const target = await fakeTarget((_req, res) => {
      forwarded++;
      res.end();
    });
    const { proxy } = await proxyTo(target, { record: tmp() });
    const res = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner, flow: '../escape' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'request_malformed', message: expect.stringContaining('Parity-Flow') });
    expect(forwarded).toBe(0);
  });
});

describe('parity proxy: hostile targets and traffic', () => {
  it('answers 20 concurrent requests', async () => {
    const { proxy } = await proxyTo(await emulator());
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(proxy.url, 'GET', '/v1/onboardings?limit=5', { key: KEYS.owner })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    await Promise.all(answers.map((a) => a.arrayBuffer()));
  });

  it('answers 504 in the error envelope when the target never answers, within the upstream timeout', async () => {
    const target = await fakeTarget(() => {});
    const { proxy } = await proxyTo(target, { upstreamTimeoutMs: 300 });
    const began = performance.now();
    const res = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner });
    expect(performance.now() - began).toBeLessThan(3000);
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { type: string; code: string; message: string; request_id: string } };
    expect(body.error).toMatchObject({ type: 'api_error', code: 'upstream_timeout' });
    expect(body.error.request_id).toBe(res.headers.get('request-id'));
  });

  it('answers 502 in the error envelope when the target refuses connections', async () => {
    const closed = await fakeTarget(() => {});
    await cleanups.pop()!();
    const { proxy } = await proxyTo(closed);
    const res = await call(proxy.url, 'GET', '/v1/organization', { key: KEYS.owner });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: 'api_error', code: 'upstream_unreachable' });
  });

  it('passes a body over 1 MB through whole and records nothing of it', async () => {
    const big = JSON.stringify({ data: Array.from({ length: 30_000 }, (_, i) => ({ id: `onb_${String(i).padStart(10, '0')}`, object: 'onboarding', note: 'x'.repeat(30) })), has_more: false, next_cursor: null });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    let received = 0;
    let flowHeader: unknown = 'not seen';
    const target = await fakeTarget((req, res) => {
      flowHeader = req.headers['parity-flow'];
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(big);
      });
    });
    const dir = tmp();
    const { proxy, lines } = await proxyTo(target, { record: dir });
    const res = await call(proxy.url, 'POST', '/v1/onboardings', { key: KEYS.owner, flow: 'big', body: big });
    expect(res.status).toBe(200);
    expect((await res.text()).length).toBe(big.length);
    expect(received).toBe(big.length);
    // The proxy's own header is not forwarded.
    expect(flowHeader).toBeUndefined();
    await proxy.close();
    expect(readdirSync(dir)).toEqual([]);
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/over 1048576 bytes passed through/)]));
  });
});
