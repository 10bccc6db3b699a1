import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { maskSecret } from '../../src/core/mask.js';
import { Emulator } from '../../src/emulator.js';
import { createApp } from '../../src/http/app.js';
import { readScenarioFile } from '../../src/scenarios/scenario.load.js';
import { createBody, FROZEN_START } from '../support/harness.js';
import { answer, useReceivers, type Program, type Receiver } from '../support/receiver.js';

/**
 * Determinism of a whole scripted session (docs/scenarios.md, last paragraph): with a seed and
 * the frozen clock, the same fixtures, scenario and request sequence give byte-identical
 * responses, events and webhook bodies. One script runs twice, each time in a fresh workspace
 * made by POST /_emulator/workspaces with the same seed, clock and scenario, over real HTTP
 * (the app on 127.0.0.1), with a real webhook receiver per run; then everything it saw is
 * compared, run A against run B, byte for byte. What legitimately differs is listed in
 * `masksFor` with the reason; nothing else is masked.
 */

const receivers = useReceivers();

const SEED = 'determinism-scenario-1';
const file = (name: string) => fileURLToPath(new URL(`../../scenarios/${name}`, import.meta.url));

/** The single rule of a ready scenario file, driving only what `match` selects. */
function ruleOf(name: string, match: Record<string, unknown>) {
  const doc = readScenarioFile(file(name)) as { rules: Record<string, unknown>[] };
  expect(doc.rules).toHaveLength(1);
  return { ...doc.rules[0], name: name.replace(/\.yaml$/, ''), match };
}

/**
 * Three ready scenario files, each narrowed to its own onboardings, and a rule with corrections
 * and a terms change; onboardings no rule matches are left to the magic addresses or the
 * sandbox.
 */
function scenario() {
  return {
    version: 1,
    name: 'determinism',
    rules: [
      ruleOf('payroll-failure-then-recovery.yaml', { reference: 'PAY-*' }),
      ruleOf('slow-employer-signature.yaml', { email: '*@slow.example' }),
      ruleOf('returned-for-correction.yaml', { reference: 'RET-*' }),
      {
        name: 'corrections-and-raise',
        match: { metadata: { flow: 'corrections' } },
        employee: { opens: '1h', submits: '2h', signs: '1h' },
        review: {
          identity_check: '15m',
          corrections: { to: 'employee', times: 2, after: '30m' },
          approvals: { manager: '30m', payroll_reviewer: '1h', owner: '2h' },
          terms_change: { when: 'after_approval', after: '20m', terms: { hourly_wage_cents: 2450, hours_per_week: 32 } },
        },
        contract: { sent: '10m', employer_signs: '3h' },
        payroll: { connector: 'loket', outcome: 'success', after: '7m' },
      },
    ],
  };
}

// --- transport -------------------------------------------------------------------------------

interface Exchange {
  method: string;
  path: string;
  status: number;
  /** Every response header but those of the connection and the wall clock (see masksFor). */
  headers: [string, string][];
  /** The exact body, decoded as UTF-8 (identical bytes give identical text). */
  body: string;
}

/** Headers that belong to the TCP connection or the wall clock, not to the emulator's answer. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive']);

async function send(base: string, key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const kept = [...res.headers.entries()].filter(([name]) => !TRANSPORT_HEADERS.has(name));
  return { method, path, status: res.status, headers: kept, body: bytes.toString('utf8') };
}

interface Webhook {
  path: string;
  method: string;
  /** The headers the emulator chose (Host names the receiver's port: see masksFor). */
  headers: Record<string, string | undefined>;
  body: string;
  eventId: string;
}

interface Run {
  workspaceId: string;
  keys: string[];
  receiver: Receiver;
  /** Every exchange in the order sent, control API included. */
  transcript: Exchange[];
  /** The webhook requests in the order of their events (arrival order is the network's). */
  webhooks: Webhook[];
  /** Parsed views for the sanity checks. */
  events: { id: string; type: string; data: { onboarding_id: string } }[];
  created: string[];
  finalStatuses: Record<string, string>;
  firedSteps: string[];
  /** The deliveries of the address with no filter, as listed at the end. */
  deliveries: { id: string; event_id: string; status: string; attempts: number }[];
  secret: string;
}

// --- the script ------------------------------------------------------------------------------

async function script(base: string, program: Program = answer(200)): Promise<Run> {
  const receiver = await receivers.start(program);
  const transcript: Exchange[] = [];
  /** The parsed body, untyped: the script reads a few fields; the comparison uses the bytes. */
  const json = (x: Exchange) => JSON.parse(x.body);

  const ws = await send(base, null, 'POST', '/_emulator/workspaces', { seed: SEED, clock: { mode: 'frozen', start: FROZEN_START }, scenario: scenario() });
  expect(ws.status, ws.body).toBe(201);
  transcript.push(ws);
  const workspaceId = json(ws).id as string;
  const keys = (json(ws).keys as { key: string }[]).map((k) => k.key);
  const owner = (json(ws).keys as { key: string; name: string; environment: string }[]).find((k) => k.name.startsWith('Acme owner') && k.environment === 'test')!.key;

  /** A request as the workspace's owner key (control requests with a key act on its workspace). */
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const x = await send(base, owner, method, path, body, headers);
    transcript.push(x);
    return x;
  };
  const must = async (status: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const x = await call(method, path, body, headers);
    expect(x.status, `${method} ${path}: ${x.body}`).toBe(status);
    return json(x);
  };
  const advance = async (by: string | number) => must(200, 'POST', '/_emulator/clock/advance', { by }) as Promise<{ fired: { kind: string; step?: string }[] }>;
  /** Advancing by 0 runs what is due now and waits for the deliveries in flight. */
  const settle = () => advance(0);

  await must(200, 'GET', '/_emulator/scenario');
  const hook = await must(201, 'POST', '/v1/webhooks', { url: receiver.url('/hook'), description: 'every event' });
  await must(201, 'POST', '/v1/webhooks', { url: receiver.url('/completed'), events: ['onboarding.completed', 'onboarding.failed'] });

  const created: string[] = [];
  const create = async (overrides: Record<string, unknown>, headers?: Record<string, string>) => {
    const o = await must(201, 'POST', '/v1/onboardings', createBody(overrides), headers);
    created.push(o.id as string);
    return o.id as string;
  };
  // Matched by the rules of the scenario, in rule order.
  await create({ reference: 'PAY-001', employee: { first_name: 'Pim', last_name: 'Jansen', email: 'pim@example.test' } });
  await create({ reference: 'SLOW-001', employee: { first_name: 'Sara', last_name: 'Smit', email: 'sara@slow.example' } });
  await create({ reference: 'RET-001', employee: { first_name: 'Ruud', last_name: 'Visser', email: 'ruud@example.test' }, metadata: { team: 'red', seq: 3 } });
  await create({ reference: 'COR-001', metadata: { flow: 'corrections', note: 'Zoë – 😀 "quoted"' }, employee: { first_name: 'Zoë', last_name: 'Bakker', email: 'zoe@example.test' } });
  // No rule matches: the magic address plays it.
  await create({ reference: 'MAGIC-001', employee: { first_name: 'Mila', last_name: 'de Vries', email: 'returned-to-manager+mila@example.com' } });
  // No rule, no magic address: moved on by the sandbox, one /v1 request per step; made with an
  // Idempotency-Key and retried with the same key and body (a replay), then with another body.
  const idem = { 'Idempotency-Key': 'determinism-create-1' };
  const sbx = await create({ reference: 'SBX-001', employee: { first_name: 'Sem', last_name: 'Mulder', email: 'sem@example.test' } }, idem);
  const replay = await call('POST', '/v1/onboardings', createBody({ reference: 'SBX-001', employee: { first_name: 'Sem', last_name: 'Mulder', email: 'sem@example.test' } }), idem);
  expect(replay.status, replay.body).toBe(201);
  expect(json(replay).id).toBe(sbx);
  await must(409, 'POST', '/v1/onboardings', createBody({ reference: 'SBX-002' }), idem);
  await settle();

  await must(200, 'GET', '/v1/onboardings?limit=2');
  const page1 = await must(200, 'GET', '/v1/onboardings?limit=3');
  await must(200, 'GET', `/v1/onboardings?limit=3&starting_after=${page1.next_cursor}`);
  await must(200, 'GET', `/v1/onboardings/${created[0]}`);
  await must(404, 'GET', '/v1/onboardings/onb_doesnotexist');
  await must(201, 'POST', `/v1/onboardings/${created[0]}/hosted-link`, {});
  await must(200, 'GET', '/_emulator/scenario');
  await settle();

  for (let i = 0; i < 20; i++) {
    const step = await call('POST', `/v1/sandbox/onboardings/${sbx}/advance`, {});
    if (step.status !== 200) break;
    await settle();
  }

  const firedSteps: string[] = [];
  for (const by of ['1h', '90m', '4h', '1d', '2d', '3d', '2d']) {
    const { fired } = await advance(by);
    firedSteps.push(...fired.filter((f) => f.kind === 'scenario.step').map((f) => f.step!));
    await must(200, 'GET', `/v1/onboardings/${created[1]}`);
  }
  await settle();

  // What there is to see at the end.
  const finalStatuses: Record<string, string> = {};
  for (const id of created) finalStatuses[id] = (await must(200, 'GET', `/v1/onboardings/${id}`)).status;
  const events: Run['events'] = [];
  for (let cursor: string | null = null, page = 0; page < 100; page++) {
    const p = await must(200, 'GET', `/v1/events?limit=25${cursor ? `&starting_after=${cursor}` : ''}`);
    events.push(...p.data);
    if (!p.has_more) break;
    cursor = p.next_cursor;
  }
  await must(200, 'GET', '/v1/webhooks');
  await must(200, 'GET', `/v1/webhooks/${hook.id}`);
  const deliveries: Run['deliveries'] = [];
  for (let cursor: string | null = null, page = 0; page < 100; page++) {
    const p = await must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries?limit=50${cursor ? `&starting_after=${cursor}` : ''}`);
    deliveries.push(...p.data);
    if (!p.has_more) break;
    cursor = p.next_cursor;
  }
  await must(200, 'GET', '/v1/employees?limit=100');
  for (const id of created) await must(200, 'GET', `/_emulator/onboardings/${id}`);
  await must(200, 'GET', '/_emulator/onboardings');
  await must(200, 'GET', '/_emulator/events?limit=1000');
  await must(200, 'GET', '/_emulator/outbox');
  await must(200, 'GET', '/_emulator/scenario');
  await must(200, 'GET', '/_emulator/clock');
  await must(200, 'GET', '/_emulator/audit-log');
  await must(200, 'GET', '/_emulator/webhooks');
  await must(200, 'GET', '/_emulator/snapshot');

  const order = new Map(events.map((e, i) => [e.id, i]));
  const webhooks = receiver.requests
    .map((r) => ({
      path: r.path,
      method: r.method,
      headers: Object.fromEntries(
        ['content-type', 'content-length', 'user-agent', 'service-event-id', 'service-event-type', 'service-signature'].map((h) => [h, r.headers[h] as string | undefined]),
      ),
      body: r.body.toString('utf8'),
      eventId: String(r.headers['service-event-id']),
    }))
    .sort((a, b) => a.path.localeCompare(b.path) || (order.get(a.eventId) ?? -1) - (order.get(b.eventId) ?? -1));

  return { workspaceId, keys, receiver, transcript, webhooks, events, created, finalStatuses, firedSteps, deliveries, secret: hook.secret as string };
}

// --- comparing ---------------------------------------------------------------------------------

/**
 * What legitimately differs between two runs, each with the reason, as exact strings to replace
 * by the same placeholder in both runs (positional, so a value used at another place than in the
 * other run still shows as a difference):
 * - the receiver's base URL (`http://127.0.0.1:<port>`): each run starts its own receiver on a
 *   free port, so the registered webhook URL (in the answers that show it, the snapshot and the
 *   control API's webhook list) names another port;
 * - with `sameEmulator`, the workspace id and API keys: ids of workspaces come from the
 *   emulator's own sequence (the second workspace gets the next id) and every key of a workspace
 *   carries its id as suffix; and the request ids (Request-Id header, `request_id` of errors),
 *   which are the emulator's sequence too, shared by all workspaces, not the workspace's.
 * Not compared at all: the HTTP `Date`/`Connection`/`Keep-Alive` response headers (wall clock,
 * TCP), the webhook request's `Host` header (the port again) and the order in which webhook
 * requests arrive (attempts due at the same instant are sent concurrently; they are compared in
 * the order of their events). Signatures are compared as they are: the emulator signs with the
 * workspace clock (`signatureClock: 'emulated'`) and the secret comes from the seeded sequence.
 */
function masksFor(run: Run, sameEmulator: boolean): [string, string][] {
  const masks: [string, string][] = [[run.receiver.base, 'http://127.0.0.1:<receiver port>']];
  if (sameEmulator) {
    masks.push([run.workspaceId, '<workspace id>']);
    // The request journal in the snapshot shows each key masked, its suffix included.
    run.keys.forEach((k, i) => masks.push([k, `<key ${i}>`], [maskSecret(k), `<masked key ${i}>`]));
    run.transcript.forEach((x, i) => {
      const id = x.headers.find(([name]) => name === 'request-id')?.[1];
      if (id) masks.push([id, `<request id of exchange ${i}>`]);
    });
  }
  // Longest first, so no mask eats a part of another.
  return masks.sort((a, b) => b[0].length - a[0].length);
}

function lines(run: Run, sameEmulator: boolean): string[] {
  const masks = masksFor(run, sameEmulator);
  const mask = (s: string) => masks.reduce((acc, [from, to]) => acc.split(from).join(to), s);
  return [
    ...run.transcript.map((x, i) => mask(`#${i} ${x.method} ${x.path} -> ${x.status} ${JSON.stringify(x.headers)}\n${x.body}`)),
    ...run.webhooks.map((w) => mask(`webhook ${w.method} ${w.path} ${JSON.stringify(w.headers)}\n${w.body}`)),
  ];
}

/** Compares exchange by exchange, so a failure names the first one that differs. */
function expectSame(a: Run, b: Run, sameEmulator: boolean) {
  const la = lines(a, sameEmulator);
  const lb = lines(b, sameEmulator);
  expect(lb.length, 'the two runs saw a different number of exchanges and webhooks').toBe(la.length);
  for (let i = 0; i < la.length; i++) {
    expect(lb[i], `run B differs from run A at ${la[i]!.split('\n')[0]}`).toBe(la[i]);
  }
}

/**
 * The script really did something: the comparison must not pass on two empty runs. `retried`:
 * the receiver refused the first attempt of every approval_required message once.
 */
function expectSubstance(run: Run, retried = false) {
  expect(run.created).toHaveLength(6);
  expect(Object.values(run.finalStatuses)).toEqual(Array(6).fill('completed'));
  const ours = run.events.filter((e) => run.created.includes(e.data.onboarding_id));
  expect(ours.length).toBeGreaterThanOrEqual(100);
  // Only the fixtures' onboardings made events before the addresses were registered.
  expect(run.events.length - ours.length).toBe(2);
  for (const step of ['returned', 'terms_changed', 'manager_corrected', 'payroll_failed', 'payroll_resolved', 'employer_signed', 'payroll_completed']) {
    expect(run.firedSteps, `scenario step ${step}`).toContain(step);
  }
  // The address with no filter got every later event, once per attempt; the filtered one its two types.
  const all = run.webhooks.filter((w) => w.path === '/hook');
  expect([...new Set(all.map((w) => w.eventId))]).toEqual(ours.map((e) => e.id));
  const refused = ours.filter((e) => retried && e.type === 'onboarding.approval_required').map((e) => e.id);
  expect(all).toHaveLength(ours.length + refused.length);
  expect(run.deliveries).toHaveLength(ours.length);
  for (const d of run.deliveries) {
    expect(d, d.event_id).toMatchObject({ status: 'succeeded', attempts: refused.includes(d.event_id) ? 2 : 1 });
  }
  if (retried) expect(refused.length).toBeGreaterThanOrEqual(8);
  const filtered = run.webhooks.filter((w) => w.path === '/completed');
  expect(filtered.map((w) => w.eventId)).toEqual(ours.filter((e) => e.type === 'onboarding.completed' || e.type === 'onboarding.failed').map((e) => e.id));
  expect(filtered.length).toBeGreaterThanOrEqual(7);
  // Each body is signed with the endpoint's secret over its raw bytes, at the emulated instant
  // of the attempt: the event's own, or a minute later for a retry.
  const attemptsSeen = new Map<string, number>();
  for (const w of all) {
    const attempt = (attemptsSeen.get(w.eventId) ?? 0) + 1;
    attemptsSeen.set(w.eventId, attempt);
    const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(w.headers['service-signature'] ?? '');
    expect(sig, w.headers['service-signature']).not.toBeNull();
    expect(sig![2]).toBe(createHmac('sha256', run.secret).update(`${sig![1]}.${w.body}`, 'utf8').digest('hex'));
    const body = JSON.parse(w.body) as { created_at: string };
    expect(Number(sig![1]) - Date.parse(body.created_at) / 1000).toBe(attempt === 1 ? 0 : 60);
  }
  expect(run.transcript.length).toBeGreaterThan(50);
}

// --- the tests ---------------------------------------------------------------------------------

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

/**
 * The app of a new emulator on 127.0.0.1 (never another interface), free port. Its public URL
 * is fixed, as `--public-url` does: hosted links (answers, mails, the outbox) name it instead of
 * the Host of the request, which carries each server's own port.
 */
async function serve(): Promise<string> {
  const emulator = new Emulator({ seed: 'emulator-seed', clock: { mode: 'frozen', start: FROZEN_START }, webhooks: { signatureClock: 'emulated' } });
  const server = createServer(createApp(emulator, { publicUrl: 'http://localhost:4010' }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a seeded, frozen scenario session', () => {
  it('gives byte-identical responses, events and webhooks in two fresh workspaces of one emulator', async () => {
    const base = await serve();
    const a = await script(base);
    const b = await script(base);
    expect(b.workspaceId).not.toBe(a.workspaceId);
    expectSubstance(a);
    expectSubstance(b);
    expectSame(a, b, true);
  }, 60_000);

  it('gives the same bytes in workspaces of two emulators with the same seed, with only the receiver port masked', async () => {
    const a = await script(await serve());
    const b = await script(await serve());
    // Here the workspace id, keys and request ids are equal too, so they are compared as they are.
    expect(b.workspaceId).toBe(a.workspaceId);
    expect(b.keys).toEqual(a.keys);
    expectSubstance(a);
    expectSame(a, b, false);
  }, 60_000);
});

/**
 * A receiver that refuses (503) the first attempt of every approval_required message, answering
 * it after a delay that depends on the onboarding: in run A the first onboarding's answer comes
 * first, in run B last. The emulator sees the same requests and the same answers; only the
 * receiver's speed differs, as it does between any two runs against a real network.
 */
const REFERENCES = ['PAY-001', 'SLOW-001', 'RET-001', 'COR-001', 'MAGIC-001', 'SBX-001'];
function refusingFirstAttempts(reversed: boolean): Program {
  const seen = new Set<string>();
  return (r) => {
    const id = `${r.path} ${String(r.headers['service-event-id'])}`;
    const first = !seen.has(id);
    seen.add(id);
    if (!first || r.path !== '/hook' || r.headers['service-event-type'] !== 'onboarding.approval_required') return answer(200);
    const i = REFERENCES.indexOf((JSON.parse(r.body.toString('utf8')) as { data: { reference: string } }).data.reference);
    expect(i).toBeGreaterThanOrEqual(0);
    return { kind: 'delay', ms: 100 * (reversed ? REFERENCES.length - 1 - i : i), then: answer(503, 'try again') };
  };
}

describe('a seeded, frozen scenario session with retries, the receiver answering at another speed in each run', () => {
  /**
   * Retries of attempts that were in flight together are due at one instant; they are listed
   * (and started) in the order their first attempts started, whatever order the receiver
   * answered in, so the `fired` lists of the clock advances are equal too.
   */
  it('gives the same bytes, the order of retries due at one instant included', async () => {
    const base = await serve();
    const a = await script(base, refusingFirstAttempts(false));
    const b = await script(base, refusingFirstAttempts(true));
    expectSubstance(a, true);
    expectSubstance(b, true);
    // The case that matters happened: several retries (the second, successful attempts of the
    // refused deliveries) fell due at the same instant.
    const retriesAtOneInstant = (run: Run) => {
      const retried = new Set(run.deliveries.filter((d) => d.attempts === 2).map((d) => d.id));
      return Math.max(
        0,
        ...run.transcript
          .filter((x) => x.path === '/_emulator/clock/advance')
          .map((x) => {
            const counts = new Map<string, number>();
            for (const f of (JSON.parse(x.body) as { fired: { kind: string; due_at: string; delivery_id?: string; status_code?: number }[] }).fired) {
              if (f.kind === 'webhook.attempt' && f.status_code === 200 && retried.has(String(f.delivery_id))) counts.set(f.due_at, (counts.get(f.due_at) ?? 0) + 1);
            }
            return Math.max(0, ...counts.values());
          }),
      );
    };
    expect(retriesAtOneInstant(a)).toBeGreaterThanOrEqual(2);
    expectSame(a, b, true);
  }, 90_000);
});
