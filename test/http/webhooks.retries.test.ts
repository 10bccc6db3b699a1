import { describe, expect, it } from 'vitest';
import { FROZEN_START, harness, KEYS, expectError } from '../support/harness.js';
import { answer, destroy, hang, useReceivers } from '../support/receiver.js';
import { advance, createOnboarding } from '../support/sandbox-steps.js';
import { MINUTE, HOUR, DAY, START_MS, START_S, RETRY_MINUTES, iso, type Message, expectSignedBy, message, register, settle, advanceClock, ping, deliveries, delivery, webhook } from '../support/webhooks.js';

/**
 * Webhook deliveries with real HTTP receivers on 127.0.0.1: the retry schedule to dead on the
 * workspace clock, what counts as received, failures of every kind, and auto-disable.
 */
const receivers = useReceivers();

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
