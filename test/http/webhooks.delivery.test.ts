import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/delivery/address-policy.js';
import type { Transport, TransportRequest, TransportResult } from '../../src/delivery/transport.js';
import { createBody, FROZEN_START, harness, KEYS, expectError } from '../support/harness.js';
import { answer, destroy, hang, useReceivers, type Receiver, type ReceivedRequest } from '../support/receiver.js';
import { advance, advanceTimes, createOnboarding } from '../support/sandbox-steps.js';

/**
 * Webhook deliveries with real HTTP receivers on 127.0.0.1 (docs/decisions.md, Webhook
 * delivery): the message and its signature, checked here by an independent HMAC; the retry
 * schedule to dead on the workspace clock; failures of every kind; auto-disable; manual retry;
 * test ping; secret rotation; the delivery log; partner routing; the strict URL policy with a
 * fake resolver and transport (no test connects anywhere but loopback).
 */
type H = ReturnType<typeof harness>;

const receivers = useReceivers();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START_MS = Date.parse(FROZEN_START);
const START_S = START_MS / 1000;
/** Minutes after each failed attempt (spec: Delivery). */
const RETRY_MINUTES = [1, 5, 30, 120, 360, 720, 1440];
const iso = (ms: number) => new Date(ms).toISOString();

// --- helpers -------------------------------------------------------------------------------

interface Message {
  id: string;
  type: string;
  created_at: string;
  organization_id: string;
  api_version: string;
  data: Record<string, unknown>;
}

interface Delivery {
  id: string;
  object: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

/** The independent computation: hex HMAC-SHA256 keyed with the secret over `${t}.` + the raw bytes. */
function hmacHex(secret: string, t: string, raw: Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`, 'utf8'), raw])).digest('hex');
}

/** Parses `t=<unix>,v1=<hex>[,v1=<hex>]` strictly. */
function signatureOf(req: ReceivedRequest): { t: string; v1: string[] } {
  const header = req.headers['service-signature'];
  expect(typeof header, 'Service-Signature header').toBe('string');
  expect(header).toMatch(/^t=\d+(,v1=[0-9a-f]{64})+$/);
  const parts = (header as string).split(',');
  return { t: parts[0]!.slice(2), v1: parts.slice(1).map((p) => p.slice(3)) };
}

/** Asserts the header carries exactly one v1 per secret, in this order, each over the raw body. */
function expectSignedBy(req: ReceivedRequest, secrets: string[]): number {
  const { t, v1 } = signatureOf(req);
  expect(v1).toEqual(secrets.map((s) => hmacHex(s, t, req.body)));
  return Number(t);
}

const message = (req: ReceivedRequest) => JSON.parse(req.body.toString('utf8')) as Message;

async function register(h: H, body: object, key: string = KEYS.owner) {
  const res = await h.as(key).post('/v1/webhooks', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; api_version: string };
}

/** Runs what is due now and waits for attempts in flight. */
const settle = (h: H) => h.emulator.defaultWorkspace.scheduler.advanceBy(0);
const advanceClock = (h: H, ms: number) => h.emulator.defaultWorkspace.scheduler.advanceBy(ms);

async function ping(h: H, webhookId: string, key: string = KEYS.owner) {
  const res = await h.as(key).post(`/v1/webhooks/${webhookId}/test`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { object: string; webhook_id: string; event_id: string; delivery_id: string; status: string };
}

async function deliveries(h: H, webhookId: string, query = '', key: string = KEYS.owner) {
  const res = await h.as(key).get(`/v1/webhooks/${webhookId}/deliveries${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { object: string; data: Delivery[]; has_more: boolean; next_cursor: string | null };
}

async function delivery(h: H, webhookId: string, deliveryId: string): Promise<Delivery> {
  const found = (await deliveries(h, webhookId, '?limit=100')).data.find((d) => d.id === deliveryId);
  expect(found, `delivery ${deliveryId}`).toBeDefined();
  return found!;
}

async function webhook(h: H, id: string, key: string = KEYS.owner) {
  const res = await h.as(key).get(`/v1/webhooks/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string; previous_secret_expires_at: string | null; recent_deliveries: Delivery[] };
}

const types = (r: Receiver, path = '/hook') => r.to(path).map((q) => message(q).type);

// --- messages ------------------------------------------------------------------------------

describe('the message', () => {
  it('is a POST with the spec headers, signed over the exact raw bytes (checked by an independent HMAC)', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    const id = await createOnboarding(h, KEYS.owner, { metadata: { team: 'Zoë – 😀 "quoted"', cost_centre: 4100 } });
    await settle(h);

    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('Service-Webhooks/1');
    expect(req.headers['content-length']).toBe(String(req.body.length));
    const body = message(req);
    expect(req.headers['service-event-id']).toBe(body.id);
    expect(req.headers['service-event-type']).toBe('onboarding.created');
    expect(body.data.onboarding_id).toBe(id);
    // The multi-byte metadata is in the raw bytes as UTF-8, and the HMAC covers exactly those bytes.
    expect(req.body.includes(Buffer.from('Zoë – 😀 \\"quoted\\"', 'utf8'))).toBe(true);
    const t = expectSignedBy(req, [w.secret]);
    // A different secret or a re-encoded body does not verify.
    expect(signatureOf(req).v1[0]).not.toBe(hmacHex('whsec_other', String(t), req.body));
    expect(signatureOf(req).v1[0]).not.toBe(hmacHex(w.secret, String(t), Buffer.from(req.body.toString('latin1'), 'utf8')));

    // The delivery log agrees.
    const log = await deliveries(h, w.id);
    expect(log.data).toEqual([{
      id: expect.stringMatching(/^whd_/), object: 'webhook_delivery', event_id: body.id, event_type: 'onboarding.created',
      status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null,
      created_at: FROZEN_START, delivered_at: FROZEN_START, next_attempt_at: null,
    }]);
  });

  it('carries the spec\'s body fields, the same as GET /v1/events, and no personal data, through the whole life cycle', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url() });
    const id = await createOnboarding(h, KEYS.owner, { reference: 'hire-42', metadata: { team: 'blue' } });
    await advanceTimes(h, id, 10);
    await settle(h);

    const events = (await h.as(KEYS.owner).get('/v1/events?limit=100')).body.data as (Message & { object: string })[];
    const mine = events.filter((e) => e.data.onboarding_id === id);
    expect(r.requests.map((q) => message(q).id).sort()).toEqual(mine.map((e) => e.id).sort());
    expect(mine.map((e) => e.type)).toEqual([
      'onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required',
      'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approved', 'contract.sent',
      'contract.signed_by_employee', 'onboarding.contract_signed', 'contract.signed', 'integration.sync_succeeded', 'payroll.completed',
      'onboarding.completed',
    ]);

    for (const req of r.requests) {
      const body = message(req);
      expect(Object.keys(body).sort()).toEqual(['api_version', 'created_at', 'data', 'id', 'organization_id', 'type']);
      const { object: _object, ...listed } = mine.find((e) => e.id === body.id)!;
      expect(body).toEqual(listed);
      expect(body).toMatchObject({ organization_id: 'org_acme', api_version: '2026-10-01', created_at: FROZEN_START });
      expect(body.id).toMatch(/^evt_/);
      expect(body.data).toMatchObject({ onboarding_id: id, reference: 'hire-42', metadata: { team: 'blue' } });
      expect(Number.isInteger(body.data.data_version)).toBe(true);
      const extra = Object.keys(body.data).filter((k) => !['onboarding_id', 'reference', 'metadata', 'data_version'].includes(k));
      const expectedExtra: Record<string, string[]> = {
        'onboarding.approval_given': ['role'],
        'integration.sync_succeeded': ['connector'],
        'payroll.completed': ['connector'],
      };
      expect(extra, body.type).toEqual(expectedExtra[body.type] ?? []);
      expect(req.headers['service-event-type']).toBe(body.type);
      // No personal data of the employee (createBody's and whatever the sandbox filled in).
      const raw = req.body.toString('utf8');
      for (const personal of ['Lotte', 'de Boer', 'lotte@example.test', '@', 'emp_']) expect(raw, body.type).not.toContain(personal);
    }
    const roles = r.requests.map(message).filter((m) => m.type === 'onboarding.approval_given').map((m) => m.data.role).sort();
    expect(roles).toEqual(['manager', 'owner', 'payroll_reviewer']);
    expect(r.requests.map(message).find((m) => m.type === 'integration.sync_succeeded')!.data.connector).toBe('nmbrs');
  });

  it('carries the api_version of the address, not of the reader', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    // An address registered when an older version was current (only one version exists today).
    const ws = h.emulator.defaultWorkspace;
    ws.store.webhooks.put({ ...ws.store.webhooks.get(w.id)!, api_version: '2025-04-01' });
    await createOnboarding(h);
    await settle(h);
    expect(message(r.requests[0]!).api_version).toBe('2025-04-01');
    const listed = (await h.as(KEYS.owner).get('/v1/events?type=onboarding.created&limit=100')).body.data as Message[];
    expect(listed.find((e) => e.id === message(r.requests[0]!).id)!.api_version).toBe('2026-10-01');
  });

  it('signs with wall-clock t by default, even after a fast-forward of the workspace clock', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    await ping(h, w.id);
    await settle(h);
    const before = Date.now() / 1000;
    expect(Math.abs(expectSignedBy(r.requests[0]!, [w.secret]) - before)).toBeLessThanOrEqual(5);

    const moved = await h.http().post('/_emulator/clock/advance').send({ by: '2d' });
    expect(moved.status).toBe(200);
    expect(moved.body.now).toBe(iso(START_MS + 2 * DAY));
    await ping(h, w.id);
    await settle(h);
    const t = expectSignedBy(r.requests[1]!, [w.secret]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThanOrEqual(5);
    expect(Math.abs(t - (START_S + 2 * 86_400))).toBeGreaterThan(3_600);
  });

  it('signs with the workspace clock\'s seconds under signatureClock emulated', async () => {
    const h = harness({ webhooks: { signatureClock: 'emulated' } });
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    await ping(h, w.id);
    await settle(h);
    expect(expectSignedBy(r.requests[0]!, [w.secret])).toBe(START_S);
    expect((await h.http().post('/_emulator/clock/advance').send({ by: '90m' })).status).toBe(200);
    await ping(h, w.id);
    await settle(h);
    expect(expectSignedBy(r.requests[1]!, [w.secret])).toBe(START_S + 90 * 60);
  });

  it('makes one delivery per (event, address), never a second one', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const a = await register(h, { url: r.url('/a') });
    const b = await register(h, { url: r.url('/b'), events: ['onboarding.created'] });
    const other = await register(h, { url: r.url('/bakker') }, KEYS.bakker);
    await createOnboarding(h);
    await settle(h);
    await advanceClock(h, 3 * DAY);

    expect(types(r, '/a')).toEqual(['onboarding.created']);
    expect(types(r, '/b')).toEqual(['onboarding.created']);
    expect(r.to('/bakker')).toEqual([]);
    expect(message(r.to('/a')[0]!).id).toBe(message(r.to('/b')[0]!).id);
    // Each address signs with its own secret.
    expectSignedBy(r.to('/a')[0]!, [a.secret]);
    expectSignedBy(r.to('/b')[0]!, [b.secret]);
    expect((await deliveries(h, a.id)).data).toHaveLength(1);
    expect((await deliveries(h, b.id)).data).toHaveLength(1);
    expect((await deliveries(h, other.id, '', KEYS.bakker)).data).toEqual([]);
  });
});

describe('on a realtime clock', () => {
  it('delivers by itself, with no advance: the first attempt starts right after the request', async () => {
    const h = harness({ clock: { mode: 'realtime' } });
    const ws = h.emulator.defaultWorkspace;
    try {
      const r = await receivers.start(answer(200));
      const w = await register(h, { url: r.url(), events: ['onboarding.created'] });
      const id = await createOnboarding(h);
      const [req] = await r.waitFor(1, 3_000);
      expect(message(req!).data.onboarding_id).toBe(id);
      expect(Math.abs(expectSignedBy(req!, [w.secret]) - Date.now() / 1000)).toBeLessThanOrEqual(5);
      await ws.scheduler.settle();
      expect((await deliveries(h, w.id)).data[0]).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200 });
    } finally {
      ws.scheduler.stop();
    }
  });
});

// --- filters and older names ------------------------------------------------------------------

describe('filters and older names', () => {
  it('sends only the subscribed names; without a filter both names arrive as separate messages', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/older'), events: ['onboarding.submitted'] });
    await register(h, { url: r.url('/current'), events: ['onboarding.employee_submitted'] });
    await register(h, { url: r.url('/all') });
    const id = await createOnboarding(h);
    await advanceTimes(h, id, 2); // employee_opened, employee_submitted
    await settle(h);

    expect(types(r, '/older')).toEqual(['onboarding.submitted']);
    expect(types(r, '/current')).toEqual(['onboarding.employee_submitted']);
    expect([...types(r, '/all')].sort()).toEqual([
      'onboarding.approval_required', 'onboarding.created', 'onboarding.employee_submitted', 'onboarding.started', 'onboarding.submitted',
    ]);
    const all = r.to('/all').map(message);
    const current = all.find((m) => m.type === 'onboarding.employee_submitted')!;
    const older = all.find((m) => m.type === 'onboarding.submitted')!;
    expect(current.id).not.toBe(older.id);
    expect(current.data).toEqual(older.data);
    expect(message(r.to('/older')[0]!).id).toBe(older.id);
    expect(message(r.to('/current')[0]!).id).toBe(current.id);
  });
});

// --- retry schedule ------------------------------------------------------------------------------

describe('the retry schedule', () => {
  it('retries at +1, +5, +30, +120, +360, +720 and +1440 minutes after each failed attempt, then dead (stepping the clock)', async () => {
    const h = harness({ webhooks: { signatureClock: 'emulated' } });
    const r = await receivers.start(answer(500, 'down'));
    const w = await register(h, { url: r.url(), events: ['onboarding.created'] });
    await createOnboarding(h);
    await settle(h);
    const [first] = (await deliveries(h, w.id)).data;
    expect(r.requests).toHaveLength(1);
    expect(expectSignedBy(r.requests[0]!, [w.secret])).toBe(START_S);

    let at = START_MS;
    for (const [i, minutes] of RETRY_MINUTES.entries()) {
      const d = await delivery(h, w.id, first!.id);
      expect(d, `after attempt ${i + 1}`).toMatchObject({
        status: 'failed', attempts: i + 1, last_status_code: 500, last_error: 'HTTP 500: down', delivered_at: null,
        next_attempt_at: iso(at + minutes * MINUTE),
      });
      // One second early: nothing.
      await advanceClock(h, minutes * MINUTE - 1_000);
      expect(r.requests, `before retry ${i + 1}`).toHaveLength(i + 1);
      // At the instant: the retry, signed with that instant.
      await advanceClock(h, 1_000);
      at += minutes * MINUTE;
      expect(r.requests, `retry ${i + 1}`).toHaveLength(i + 2);
      expect(expectSignedBy(r.requests[i + 1]!, [w.secret])).toBe(at / 1000);
      expect(message(r.requests[i + 1]!).id).toBe(first!.event_id);
    }
    expect(at - START_MS).toBe(2676 * MINUTE);
    expect(await delivery(h, w.id, first!.id)).toMatchObject({
      status: 'dead', attempts: 8, last_status_code: 500, last_error: 'HTTP 500: down', next_attempt_at: null, delivered_at: null,
    });
    // Dead is final.
    await advanceClock(h, 10 * DAY);
    expect(r.requests).toHaveLength(8);
    // Every attempt sent the same bytes.
    expect(new Set(r.requests.map((q) => q.body.toString('base64'))).size).toBe(1);
  });

  it('reaches every retry at its own instant in one advance over HTTP (instants read from the emulated t)', async () => {
    const h = harness({ webhooks: { signatureClock: 'emulated' } });
    const r = await receivers.start(answer(503));
    const w = await register(h, { url: r.url() });
    const p = await ping(h, w.id);
    const first = await h.http().post('/_emulator/clock/advance').send({ by: 0 });
    expect(first.status).toBe(200);
    expect(r.requests).toHaveLength(1);

    const res = await h.http().post('/_emulator/clock/advance').send({ by: '2d' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = [START_MS];
    for (const minutes of RETRY_MINUTES) expected.push(expected.at(-1)! + minutes * MINUTE);
    expect(r.requests.map((q) => expectSignedBy(q, [w.secret]) * 1000)).toEqual(expected);
    const attempts = (res.body.fired as { kind: string; due_at: string; delivery_id?: string; status?: string }[]).filter((f) => f.kind === 'webhook.attempt');
    expect(attempts.map((f) => f.due_at)).toEqual(expected.slice(1).map(iso));
    expect(attempts.every((f) => f.delivery_id === p.delivery_id)).toBe(true);
    expect(attempts.map((f) => f.status)).toEqual([...Array(6).fill('failed'), 'dead']);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'dead', attempts: 8, last_status_code: 503, next_attempt_at: null });
  });

});

describe('what counts as received', () => {
  it('counts any 2xx as received and anything else as failed', async () => {
    const h = harness();
    const ok = [200, 201, 202, 204, 226, 299];
    const notOk = [304, 400, 404, 410, 429, 500, 503];
    const r = await receivers.start((q) => answer(Number(q.path.slice(1))));
    const ids = new Map<number, string>();
    for (const status of [...ok, ...notOk]) ids.set(status, (await register(h, { url: r.url(`/${status}`) })).id);
    for (const [, id] of ids) await ping(h, id);
    await settle(h);
    for (const [status, id] of ids) {
      const [d] = (await deliveries(h, id)).data;
      if (ok.includes(status)) expect(d, String(status)).toMatchObject({ status: 'succeeded', last_status_code: status, last_error: null, delivered_at: FROZEN_START });
      else expect(d, String(status)).toMatchObject({ status: 'failed', last_status_code: status, last_error: expect.stringMatching(new RegExp(`${status}`)), delivered_at: null });
    }
  });
});

// --- failures ------------------------------------------------------------------------------------

describe('failures', () => {
  it('does not follow a redirect: the attempt fails with the 3xx status', async () => {
    const h = harness();
    const r = await receivers.start((q) => (q.path === '/elsewhere' ? answer(200) : { kind: 'redirect', status: Number(q.path.slice(1)) as 301, location: r.url('/elsewhere') }));
    for (const status of [301, 302, 303, 307, 308]) {
      const w = await register(h, { url: r.url(`/${status}`) });
      await ping(h, w.id);
      await settle(h);
      const [d] = (await deliveries(h, w.id)).data;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, last_status_code: status, next_attempt_at: iso(START_MS + MINUTE) });
      expect(d!.last_error).toBe(`redirect (${status} to ${r.url('/elsewhere')}) not followed`);
    }
    expect(r.to('/elsewhere')).toEqual([]);
    expect(r.requests).toHaveLength(5);
  });

  it('gives up on a receiver that hangs after the configured timeout, and stays fast', async () => {
    const h = harness({ webhooks: { timeoutMs: 300 } });
    const r = await receivers.start((q) => (q.path === '/slow-but-ok' ? { kind: 'delay', ms: 50, then: answer(200) } : hang));
    const hanging = await register(h, { url: r.url('/hang') });
    const slow = await register(h, { url: r.url('/slow-but-ok') });
    // Ten deliveries to the hanging receiver at once cost one timeout, not ten (3 s).
    const pings = [];
    for (let i = 0; i < 10; i++) pings.push(await ping(h, hanging.id));
    await ping(h, slow.id);
    const started = performance.now();
    await settle(h);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
    expect(r.to('/hang')).toHaveLength(10);
    for (const p of pings) {
      expect(await delivery(h, hanging.id, p.delivery_id)).toMatchObject({
        status: 'failed', attempts: 1, last_status_code: null, last_error: 'timed out after 300 ms', next_attempt_at: iso(START_MS + MINUTE),
      });
    }
    expect((await deliveries(h, slow.id)).data[0]).toMatchObject({ status: 'succeeded', last_status_code: 200 });
  });

  it('records a reset connection as a failure', async () => {
    const h = harness();
    const r = await receivers.start(destroy);
    const w = await register(h, { url: r.url() });
    await ping(h, w.id);
    await settle(h);
    expect(r.requests).toHaveLength(1);
    expect((await deliveries(h, w.id)).data[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, last_error: 'connection reset' });
  });

  it('records a refused connection (nothing listening on the port) as a failure', async () => {
    const h = harness();
    const w = await register(h, { url: await receivers.closedPortUrl() });
    await ping(h, w.id);
    await settle(h);
    expect((await deliveries(h, w.id)).data[0]).toMatchObject({
      status: 'failed', attempts: 1, last_status_code: null, last_error: 'connection refused', next_attempt_at: iso(START_MS + MINUTE),
    });
  });

  it('reads only a small part of a huge error body, and does not read a huge 2xx body at all', async () => {
    const h = harness();
    const size = 32 * 1024 * 1024;
    const r = await receivers.start((q) => ({ kind: 'huge', status: q.path === '/ok' ? 200 : 500, bytes: size }));
    const failing = await register(h, { url: r.url('/error') });
    const fine = await register(h, { url: r.url('/ok') });
    await ping(h, failing.id);
    await ping(h, fine.id);
    const started = performance.now();
    await settle(h);
    expect(performance.now() - started).toBeLessThan(2_000);
    const [bad] = (await deliveries(h, failing.id)).data;
    expect(bad).toMatchObject({ status: 'failed', last_status_code: 500 });
    expect(bad!.last_error).toMatch(/^HTTP 500: x{100,}/);
    expect(bad!.last_error!.length).toBeLessThanOrEqual(320);
    expect((await deliveries(h, fine.id)).data[0]).toMatchObject({ status: 'succeeded', last_status_code: 200, last_error: null });
  });
});

// --- auto-disable ----------------------------------------------------------------------------------

describe('auto-disable', () => {
  it('disables the address after 10 dead deliveries in a row; it receives nothing until re-enabled', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url() });
    for (let i = 0; i < 10; i++) await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    expect(r.requests).toHaveLength(80);
    const log = await deliveries(h, w.id, '?limit=100');
    expect(log.data.map((d) => [d.status, d.attempts])).toEqual(Array(10).fill(['dead', 8]));
    expect((await webhook(h, w.id)).status).toBe('disabled');

    // Disabled: no delivery for new events, no test ping, no manual retry.
    r.program(answer(200));
    const id = await createOnboarding(h);
    await advance(h, id);
    await settle(h);
    await advanceClock(h, DAY);
    expect(r.requests).toHaveLength(80);
    expect((await deliveries(h, w.id, '?limit=100')).data).toHaveLength(10);
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/test`, {}), 409, 'conflict', 'webhook_disabled');
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/deliveries/${log.data[0]!.id}/retry`, {}), 409, 'conflict', 'webhook_disabled');

    // Re-enabled through the control API (the dashboard): new events arrive again.
    const enabled = await h.http().post(`/_emulator/webhooks/${w.id}/enable`);
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body).toEqual({ id: w.id, status: 'enabled' });
    expect((await webhook(h, w.id)).status).toBe('enabled');
    await advance(h, id); // employee_submitted: employee_submitted, submitted, approval_required
    await settle(h);
    expect(r.requests.slice(80).map((q) => message(q).type).sort()).toEqual(['onboarding.approval_required', 'onboarding.employee_submitted', 'onboarding.submitted']);
    expect((await deliveries(h, w.id, '?status=succeeded')).data).toHaveLength(3);
    // The events missed while disabled are still readable with GET /v1/events.
    const listed = (await h.as(KEYS.owner).get('/v1/events?limit=100')).body.data as Message[];
    expect(listed.filter((e) => e.data.onboarding_id === id).map((e) => e.type)).toContain('onboarding.started');
  });

  it('counts only dead deliveries in a row: a success in between starts the count again', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url() });
    for (let i = 0; i < 9; i++) await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    expect((await webhook(h, w.id)).status).toBe('enabled');

    r.program(answer(200));
    await ping(h, w.id);
    await settle(h);
    r.program(answer(500));
    for (let i = 0; i < 9; i++) await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    expect((await deliveries(h, w.id, '?status=dead&limit=100')).data).toHaveLength(18);
    expect((await webhook(h, w.id)).status).toBe('enabled');

    await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    expect((await webhook(h, w.id)).status).toBe('disabled');
  });

  it('ends a delivery still waiting for its retry dead, with the reason, when the address is disabled', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url() });
    for (let i = 0; i < 10; i++) await ping(h, w.id);
    await settle(h);
    await advanceClock(h, HOUR);
    const late = await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    expect((await webhook(h, w.id)).status).toBe('disabled');
    const d = await delivery(h, w.id, late.delivery_id);
    expect(d.status).toBe('dead');
    expect(d.attempts).toBeLessThan(8);
    expect(d.last_error).toMatch(/disabled after 10 dead deliveries in a row/);
    expect(d.next_attempt_at).toBeNull();
  });
});

// --- manual retry ------------------------------------------------------------------------------------

describe('POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry', () => {
  it('resends a dead delivery with the same event id and byte-identical body, and answers the delivery after the attempt', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url(), events: ['onboarding.created'] });
    await createOnboarding(h);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    const [dead] = (await deliveries(h, w.id)).data;
    expect(dead).toMatchObject({ status: 'dead', attempts: 8 });
    const original = r.requests[0]!;

    r.program(answer(202));
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/deliveries/${dead!.id}/retry`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = iso(START_MS + 2 * DAY);
    expect(res.body).toEqual({
      ...dead, status: 'succeeded', attempts: 9, last_status_code: 202, last_error: null, delivered_at: after, next_attempt_at: null,
    });
    // The answer came after the attempt: the receiver already has it.
    expect(r.requests).toHaveLength(9);
    const resent = r.requests[8]!;
    expect(resent.body.equals(original.body)).toBe(true);
    expect(resent.headers['service-event-id']).toBe(dead!.event_id);
    expect(resent.headers['service-event-type']).toBe('onboarding.created');
    expectSignedBy(resent, [w.secret]);
    expect(await delivery(h, w.id, dead!.id)).toEqual(res.body);

    // Whatever the status: a succeeded delivery can be resent too.
    const again = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/deliveries/${dead!.id}/retry`, {});
    expect(again.body).toMatchObject({ status: 'succeeded', attempts: 10 });
    expect(r.requests[9]!.body.equals(original.body)).toBe(true);
  });

  it('leaves a dead delivery dead when the manual retry fails, with no new schedule', async () => {
    const h = harness();
    const r = await receivers.start(answer(500, 'first'));
    const w = await register(h, { url: r.url() });
    const p = await ping(h, w.id);
    await settle(h);
    await advanceClock(h, 2 * DAY);
    r.program(answer(502, 'still broken'));
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/deliveries/${p.delivery_id}/retry`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'dead', attempts: 9, last_status_code: 502, last_error: 'HTTP 502: still broken', next_attempt_at: null });
    await advanceClock(h, 2 * DAY);
    expect(r.requests).toHaveLength(9);
  });

  it('a successful manual retry of a failed delivery cancels its scheduled retry', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url() });
    const p = await ping(h, w.id);
    await settle(h);
    r.program(answer(200));
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/deliveries/${p.delivery_id}/retry`, {});
    expect(res.body).toMatchObject({ status: 'succeeded', attempts: 2, next_attempt_at: null });
    await advanceClock(h, 2 * DAY);
    expect(r.requests).toHaveLength(2);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('answers 404 for an unknown delivery or one of another address', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const a = await register(h, { url: r.url('/a') });
    const b = await register(h, { url: r.url('/b') });
    const p = await ping(h, a.id);
    await settle(h);
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${a.id}/deliveries/whd_nope/retry`, {}), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${b.id}/deliveries/${p.delivery_id}/retry`, {}), 404, 'not_found', 'resource_not_found');
    expect(r.requests).toHaveLength(1);
  });
});

// --- test ping ---------------------------------------------------------------------------------------

describe('POST /v1/webhooks/{id}/test', () => {
  it('sends a ping to that address alone, whatever its filter; data holds only message; ping is no event of GET /v1/events', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const target = await register(h, { url: r.url('/target'), events: ['onboarding.created'] });
    await register(h, { url: r.url('/other') });
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${target.id}/test`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      object: 'webhook_test', webhook_id: target.id, event_id: expect.stringMatching(/^evt_/), delivery_id: expect.stringMatching(/^whd_/), status: 'pending',
    });
    await settle(h);

    expect(r.to('/other')).toEqual([]);
    expect(r.to('/target')).toHaveLength(1);
    const req = r.to('/target')[0]!;
    expect(req.headers['service-event-type']).toBe('ping');
    expect(req.headers['service-event-id']).toBe(res.body.event_id);
    expectSignedBy(req, [target.secret]);
    const body = message(req);
    expect(body).toMatchObject({ id: res.body.event_id, type: 'ping', organization_id: 'org_acme', api_version: '2026-10-01', created_at: FROZEN_START });
    expect(Object.keys(body.data)).toEqual(['message']);
    expect(typeof body.data.message).toBe('string');
    expect(await delivery(h, target.id, res.body.delivery_id)).toMatchObject({ event_type: 'ping', status: 'succeeded', event_id: res.body.event_id });

    const events = await h.as(KEYS.owner).get('/v1/events?limit=100');
    expect(events.status).toBe(200);
    expect((events.body.data as Message[]).some((e) => e.type === 'ping' || e.id === res.body.event_id)).toBe(false);
    expectError(await h.as(KEYS.owner).get('/v1/events?type=ping'), 422, 'invalid_request', 'parameter_invalid');
  });
});

// --- secret rotation ---------------------------------------------------------------------------------

describe('POST /v1/webhooks/{id}/rotate-secret', () => {
  it('signs with the new secret at once; the old one co-signs second until overlap_hours pass on the workspace clock', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/rotate-secret`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = res.body.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(w.secret);
    expect(res.body).toMatchObject({ id: w.id, object: 'webhook_endpoint', previous_secret_expires_at: iso(START_MS + 24 * HOUR) });
    expect(await webhook(h, w.id)).not.toHaveProperty('secret');

    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[0]!, [fresh, w.secret]);

    await advanceClock(h, 24 * HOUR - 1_000);
    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[1]!, [fresh, w.secret]);

    await advanceClock(h, 1_000);
    expect((await webhook(h, w.id)).previous_secret_expires_at).toBeNull();
    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[2]!, [fresh]);
  });

  it('with overlap_hours 0 signs with the new secret alone at once', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/rotate-secret`, { overlap_hours: 0 });
    expect(res.status).toBe(200);
    expect(res.body.previous_secret_expires_at).toBeNull();
    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[0]!, [res.body.secret]);
  });

  it('honours a custom overlap and signs retries of older deliveries with the new secret', async () => {
    const h = harness();
    const r = await receivers.start(answer(500));
    const w = await register(h, { url: r.url() });
    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[0]!, [w.secret]);
    const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/rotate-secret`, { overlap_hours: 168 });
    expect(res.body.previous_secret_expires_at).toBe(iso(START_MS + 168 * HOUR));
    await advanceClock(h, MINUTE);
    expectSignedBy(r.requests[1]!, [res.body.secret, w.secret]);
    // A second rotation: the secret it replaces co-signs, the first one is gone.
    const second = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/rotate-secret`, { overlap_hours: 1 });
    await advanceClock(h, 5 * MINUTE);
    expectSignedBy(r.requests[2]!, [second.body.secret, res.body.secret]);
  });

  it('refuses overlap_hours outside 0..168 with 422 and keeps the secret', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    for (const overlap_hours of [169, -1, 1.5, '24', null]) {
      const res = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/rotate-secret`, { overlap_hours });
      expectError(res, 422, 'invalid_request', 'parameter_invalid', 'overlap_hours');
    }
    await ping(h, w.id);
    await settle(h);
    expectSignedBy(r.requests[0]!, [w.secret]);
    expect((await webhook(h, w.id)).previous_secret_expires_at).toBeNull();
  });
});

// --- delivery log --------------------------------------------------------------------------------------

describe('GET /v1/webhooks/{id}/deliveries', () => {
  it('lists newest first, filters by status, pages, and forgets deliveries after 30 days', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await ping(h, w.id)).delivery_id);
    await settle(h);
    r.program(answer(500));
    for (let i = 0; i < 2; i++) ids.push((await ping(h, w.id)).delivery_id);
    await settle(h);

    const all = await deliveries(h, w.id);
    expect(all).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(all.data.map((d) => d.id)).toEqual([...ids].reverse());
    expect((await deliveries(h, w.id, '?status=failed')).data.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect((await deliveries(h, w.id, '?status=succeeded')).data.map((d) => d.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await deliveries(h, w.id, '?status=dead')).data).toEqual([]);

    const page1 = await deliveries(h, w.id, '?limit=2');
    expect(page1.data.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect(page1.has_more).toBe(true);
    const page2 = await deliveries(h, w.id, `?limit=2&starting_after=${page1.next_cursor}`);
    expect(page2.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const page3 = await deliveries(h, w.id, `?limit=2&starting_after=${page2.next_cursor}`);
    expect(page3).toMatchObject({ has_more: false, next_cursor: null });
    expect(page3.data.map((d) => d.id)).toEqual([ids[0]]);
    // Status filter and paging together.
    const filtered = await deliveries(h, w.id, '?status=succeeded&limit=2');
    expect(filtered.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect((await deliveries(h, w.id, `?status=succeeded&limit=2&starting_after=${filtered.next_cursor}`)).data.map((d) => d.id)).toEqual([ids[0]]);

    for (const bad of ['?status=unknown', '?limit=0', '?limit=101']) {
      expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${w.id}/deliveries${bad}`), 422, 'invalid_request', 'parameter_invalid');
    }

    // Kept 30 days on the workspace clock, then gone (the two failed ones went dead meanwhile).
    await advanceClock(h, 30 * DAY - 1);
    const late = await deliveries(h, w.id);
    expect(late.data.map((d) => [d.id, d.status])).toEqual([
      [ids[4], 'dead'], [ids[3], 'dead'], [ids[2], 'succeeded'], [ids[1], 'succeeded'], [ids[0], 'succeeded'],
    ]);
    await advanceClock(h, 1);
    expect((await deliveries(h, w.id)).data).toEqual([]);
    expect((await webhook(h, w.id)).recent_deliveries).toEqual([]);
  });
});

// --- partners ------------------------------------------------------------------------------------------

describe('partner routing', () => {
  const partnerAdvance = (h: H, id: string) => h.asPartnerFor(KEYS.hrsoft, 'org_acme').post(`/v1/sandbox/onboardings/${id}/advance`);

  it('sends events of partner-made onboardings to the partner\'s own addresses, naming the employer; the employer\'s address gets everything', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const partner = await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    const employer = await register(h, { url: r.url('/employer') }, KEYS.owner);

    // onb_demo_partner was made by the partner's key: one step with the partner key, one with the employer's.
    expect((await partnerAdvance(h, 'onb_demo_partner')).status).toBe(200);
    await advance(h, 'onb_demo_partner', KEYS.owner);
    // An onboarding of the employer itself, and one the partner creates now.
    const own = await createOnboarding(h, KEYS.owner);
    const made = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post('/v1/onboardings', createBody({ reference: 'hrsoft-2' }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await settle(h);

    const toPartner = r.to('/partner').map(message);
    expect(toPartner.map((m) => [m.data.onboarding_id, m.type])).toEqual(expect.arrayContaining([
      ['onb_demo_partner', 'onboarding.started'],
      ['onb_demo_partner', 'onboarding.employee_submitted'],
      ['onb_demo_partner', 'onboarding.submitted'],
      ['onb_demo_partner', 'onboarding.approval_required'],
      [made.body.id, 'onboarding.created'],
    ]));
    expect(toPartner).toHaveLength(5);
    for (const m of toPartner) expect(m.organization_id).toBe('org_acme');
    for (const q of r.to('/partner')) expectSignedBy(q, [partner.secret]);

    const toEmployer = r.to('/employer').map(message);
    expect(toEmployer).toHaveLength(6);
    expect(new Set(toEmployer.map((m) => m.data.onboarding_id))).toEqual(new Set(['onb_demo_partner', own, made.body.id]));
    for (const q of r.to('/employer')) expectSignedBy(q, [employer.secret]);
    // The same events, the same ids, in both.
    expect(toEmployer.filter((m) => m.data.onboarding_id !== own).map((m) => m.id).sort()).toEqual(toPartner.map((m) => m.id).sort());
  });

  it('stops new messages to the partner at once when the employer ends the relationship', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    await register(h, { url: r.url('/employer') }, KEYS.owner);
    expect((await partnerAdvance(h, 'onb_demo_partner')).status).toBe(200);
    await settle(h);
    expect(types(r, '/partner')).toEqual(['onboarding.started']);

    const ended = await h.http().patch('/_emulator/organizations/org_hrsoft').send({ admissions: [{ organization_id: 'org_acme', active: false }] });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.admissions).toContainEqual(expect.objectContaining({ organization_id: 'org_acme', active: false }));

    await advance(h, 'onb_demo_partner', KEYS.owner);
    await settle(h);
    expect(types(r, '/partner')).toEqual(['onboarding.started']);
    expect(types(r, '/employer')).toEqual(['onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
  });

  it('sends nothing to the partner while the employer grants it no onboardings:read', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    const narrowed = await h.http().patch('/_emulator/organizations/org_hrsoft').send({
      admissions: [{ organization_id: 'org_acme', scopes: ['organization:read', 'onboardings:write'] }],
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    await advance(h, 'onb_demo_partner', KEYS.owner);
    await settle(h);
    expect(r.to('/partner')).toEqual([]);
  });
});

// --- strict URL policy -----------------------------------------------------------------------------

/** A resolver that never touches DNS: a fixed table, changeable during the test. */
function fakeResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolver: Resolver = async (host) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return { resolver, calls, table };
}

/** A transport that never connects: records each request and answers as told. */
function recordingTransport(reply: (req: TransportRequest) => TransportResult = () => ({ ok: true, status: 200, error: null, durationMs: 1 })) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    send: async (req) => {
      sent.push(req);
      return reply(req);
    },
  };
  return { transport, sent };
}

describe('strict URL policy (fake resolver and transport)', () => {
  function strict(table: Record<string, string[]>, reply?: (req: TransportRequest) => TransportResult) {
    const dns = fakeResolver(table);
    const wire = recordingTransport(reply);
    const h = harness({ webhooks: { urlPolicy: 'strict', resolver: dns.resolver, transport: wire.transport, signatureClock: 'emulated' } });
    return { h, dns, wire };
  }

  it('refuses http and credentials at registration', async () => {
    const { h, dns } = strict({});
    const before = h.storeJson();
    for (const url of ['http://hooks.acme.test/x', 'http://127.0.0.1:8080/x', 'https://user:pw@hooks.acme.test/x']) {
      expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url }), 422, 'invalid_request', 'parameter_invalid', 'url');
    }
    expect(h.storeJson()).toBe(before);
    expect(dns.calls).toEqual([]);
  });

  it('refuses internal resolutions right before sending: the attempt fails naming the policy and the transport is never called', async () => {
    const { h, dns, wire } = strict({ 'private.example.test': ['10.0.0.5'], 'loop.example.test': ['127.0.0.1'], 'mixed.example.test': ['93.184.216.34', '192.168.1.9'] });
    const cases: [string, string][] = [
      ['https://private.example.test/hook', 'private.example.test resolves to 10.0.0.5, an internal address.'],
      ['https://loop.example.test/hook', 'loop.example.test resolves to 127.0.0.1, an internal address.'],
      ['https://mixed.example.test/hook', 'mixed.example.test resolves to 192.168.1.9, an internal address.'],
      ['https://localhost:8443/hook', 'localhost is a loopback name.'],
      ['https://unknown.example.test/hook', 'unknown.example.test could not be resolved (ENOTFOUND).'],
    ];
    for (const [url, reason] of cases) {
      const w = await register(h, { url });
      const p = await ping(h, w.id);
      await settle(h);
      expect(await delivery(h, w.id, p.delivery_id), url).toMatchObject({
        status: 'failed', attempts: 1, last_status_code: null, last_error: `refused by the strict URL policy: ${reason}`,
        next_attempt_at: iso(START_MS + MINUTE),
      });
    }
    expect(wire.sent).toEqual([]);
    expect(dns.calls).toEqual(['private.example.test', 'loop.example.test', 'mixed.example.test', 'unknown.example.test']);
  });

  it('refuses an internal literal before sending even when it reached the store another way (a snapshot taken under local)', async () => {
    const local = harness({ webhooks: { transport: recordingTransport().transport } });
    const registered = await register(local, { url: 'https://169.254.169.254/latest' });
    const snapshot = await local.http().get('/_emulator/snapshot');
    expect(snapshot.status, snapshot.text).toBe(200);

    const { h, dns, wire } = strict({});
    expect((await h.http().put('/_emulator/snapshot').send(snapshot.body as object)).status).toBe(200);
    const p = await ping(h, registered.id);
    await settle(h);
    expect(await delivery(h, registered.id, p.delivery_id)).toMatchObject({
      status: 'failed', attempts: 1, last_status_code: null, last_error: 'refused by the strict URL policy: 169.254.169.254 is an internal address.',
    });
    expect(wire.sent).toEqual([]);
    expect(dns.calls).toEqual([]);
  });

  it('delivers to a public resolution through the transport, and resolves again before every attempt', async () => {
    let status = 500;
    const { h, dns, wire } = strict({ 'hooks.acme.test': ['93.184.216.34'] }, () => ({ ok: status < 300, status, error: status < 300 ? null : `HTTP ${status}`, durationMs: 1 }));
    const w = await register(h, { url: 'https://hooks.acme.test/onboarding' });
    expect(w).toMatchObject({ url: 'https://hooks.acme.test/onboarding' });
    const p = await ping(h, w.id);
    await settle(h);

    expect(wire.sent).toHaveLength(1);
    const sent = wire.sent[0]!;
    expect(sent.url).toBe('https://hooks.acme.test/onboarding');
    expect(sent.headers).toMatchObject({
      'Content-Type': 'application/json', 'User-Agent': 'Service-Webhooks/1', 'Service-Event-Id': p.event_id, 'Service-Event-Type': 'ping',
    });
    const t = START_S;
    expect(sent.headers['Service-Signature']).toBe(`t=${t},v1=${hmacHex(w.secret, String(t), Buffer.from(sent.body, 'utf8'))}`);
    expect(JSON.parse(sent.body)).toMatchObject({ id: p.event_id, type: 'ping' });
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'failed', last_status_code: 500, last_error: 'HTTP 500' });

    // The name now points inside (DNS rebinding): the retry is refused before sending.
    dns.table['hooks.acme.test'] = ['10.0.0.5'];
    await advanceClock(h, MINUTE);
    expect(wire.sent).toHaveLength(1);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({
      status: 'failed', attempts: 2, last_error: 'refused by the strict URL policy: hooks.acme.test resolves to 10.0.0.5, an internal address.',
    });

    // Public again: the next retry is sent and succeeds.
    dns.table['hooks.acme.test'] = ['93.184.216.35'];
    status = 204;
    await advanceClock(h, 5 * MINUTE);
    expect(wire.sent).toHaveLength(2);
    expect(wire.sent[1]!.body).toBe(sent.body);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null });
    expect(dns.calls).toEqual(['hooks.acme.test', 'hooks.acme.test', 'hooks.acme.test']);
  });
});
