import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/delivery/transport.js';
import { allControlRoutes, apiRoutes, servedPaths } from '../../src/http/routes.js';
import { pageRoutes } from '../../src/pages/pages.routes.js';
import { harness, KEYS } from '../support/harness.js';

/**
 * The budgets as a property of every route, taken from the route tables (/v1, control and
 * pages): hostile bodies (nested thousands deep, wide, large, odd JSON and YAML, forms) and
 * hostile paths. After every request: no 5xx, a refusal in the envelope (HTML on page paths),
 * at most 1 s; after every batch, the journal list, a snapshot and a verify still answer. At the
 * end, the process's heap grew by a bounded amount.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** Requests between two reads of the journal, a snapshot and a verify. */
const BATCH = 500;

// Webhook deliveries are answered here, never sent.
const answering: Transport = { send: () => Promise.resolve({ ok: true, status: 200, error: null, durationMs: 0 }) };

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth);
const wide = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(',')}}`;

/** Body texts with their media type. */
const hostileBody = fc.oneof(
  fc.integer({ min: 65, max: 20_000 }).map((d) => ({ type: 'application/json', text: `{"a":${nested(d, '[', ']')}}` })),
  fc.integer({ min: 65, max: 20_000 }).map((d) => ({ type: 'application/json', text: nested(d, '{"a":', '}') })),
  fc.integer({ min: 65, max: 5_000 }).map((d) => ({ type: 'application/yaml', text: `version: 1\nname: x\nrules: ${nested(d, '[', ']')}\n` })),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => ({ type: 'application/json', text: wide(n) })),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => ({ type: 'application/json', text: JSON.stringify({ reference: 'x'.repeat(n), metadata: { a: 'y'.repeat(n % 1000) } }) })),
  fc.jsonValue({ maxDepth: 4 }).map((v) => ({ type: 'application/json', text: JSON.stringify(v) ?? 'null' })),
  fc.string({ unit: 'binary', maxLength: 200 }).map((t) => ({ type: 'application/json', text: t })),
  fc.string({ maxLength: 200 }).map((t) => ({ type: 'application/yaml', text: t })),
  fc.constantFrom(
    { type: 'application/yaml', text: 'a: &a [*a]' },
    { type: 'application/yaml', text: 'a: &x [1,2]\nb: [*x,*x,*x,*x,*x,*x,*x,*x]\nc: [*b,*b,*b,*b,*b,*b,*b]' },
    { type: 'application/x-www-form-urlencoded', text: 'code=123456&a[b][c][d][e][f]=1' },
    { type: 'text/plain', text: 'hello' },
    { type: 'application/json', text: '{"__proto__":{"polluted":true}}' },
  ),
);

/** Every served path of every route, its parameters filled with ids that exist, ids that do not, and odd ones. */
const routes = [
  ...[...apiRoutes, ...allControlRoutes].flatMap((r) => servedPaths(r).map((path) => ({ method: r.method, path, page: false }))),
  ...pageRoutes.map((r) => ({ method: r.method, path: r.path, page: true })),
];
const param = fc.constantFrom('onb_demo_jansen', 'org_acme', 'default', 'nope', 'x'.repeat(300), '%00', '..', '😀');
const target = fc.tuple(fc.constantFrom(...routes), param).map(([r, p]) => ({ ...r, url: r.path.replace(/:[A-Za-z]+/g, encodeURIComponent(p)) }));

/** A full garbage collection, so the heap figures count what is kept, not what waits to be collected. */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const heapKept = (): number => {
  collect();
  return process.memoryUsage().heapUsed;
};

let server: Server;
let base = '';
const h = harness({ webhooks: { transport: answering, resolver: async () => ['127.0.0.1'] } });

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = h.app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function stillReadable(): Promise<void> {
  const http = request(base);
  expect((await http.get('/_emulator/requests')).status).toBe(200);
  expect((await http.get('/_emulator/snapshot')).status).toBe(200);
  expect((await http.post('/_emulator/requests/verify').send({ matcher: { method: 'POST' }, expected: { at_least: 0 } })).status).toBe(200);
  // A request that arrived with a hostile body must not have poisoned /v1 either.
  expect((await http.get('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`)).status).toBe(200);
}

describe('every route under hostile input', () => {
  it(`answers ${RUNS} generated requests without a 5xx, each within 1 s, and stays readable`, async () => {
    const heapBefore = heapKept();
    let sent = 0;
    let slowest = 0;
    await fc.assert(
      fc.asyncProperty(target, hostileBody, fc.boolean(), async (t, body, withKey) => {
        const began = performance.now();
        let req = request(base)[t.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](t.url);
        if (withKey) req = req.set('Authorization', `Bearer ${KEYS.owner}`);
        const res = t.method === 'GET' ? await req : await req.set('Content-Type', body.type).send(body.text);
        const took = performance.now() - began;
        slowest = Math.max(slowest, took);
        expect(res.status, `${t.method} ${t.url} ${body.type} ${body.text.slice(0, 80)}`).toBeLessThan(500);
        if (res.status >= 400 && !t.page && res.headers['content-type']?.startsWith('application/json')) {
          expect(res.body.error?.code, `${t.method} ${t.url}`).toEqual(expect.any(String));
        }
        expect(took, `${t.method} ${t.url} took ${Math.round(took)} ms`).toBeLessThan(1_000);
        if (++sent % BATCH === 0) await stillReadable();
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await stillReadable();
    const grown = (heapKept() - heapBefore) / (1024 * 1024);
    console.log(`budget property: ${sent} requests, slowest ${Math.round(slowest)} ms, heap kept grew ${Math.round(grown)} MB`);
    // The journal keeps at most 8 MB of bodies per workspace, 1,000 entries; the store what the accepted requests made.
    expect(grown).toBeLessThan(100);
  }, 600_000);
});
