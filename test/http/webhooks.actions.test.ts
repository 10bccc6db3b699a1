import { describe, expect, it } from 'vitest';
import { FROZEN_START, harness, KEYS, expectError } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';
import { createOnboarding } from '../support/sandbox-steps.js';
import { MINUTE, HOUR, DAY, START_MS, iso, type Message, expectSignedBy, message, register, settle, advanceClock, ping, deliveries, delivery, webhook } from '../support/webhooks.js';

/**
 * What a client does to webhook deliveries, with real HTTP receivers on 127.0.0.1: manual retry,
 * test ping, secret rotation, and the delivery log.
 */
const receivers = useReceivers();

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
