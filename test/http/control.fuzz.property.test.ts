import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/delivery/transport.js';
import { allControlRoutes, servedPaths } from '../../src/http/routes.js';
import { harness, KEYS } from '../support/harness.js';

/**
 * Generated and hostile requests against every /_emulator route, taken from the route table so
 * a new route is fuzzed without being listed here. After every case: no 5xx, a refusal is the
 * error envelope, and the default workspace still answers its clock and GET /v1/onboardings.
 * Injected faults break /v1 on purpose, so the check clears them (which must itself work) first.
 */

/** Fixed for CI; FUZZ_SEED and FUZZ_RUNS explore further by hand. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = { route: Number(process.env.FUZZ_RUNS ?? 30), sequence: Number(process.env.FUZZ_RUNS ?? 40) };

// Webhook deliveries are answered here, never sent: restored snapshots may name any address.
const answering: Transport = { send: () => Promise.resolve({ ok: true, status: 200, error: null, durationMs: 0 }) };
const fuzzHarness = () => harness({ webhooks: { transport: answering, resolver: async () => ['127.0.0.1'] } });
type H = ReturnType<typeof fuzzHarness>;

/** One listening server per harness: supertest would otherwise open one per request. */
function served(h: H) {
  let server: Server;
  let base = '';
  return {
    start: () =>
      new Promise<void>((resolve) => {
        server = h.app.listen(0, '127.0.0.1', () => {
          base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve();
        });
      }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    http: () => request(base),
  };
}

// Number texts JSON.stringify cannot write: sentinels in the generated value, swapped in the text.
const RAW: Record<string, string> = { '§-0§': '-0', '§1e999§': '1e999', '§-1e999§': '-1e999', '§-0.0e0§': '-0.0e0' };
const toText = (body: unknown) => {
  let text = JSON.stringify(body) ?? 'null';
  for (const [sentinel, raw] of Object.entries(RAW)) text = text.split(JSON.stringify(sentinel)).join(raw);
  return text;
};

const hostileNumber = fc.constantFrom<unknown>(1e308, -1e308, 0, 1e15, -1, -1e15, 0.5, 2 ** 53 + 1, Number.MIN_VALUE, ...Object.keys(RAW));
const hostileText = fc.constantFrom<unknown>(
  'NaN', 'Infinity', '-Infinity', '-0', '1e308', '1e309', '9999999999d', 'P99999999Y', 'P99999999D', 'PT99999999999H', '99999999999999999999',
  '-5m', '0', '', ' ', '\u0000', '\u202e', '😀'.repeat(3), 'x'.repeat(10_000), '__proto__', 'constructor', '../..', '%00',
  '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-10-05',
);
const leaf = fc.oneof(
  { arbitrary: hostileNumber, weight: 2 },
  { arbitrary: hostileText, weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.double(), weight: 1 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.constantFrom<unknown>(true, false, null, [], {}), weight: 1 },
);
const junk = fc.oneof(
  { arbitrary: leaf, weight: 4 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  { arbitrary: fc.array(leaf, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), leaf, { maxKeys: 5 }), weight: 1 },
);

/** Every path into a document, arrays included, so a leaf deep inside a snapshot can be hit. */
function pathsOf(doc: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, at: (string | number)[]) => {
    if (at.length) out.push(at);
    if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...at, i]));
    else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, [...at, k]);
  };
  walk(doc, []);
  return out;
}

/** A valid document with one to three leaves replaced, removed, or a field added: close misses find more. */
function mutated(base: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths = pathsOf(base);
  if (!paths.length) return fc.dictionary(fc.string({ maxLength: 12 }), junk, { minKeys: 1, maxKeys: 3 });
  const edit = fc.tuple(fc.constantFrom(...paths), junk, fc.constantFrom('set', 'delete', 'add'));
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
    const copy = structuredClone(base) as Record<string | number, unknown>;
    for (const [path, value, op] of edits) {
      let parent = copy;
      for (const k of path.slice(0, -1)) {
        const next = parent?.[k];
        if (!next || typeof next !== 'object') break;
        parent = next as Record<string | number, unknown>;
      }
      const key = path[path.length - 1]!;
      if (!parent || typeof parent !== 'object') continue;
      if (op === 'delete') delete parent[key];
      else if (op === 'add' && !Array.isArray(parent)) parent[`${key}_extra`] = value;
      else parent[key] = value;
    }
    return copy;
  });
}

const bodies = (base: Record<string, unknown>) =>
  fc.oneof(
    { arbitrary: fc.constant<unknown>(base), weight: 1 },
    { arbitrary: mutated(base), weight: 4 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 20 }), junk, { maxKeys: 6 }), weight: 1 },
    { arbitrary: junk, weight: 1 },
  );

const oddId = fc.oneof(
  fc.constantFrom('unknown', 'onb_nope', '..', '.', '%2e%2e', '%2F', '%00', '%ZZ', '%', 'x'.repeat(3_000), '%F0%9F%98%80', 'caf%C3%A9', '__proto__', 'constructor', '-0', 'NaN', '1e308'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);
const oddQuery = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    'limit=1e308', 'limit=-0', 'limit=NaN', 'limit=Infinity', 'limit=-1', 'limit=0', 'limit=1&limit=2', 'limit[]=1', 'limit[a]=1',
    'deliveries=1e15', 'onboarding_id=', 'onboarding_id=%00', 'status=%ZZ', 'cursor=..', 'starting_after=x', '__proto__[x]=1', 'a[b][c][d]=1',
  ),
  fc.dictionary(fc.constantFrom('limit', 'deliveries', 'onboarding_id', 'status', 'cursor', 'to', 'x'), fc.string({ maxLength: 20 }), { maxKeys: 3 }).map((q) => new URLSearchParams(q).toString()),
);

/** The valid body of each write route, by operationId; an operation left out is fuzzed from {}. */
function baseBodies(snapshot: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return {
    advanceClock: { by: '90m' },
    setClock: { now: '2026-10-06T09:00:00.000Z' },
    createFault: { kind: 'latency', count: 2, method: 'GET', path: '/v1/onboardings*', latency_ms: 1, retry_after_seconds: 1 },
    createWorkspace: { seed: 'x', clock: { mode: 'frozen', start: '2026-01-01T00:00:00Z' }, scenario: { rules: [{ match: { all: true }, employee: { opens: '10m' } }] } },
    restoreSnapshot: snapshot,
    loadScenario: SCENARIO,
    validateScenario: SCENARIO,
    dashboardCreateOnboarding: {
      organization_id: 'org_acme',
      reference: 'fuzz',
      employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
      employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
    },
    patchOrganizationSettings: { api_approvals: true, trial_ends_at: '2026-12-01T00:00:00Z', allowed_origins: ['https://a.test'], payroll_failure: { enabled: false } },
    changeTerms: { hours_per_week: 30, hourly_wage_cents: 1500, start_date: '2026-12-01' },
    returnForCorrection: { to: 'employee', reason: 'r' },
    dashboardApprove: { role: 'owner', data_version: 1 },
    employeeOpen: { code: '123456' },
    payrollFail: { error_code: 'x' },
  };
}

const SCENARIO = {
  name: 'fuzz',
  rules: [
    {
      match: { all: true },
      employee: { opens: '10m', submits: 'PT1H', signs: '2d' },
      review: { identity_check: '10m', approvals: '10m' },
      contract: { sent: '10m', employer_signs: '10m' },
      payroll: { after: '10m' },
    },
  ],
};

/** A good id for each kind of path parameter, so the route's own checks are reached too. */
function goodParam(path: string, name: string): string {
  if (name === 'workspaceId') return 'default';
  if (path.includes('/onboardings/')) return 'onb_demo_jansen';
  if (path.includes('/organizations/')) return 'org_acme';
  return 'unknown';
}

const route = (r: (typeof allControlRoutes)[number]) => `${r.method} ${r.path}`;
const CASES = allControlRoutes.flatMap((r) => servedPaths(r).map((path) => ({ name: `${r.method} ${path}`, method: r.method, path, operationId: r.operationId, key: route(r) })));

type Res = { status: number; body: unknown; text: string; headers: Record<string, string>; type: string };

/** The invariants of every case: no 5xx, the envelope on a refusal, no stack trace. */
function expectWellFormed(res: Res, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 400)}`).toBeLessThan(500);
  if (res.status >= 400 && res.type === 'application/json') {
    expect((res.body as { error?: unknown }).error, what).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String), request_id: res.headers['request-id'] });
  }
  expect(res.text).not.toMatch(/\n\s+at /);
}

/** What a later request needs: the clock, fault clearing, and /v1 in the default workspace and every other. */
async function expectWorkspacesAnswer(http: () => request.Agent | ReturnType<typeof request>, what: string) {
  const clock = await http().get('/_emulator/clock');
  expect(clock.status, `${what}: GET /_emulator/clock ${clock.text.slice(0, 400)}`).toBe(200);
  const cleared = await http().delete('/_emulator/faults');
  expect(cleared.status, `${what}: DELETE /_emulator/faults ${cleared.text.slice(0, 400)}`).toBe(200);
  const list = await http().get('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`);
  expect(list.status, `${what}: GET /v1/onboardings ${list.text.slice(0, 400)}`).toBe(200);
}

async function send(http: () => ReturnType<typeof request>, method: string, path: string, body: unknown) {
  const m = method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const req = http()[m](path);
  if (method === 'GET') return req;
  return req.set('Content-Type', 'application/json').send(toText(body));
}

function fill(path: string, odd: string | null): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => odd ?? goodParam(path, name));
}

describe('the control API under generated and hostile requests', () => {
  it('fuzzes a non-trivial list of routes, taken from the route table', () => {
    expect(allControlRoutes.length).toBeGreaterThanOrEqual(40);
    expect(CASES.length).toBeGreaterThan(allControlRoutes.length);
    expect(CASES.map((c) => c.name)).toEqual(
      expect.arrayContaining(['PUT /_emulator/snapshot', 'PUT /_emulator/workspaces/:workspaceId/scenario', 'POST /_emulator/faults', 'POST /_emulator/onboardings/:id/approve', 'GET /_emulator/health']),
    );
  });

  const h = fuzzHarness();
  const srv = served(h);
  let snapshot: Record<string, unknown> = {};
  beforeAll(async () => {
    await srv.start();
    const res = await srv.http().get('/_emulator/snapshot');
    expect(res.status).toBe(200);
    snapshot = res.body as Record<string, unknown>;
  });
  afterAll(() => srv.stop());

  it.each(CASES)('$name: never a 5xx, always the envelope, and the workspace still answers', async ({ name, method, path, operationId }) => {
    const base = baseBodies(snapshot)[operationId] ?? {};
    const params = /:[A-Za-z]/.test(path) ? fc.option(oddId, { freq: 2 }) : fc.constant(null);
    await fc.assert(
      fc.asyncProperty(bodies(base), params, oddQuery, async (body, odd, query) => {
        const url = fill(path, odd) + (query ? `?${query}` : '');
        const res = await send(srv.http, method, url, body);
        expectWellFormed(res, `${name} ${url} ${toText(body).slice(0, 300)}`);
        await expectWorkspacesAnswer(srv.http, `after ${name} ${url} ${toText(body).slice(0, 300)}`);
      }),
      { numRuns: RUNS.route, seed: SEED },
    );
  });
});

/**
 * State a request leaves behind: a short generated sequence of control calls (scenarios with
 * odd delays, faults, odd clock moves, mutated snapshots, workspaces with odd clocks,
 * organization changes), then every workspace must still answer, and the clock still move.
 */
describe('a generated sequence of control calls', () => {
  type Step = { method: string; path: string; body?: unknown };
  const delay = fc.oneof(fc.constantFrom('10m', 'never', '0s', '9999999999d', 'P99999999D', 'PT99999999999H', '99999999999999999999', '1e308', '36500d', '36600d', 'P1W'), hostileText);
  const scenarioStep = fc.record({ opens: delay, submits: delay, signs: delay, after: delay }).map(({ opens, submits, signs, after }): Step => ({
    method: 'PUT', path: '/_emulator/scenario',
    body: { rules: [{ match: { all: true }, employee: { opens, submits, signs }, review: { identity_check: opens, approvals: submits }, contract: { sent: signs, employer_signs: opens }, payroll: { after } }] },
  }));
  const faultStep = mutated(baseBodies({}).createFault!).map((body): Step => ({ method: 'POST', path: '/_emulator/faults', body }));
  const advanceStep = fc.oneof(delay, hostileNumber, fc.double({ min: 0, max: 4e9 })).map((by): Step => ({ method: 'POST', path: '/_emulator/clock/advance', body: { by } }));
  const setClockStep = hostileText.map((now): Step => ({ method: 'POST', path: '/_emulator/clock', body: { now } }));
  const workspaceStep = fc.tuple(hostileText, fc.constantFrom('frozen', 'realtime', 'x'), fc.option(delay)).map(([start, mode, opens]): Step => ({
    method: 'POST', path: '/_emulator/workspaces',
    body: { clock: { mode, start }, ...(opens === null ? {} : { scenario: { rules: [{ match: { all: true }, employee: { opens } }] } }) },
  }));
  const orgStep = mutated(baseBodies({}).patchOrganizationSettings!).map((body): Step => ({ method: 'PATCH', path: '/_emulator/organizations/org_acme', body }));
  const actionStep = fc.constantFrom('employee/open', 'employee/submit', 'employee/sign', 'send-contract', 'employer-sign', 'payroll/fail', 'resolve', 'cancel', 'send-reminder')
    .map((a): Step => ({ method: 'POST', path: `/_emulator/onboardings/onb_demo_jansen/${a}`, body: {} }));
  const restoreStep = fc.constant<Step>({ method: 'PUT', path: '/_emulator/snapshot' }); // body: a mutated snapshot, below
  const simple = fc.constantFrom<Step>(
    { method: 'POST', path: '/_emulator/reset', body: {} },
    { method: 'DELETE', path: '/_emulator/scenario' },
    { method: 'GET', path: '/_emulator/snapshot' },
    { method: 'GET', path: '/_emulator/scenario' },
    { method: 'GET', path: '/_emulator/webhooks' },
  );
  const steps = fc.array(fc.oneof(scenarioStep, faultStep, advanceStep, setClockStep, workspaceStep, orgStep, actionStep, restoreStep, simple), { minLength: 3, maxLength: 8 });

  // A rich snapshot to mutate: a scenario, faults, planned steps, timers, a webhook with deliveries, an idempotency record.
  let rich: Record<string, unknown> = {};
  beforeAll(async () => {
    const h = fuzzHarness();
    await h.http().put('/_emulator/scenario').send(SCENARIO).expect(200);
    await h.http().post('/_emulator/faults').send({ kind: 'latency', latency_ms: 1, count: 3 }).expect(201);
    await h.http().post('/_emulator/faults').send({ kind: 'payroll_down', count: 2 }).expect(201);
    await h.http().post('/_emulator/onboardings/onb_demo_jansen/employee/open').send({}).expect(200);
    await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['onboarding.started'] }).expect(201);
    await h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_jansen', { reference: 'r' }).set('Idempotency-Key', 'rich').expect(200);
    await h.http().post('/_emulator/clock/advance').send({ by: '15m' }).expect(200);
    rich = (await h.http().get('/_emulator/snapshot').expect(200)).body as Record<string, unknown>;
  });
  // Mutations aimed where later requests read: the scenario, autopilot, timers, faults, records.
  type Edit = [(string | number)[], unknown, 'set' | 'delete'];
  const snapshotEdits = () => {
    const focus = ['scenario', 'autopilot', 'timers', 'faults', 'clock', 'store', 'idempotency', 'outbox', 'audit_log'];
    // A part first, then a path in it: the store's thousands of paths would drown the small parts.
    const parts = focus.map((top) => pathsOf(rich).filter((p) => p[0] === top)).filter((paths) => paths.length > 0);
    const path = fc.oneof(...parts.map((paths) => fc.constantFrom(...paths)));
    return fc.array(fc.tuple(path, junk, fc.constantFrom<'set' | 'delete'>('set', 'delete')), { minLength: 1, maxLength: 3 });
  };
  /** The edits are generated, not the document, so a counterexample shows only what changed. */
  const edited = (edits: Edit[]) => {
    const copy = structuredClone(rich) as Record<string | number, unknown>;
    for (const [path, value, op] of edits) {
      let parent: Record<string | number, unknown> | undefined = copy;
      for (const k of path.slice(0, -1)) parent = parent?.[k] as Record<string | number, unknown> | undefined;
      if (!parent || typeof parent !== 'object') continue;
      if (op === 'delete' && !Array.isArray(parent)) delete parent[path[path.length - 1]!];
      else parent[path[path.length - 1]!] = value;
    }
    return copy;
  };

  it('leaves every workspace answering: no 5xx, the envelope, the clock and /v1 still work', async () => {
    await fc.assert(
      fc.asyncProperty(steps, fc.array(snapshotEdits(), { minLength: 8, maxLength: 8 }), async (sequence, snapshots) => {
        const h = fuzzHarness();
        const done: string[] = [];
        for (const [i, step] of sequence.entries()) {
          const body = step.path === '/_emulator/snapshot' && step.method === 'PUT' ? edited(snapshots[i]!) : step.body;
          done.push(`${step.method} ${step.path} ${toText(body).slice(0, 200)} `);
          const res = await send(h.http, step.method, step.path, body);
          done[done.length - 1] += `→ ${res.status}`;
          expectWellFormed(res, done.join('\n'));
        }
        const what = done.join('\n');
        // The next requests of any kind: the clock moves, and /v1 creates and lists.
        expectWellFormed(await h.http().post('/_emulator/clock/advance').send({ by: '30d' }), `${what}\nadvance 30d`);
        expectWellFormed(await h.as(KEYS.owner).post('/v1/onboardings', { reference: 'after', employee: { first_name: 'A', last_name: 'B', email: 'a@example.test' }, employment: { position: 'P', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 } }), `${what}\ncreate`);
        expectWellFormed(await h.http().get('/_emulator/scenario'), `${what}\nscenario`);
        // The idempotent request of the rich snapshot again: a restored record is replayed as it stands.
        expectWellFormed(await h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_jansen', { reference: 'r' }).set('Idempotency-Key', 'rich'), `${what}\nreplay`);
        // The workspace's own snapshot always restores: nothing it holds is beyond what a restore accepts.
        const own = await h.http().get('/_emulator/snapshot');
        expect(own.status, `${what}\nsnapshot`).toBe(200);
        const back = await h.http().put('/_emulator/snapshot').send(own.body);
        expect(back.status, `${what}\nrestore of its own snapshot: ${back.text.slice(0, 600)}`).toBe(200);
        await expectWorkspacesAnswer(h.http, what);
        const workspaces = (await h.http().get('/_emulator/workspaces').expect(200)).body as { data: { id: string }[] };
        for (const { id } of workspaces.data) {
          const clock = await h.http().get(`/_emulator/workspaces/${id}/clock`);
          expect(clock.status, `${what}\nworkspace ${id} clock ${clock.text}`).toBe(200);
          const keys = (await h.http().get(`/_emulator/workspaces/${id}/keys`).expect(200)).body as { data: { key: string }[] };
          const key = keys.data.find((k) => k.key.startsWith('hrs_test_'))?.key;
          if (key) {
            await h.http().delete(`/_emulator/workspaces/${id}/faults`).expect(200);
            const list = await h.http().get('/v1/onboardings').set('Authorization', `Bearer ${key}`);
            expect(list.status, `${what}\nworkspace ${id} /v1/onboardings ${list.text.slice(0, 300)}`).toBe(200);
          }
        }
      }),
      { numRuns: RUNS.sequence, seed: SEED + 1 },
    );
  }, 60_000);
});
