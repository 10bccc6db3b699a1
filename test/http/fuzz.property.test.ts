import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';

/**
 * Generated bodies against every write endpoint: never a 5xx, always the envelope on a
 * refusal, and a refusal never changes the store.
 */
const odd = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '😀'.repeat(3), 'x'.repeat(5_000), '__proto__', 'constructor', '1e309', 'NaN'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), odd, fc.array(odd, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 12 }), odd, { maxKeys: 6 }));

/** A valid body with one leaf replaced, removed, or a field added: close misses find more. */
function mutated(base: Record<string, unknown>) {
  const paths: string[][] = [];
  const walk = (v: unknown, at: string[]) => {
    paths.push(at);
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, c] of Object.entries(v)) walk(c, [...at, k]);
  };
  walk(base, []);
  return fc.tuple(fc.constantFrom(...paths.filter((p) => p.length > 0)), anyJson, fc.constantFrom('set', 'delete', 'add')).map(([path, value, op]) => {
    const copy = structuredClone(base);
    let parent: Record<string, unknown> = copy;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
    const leaf = path[path.length - 1]!;
    if (op === 'delete') delete parent[leaf];
    else if (op === 'add') parent[`${leaf}_extra`] = value;
    else parent[leaf] = value;
    return copy;
  });
}

const bodies = (base: Record<string, unknown>) =>
  fc.oneof(
    { arbitrary: mutated(base), weight: 3 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 20 }), anyJson, { maxKeys: 8 }), weight: 1 },
    { arbitrary: anyJson, weight: 1 },
  );

const ENDPOINTS: { name: string; method: 'post' | 'patch'; path: string; base: Record<string, unknown> }[] = [
  { name: 'POST /v1/onboardings', method: 'post', path: '/v1/onboardings', base: createBody({ options: { send_invitation: true, expires_in_hours: 24, return_url: 'https://app.acme.test/done' } }) },
  { name: 'PATCH /v1/onboardings/{id}', method: 'patch', path: '/v1/onboardings/onb_demo_jansen', base: { reference: 'r', metadata: { a: 1, b: null } } },
  { name: 'POST /v1/onboardings/{id}/hosted-link', method: 'post', path: '/v1/onboardings/onb_demo_jansen/hosted-link', base: { expires_in_hours: 2, send_invitation: false } },
  { name: 'POST /v1/onboardings/{id}/cancel', method: 'post', path: '/v1/onboardings/onb_demo_jansen/cancel', base: { note: 'x' } },
  { name: 'POST /_emulator/workspaces', method: 'post', path: '/_emulator/workspaces', base: { seed: 'x', clock: { mode: 'frozen', start: '2026-01-01T00:00:00Z' } } },
  { name: 'POST /v1/onboardings/{id}/approvals', method: 'post', path: '/v1/onboardings/onb_demo_jansen/approvals', base: { role: 'owner', data_version: 1 } },
  { name: 'POST /v1/onboardings/{id}/identity-verification', method: 'post', path: '/v1/onboardings/onb_demo_jansen/identity-verification', base: { note: 'x' } },
  { name: 'POST /v1/onboardings/{id}/contract', method: 'post', path: '/v1/onboardings/onb_demo_jansen/contract', base: { note: 'x' } },
  { name: 'POST /v1/onboardings/{id}/review-sessions', method: 'post', path: '/v1/onboardings/onb_demo_jansen/review-sessions', base: { reviewer: { email: 'r@acme.test', external_id: 'u1', name: 'R' } } },
  { name: 'POST /v1/sandbox/onboardings/{id}/advance', method: 'post', path: '/v1/sandbox/onboardings/onb_demo_jansen/advance', base: { note: 'x' } },
  { name: 'POST /_emulator/onboardings/{id}/change-terms', method: 'post', path: '/_emulator/onboardings/onb_demo_jansen/change-terms', base: { hours_per_week: 30, hourly_wage_cents: 1500 } },
  { name: 'POST /_emulator/clock/advance', method: 'post', path: '/_emulator/clock/advance', base: { by: '90m' } },
  { name: 'PATCH /_emulator/organizations/{id}', method: 'patch', path: '/_emulator/organizations/org_acme', base: { api_approvals: true, allowed_origins: ['a.test'] } },
];

describe.each(ENDPOINTS)('$name with generated bodies', ({ method, path, base }) => {
  it('never answers 5xx, always uses the envelope, and writes nothing on a refusal', async () => {
    const h = harness();
    await fc.assert(
      fc.asyncProperty(bodies(base), fc.boolean(), async (body, idempotent) => {
        const before = h.storeJson();
        const workspacesBefore = h.emulator.workspaces().length;
        let req = h.http()[method](path).set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json');
        if (idempotent) req = req.set('Idempotency-Key', 'fuzz');
        const res = await req.send(JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body.error).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String), request_id: res.headers['request-id'] });
          expect(res.text).not.toMatch(/\n\s+at /);
          expect(h.storeJson()).toBe(before);
          expect(h.emulator.workspaces().length).toBe(workspacesBefore);
        }
      }),
      { numRuns: 100, seed: 20261123 },
    );
  });
});

describe('raw bytes as a body', () => {
  it('are refused as not JSON, never with a 5xx', async () => {
    const h = harness();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const before = h.storeJson();
        const res = await h.http().post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json').send(Buffer.from(bytes));
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.error.request_id).toBe(res.headers['request-id']);
        expect(h.storeJson()).toBe(before);
      }),
      { numRuns: 100, seed: 7 },
    );
  });
});
