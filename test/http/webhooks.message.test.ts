import { describe, expect, it } from 'vitest';
import { FROZEN_START, harness, KEYS } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';
import { advanceTimes, createOnboarding } from '../support/sandbox-steps.js';
import { DAY, START_MS, START_S, iso, type Message, hmacHex, signatureOf, expectSignedBy, message, register, settle, advanceClock, ping, deliveries, types } from '../support/webhooks.js';

/**
 * Webhook deliveries with real HTTP receivers on 127.0.0.1: the message and its signature, checked
 * here by an independent HMAC; delivery on a realtime clock; event filters and older event names.
 */
const receivers = useReceivers();

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
