import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/delivery/signature.js';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';
import { answer, useReceivers, type ReceivedRequest } from '../support/receiver.js';
import {
  advanceClock, deliveries, expectSignedBy, hmacHex, iso, message, MINUTE, ping, register, settle, signatureOf, START_MS, START_S,
} from '../support/webhooks.js';

/**
 * Delivery faults (/_emulator/delivery-faults) with real receivers on 127.0.0.1: each kind as
 * the receiver sees it, its marks on /_emulator deliveries (never on /v1), matching by address,
 * count and window, and snapshots.
 */
const receivers = useReceivers();

const emulated = () => harness({ webhooks: { signatureClock: 'emulated' } });

async function addFault(h: Harness, body: object) {
  const res = await h.http().post('/_emulator/delivery-faults').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; remaining: number | null; applied: number };
}

async function inspected(h: Harness, webhookId: string) {
  const res = await h.http().get(`/_emulator/webhooks/${webhookId}/deliveries`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: InspectDelivery[] }).data;
}

interface InspectDelivery {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  injected?: Record<string, unknown>;
  attempt_log: { status_code: number | null; error: string | null; injected?: Record<string, unknown> }[];
}

const eventIds = (requests: ReceivedRequest[]) => requests.map((q) => message(q).id);

describe('creating, listing and removing delivery faults', () => {
  it('checks each kind for the fields it takes, in the spec error envelope, and writes nothing on a refusal', async () => {
    const h = harness();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    const post = (body: object) => h.http().post('/_emulator/delivery-faults').send(body);
    expectError(await post({ kind: 'delay' }), 422, 'invalid_request', 'parameter_missing', 'delay_ms');
    expectError(await post({ kind: 'drop_ack', delay_ms: 10 }), 422, 'invalid_request', 'parameter_invalid', 'delay_ms');
    expectError(await post({ kind: 'duplicate', endpoint_id: w.id, url: r.url() }), 422, 'invalid_request', 'parameter_invalid', 'url');
    expectError(await post({ kind: 'duplicate', endpoint_id: 'wh_nope' }), 404, 'not_found', 'resource_not_found', 'endpoint_id');
    expectError(await post({ kind: 'duplicate', until: iso(START_MS - 1000) }), 422, 'invalid_request', 'parameter_invalid', 'until');
    expectError(await post({ kind: 'duplicate', from: iso(START_MS + 2 * MINUTE), until: iso(START_MS + MINUTE) }), 422, 'invalid_request', 'parameter_invalid', 'until');
    expect((await post({ kind: 'shuffle' })).status).toBe(422);
    expect((await post({ kind: 'duplicate', count: 0 })).status).toBe(422);
    expect((await post({ kind: 'duplicate', url: 'ftp://x' })).status).toBe(422);
    expect((await h.http().get('/_emulator/delivery-faults')).body).toEqual({ data: [] });
  });

  it('lists faults in the order they match, with their defaults, and removes one or all', async () => {
    const h = harness();
    const a = await addFault(h, { kind: 'duplicate' });
    const b = await addFault(h, { kind: 'reorder', url: 'http://127.0.0.1:9/*', count: 3 });
    const c = await addFault(h, { kind: 'corrupt_signature', until: iso(START_MS + MINUTE) });
    const list = (await h.http().get('/_emulator/delivery-faults')).body.data;
    expect(list).toMatchObject([
      { id: a.id, object: 'delivery_fault', kind: 'duplicate', endpoint_id: null, url: null, count: 1, remaining: 1, delay_ms: 60_000, applied: 0, source: 'api', from: null, until: null },
      { id: b.id, kind: 'reorder', url: 'http://127.0.0.1:9/*', count: 3, remaining: 3, delay_ms: 300_000 },
      { id: c.id, kind: 'corrupt_signature', count: null, remaining: null, delay_ms: null, until: iso(START_MS + MINUTE) },
    ]);
    expect((await h.http().delete(`/_emulator/delivery-faults/${a.id}`)).body).toEqual({ id: a.id, deleted: true });
    expectError(await h.http().delete(`/_emulator/delivery-faults/${a.id}`), 404, 'not_found', 'resource_not_found', 'id');
    expect((await h.http().delete('/_emulator/delivery-faults')).body).toEqual({ deleted: 2 });
    expect((await h.http().get('/_emulator/delivery-faults')).body).toEqual({ data: [] });
  });
});

describe('each kind, as the receiver sees it', () => {
  it('duplicate: the same message, same id and bytes, arrives again delay_ms later; both deliveries are marked in /_emulator only', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'duplicate', delay_ms: 30_000 });
    const p = await ping(h, w.id);
    await settle(h);
    expect(r.requests).toHaveLength(1);
    await advanceClock(h, 29_999);
    expect(r.requests).toHaveLength(1);
    await advanceClock(h, 1);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    expect(r.requests[1]!.headers['service-event-id']).toBe(p.event_id);
    expect(expectSignedBy(r.requests[1]!, [w.secret])).toBe(START_S + 30);

    const v1 = (await deliveries(h, w.id)).data;
    expect(v1.map((d) => [d.event_id, d.status])).toEqual([[p.event_id, 'succeeded'], [p.event_id, 'succeeded']]);
    for (const d of v1) expect(d).not.toHaveProperty('injected');
    const [copy, original] = await inspected(h, w.id);
    expect(original).toMatchObject({ id: p.delivery_id, injected: { kind: 'duplicate', duplicate_id: copy!.id, delay_ms: 30_000 } });
    expect(copy).toMatchObject({ injected: { kind: 'duplicate', duplicate_of: p.delivery_id } });
    expect(copy!.attempt_log[0]!.injected).toMatchObject({ kind: 'duplicate' });
    expect(original!.attempt_log[0]).not.toHaveProperty('injected');
  });

  it('reorder: a held message goes out right after the next one to the same address', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'reorder' });
    const older = await ping(h, w.id);
    await settle(h);
    expect(r.requests).toHaveLength(0);
    const newer = await ping(h, w.id);
    await settle(h);
    expect(eventIds(r.requests)).toEqual([newer.event_id, older.event_id]);
    const held = (await inspected(h, w.id)).find((d) => d.id === older.delivery_id)!;
    expect(held).toMatchObject({ status: 'succeeded', injected: { kind: 'reorder', released_by: newer.delivery_id } });
    expect(held.attempt_log[0]!.injected).toMatchObject({ kind: 'reorder' });
  });

  it('reorder: with no next message, the held one goes out when its hold (delay_ms) ends', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'reorder', delay_ms: 10 * MINUTE });
    const p = await ping(h, w.id);
    await advanceClock(h, 10 * MINUTE - 1);
    expect(r.requests).toHaveLength(0);
    await advanceClock(h, 1);
    expect(eventIds(r.requests)).toEqual([p.event_id]);
    expect(expectSignedBy(r.requests[0]!, [w.secret])).toBe(START_S + 600);
  });

  it('delay: the first attempt is due delay_ms late, as /v1 shows in next_attempt_at', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'delay', delay_ms: 2 * MINUTE });
    const p = await ping(h, w.id);
    expect((await deliveries(h, w.id)).data[0]).toMatchObject({ id: p.delivery_id, status: 'pending', next_attempt_at: iso(START_MS + 2 * MINUTE) });
    await advanceClock(h, 2 * MINUTE - 1);
    expect(r.requests).toHaveLength(0);
    await advanceClock(h, 1);
    expect(r.requests).toHaveLength(1);
    expect((await inspected(h, w.id))[0]).toMatchObject({ status: 'succeeded', injected: { kind: 'delay', delay_ms: 120_000 } });
  });

  it('drop_ack: the receiver answered 200 but the attempt is recorded as a timeout and the message comes again a minute later', async () => {
    const h = emulated();
    const r = await receivers.start(answer(200));
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'drop_ack' });
    const p = await ping(h, w.id);
    await settle(h);
    expect(r.requests).toHaveLength(1);
    const [after] = (await deliveries(h, w.id)).data;
    expect(after).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, next_attempt_at: iso(START_MS + MINUTE) });
    expect(after!.last_error).toMatch(/^timed out after \d+ ms$/);
    expect(after).not.toHaveProperty('injected');
    const [marked] = await inspected(h, w.id);
    expect(marked!.attempt_log[0]).toMatchObject({ status_code: null, injected: { kind: 'drop_ack', received_status_code: 200 } });
    await advanceClock(h, MINUTE);
    expect(eventIds(r.requests)).toEqual([p.event_id, p.event_id]);
    expect((await deliveries(h, w.id)).data[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
  });

  it('corrupt_signature: a verifying receiver refuses the first attempt and accepts the clean retry', async () => {
    const h = emulated();
    let secret = '';
    // The receiver checks as the spec asks, on the emulated clock the signatures use.
    const r = await receivers.start((q) => {
      const ok = verifySignature(q.body, String(q.headers['service-signature']), secret, { now: Math.floor(h.emulator.defaultWorkspace.clock.nowMs() / 1000) });
      return answer(ok ? 200 : 400, ok ? 'ok' : 'bad signature');
    });
    const w = await register(h, { url: r.url() });
    secret = w.secret;
    await addFault(h, { kind: 'corrupt_signature', endpoint_id: w.id });
    await ping(h, w.id);
    await settle(h);
    const bad = signatureOf(r.requests[0]!);
    expect(bad.v1).toHaveLength(1);
    expect(bad.v1[0]).not.toBe(hmacHex(w.secret, bad.t, r.requests[0]!.body));
    expect((await deliveries(h, w.id)).data[0]).toMatchObject({ status: 'failed', last_status_code: 400 });
    await advanceClock(h, MINUTE);
    expectSignedBy(r.requests[1]!, [w.secret]);
    const [d] = await inspected(h, w.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(d!.attempt_log.map((a) => a.injected?.kind ?? null)).toEqual(['corrupt_signature', null]);
  });

  it('stale_timestamp: the first attempt is validly signed 600 s in the past, so a receiver with the 5-minute tolerance refuses it', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'stale_timestamp' });
    await ping(h, w.id);
    await settle(h);
    expect(expectSignedBy(r.requests[0]!, [w.secret])).toBe(START_S - 600);
    expect(verifySignature(r.requests[0]!.body, String(r.requests[0]!.headers['service-signature']), w.secret, { now: START_S })).toBe(false);
  });
});

describe('which messages a fault takes', () => {
  it('per address, by id or URL pattern; other addresses get clean messages; a count is used up', async () => {
    const h = emulated();
    const one = await receivers.start();
    const two = await receivers.start();
    const w1 = await register(h, { url: one.url() });
    const w2 = await register(h, { url: two.url() });
    await addFault(h, { kind: 'delay', delay_ms: MINUTE, endpoint_id: w1.id, count: 2 });
    await addFault(h, { kind: 'stale_timestamp', url: `${two.base}/*` });
    for (let i = 0; i < 3; i++) {
      await ping(h, w1.id);
      await ping(h, w2.id);
    }
    await settle(h);
    expect(one.requests).toHaveLength(1);
    expect(two.requests.map((q) => Number(signatureOf(q).t))).toEqual([START_S - 600, START_S, START_S]);
    await advanceClock(h, MINUTE);
    expect(one.requests).toHaveLength(3);
    expect((await h.http().get('/_emulator/delivery-faults')).body).toEqual({ data: [] });
  });

  it('a window: every message between from and until, none after; the fault is gone once its window ended', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'stale_timestamp', from: iso(START_MS + MINUTE), until: iso(START_MS + 3 * MINUTE) });
    const times: number[] = [];
    for (const at of [0, 1, 2, 3, 4]) {
      if (at) await advanceClock(h, MINUTE);
      await ping(h, w.id);
      await settle(h);
      times.push(Number(signatureOf(r.requests.at(-1)!).t) - (START_S + at * 60));
    }
    expect(times).toEqual([0, -600, -600, -600, 0]);
    expect((await h.http().get('/_emulator/delivery-faults')).body).toEqual({ data: [] });
  });

  it('a message takes at most one fault: the first that matches, in the order added', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    const first = await addFault(h, { kind: 'stale_timestamp' });
    await addFault(h, { kind: 'corrupt_signature' });
    await ping(h, w.id);
    await settle(h);
    expect(expectSignedBy(r.requests[0]!, [w.secret])).toBe(START_S - 600);
    expect((await h.http().get('/_emulator/delivery-faults')).body.data.map((f: { kind: string }) => f.kind)).toEqual(['corrupt_signature']);
    expect((await inspected(h, w.id))[0]!.injected).toMatchObject({ fault_id: first.id, kind: 'stale_timestamp' });
  });
});

describe('snapshots', () => {
  it('keep the faults still to play and the marks on deliveries; a restore plays on where it was', async () => {
    const h = emulated();
    const r = await receivers.start();
    const w = await register(h, { url: r.url() });
    await addFault(h, { kind: 'reorder' });
    await addFault(h, { kind: 'duplicate', count: 2 });
    const held = await ping(h, w.id);
    await settle(h);
    const snap = (await h.http().get('/_emulator/snapshot')).body;
    expect(snap.delivery_faults.map((f: { kind: string }) => f.kind)).toEqual(['duplicate']);

    const again = emulated();
    const r2 = await receivers.start();
    const restored = structuredClone(snap);
    // The restored workspace delivers to the second receiver.
    restored.store.webhooks[0].url = r2.url();
    expect((await again.http().put('/_emulator/snapshot').send(restored)).status).toBe(200);
    expect((await again.http().get('/_emulator/delivery-faults')).body.data).toEqual((await h.http().get('/_emulator/delivery-faults')).body.data);
    const newer = await ping(again, w.id);
    await settle(again);
    expect(eventIds(r2.requests)).toEqual([newer.event_id, held.event_id]);
    expect((await inspected(again, w.id)).find((d) => d.id === held.delivery_id)).toMatchObject({ injected: { kind: 'reorder', released_by: newer.delivery_id } });
  });

  it('refuse a delivery fault of an unknown kind in a snapshot, with its path', async () => {
    const h = harness();
    await addFault(h, { kind: 'duplicate' });
    const snap = (await h.http().get('/_emulator/snapshot')).body;
    snap.delivery_faults[0].kind = 'shuffle';
    const res = await h.http().put('/_emulator/snapshot').send(snap);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('delivery_faults');
  });
});

it('a /v1 key cannot reach the control API for delivery faults (it is not a /v1 route)', async () => {
  const h = harness();
  const res = await h.as(KEYS.owner).post('/v1/delivery-faults', { kind: 'duplicate' });
  expect(res.status).toBe(404);
});
