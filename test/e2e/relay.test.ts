import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, startRelay, verifySignature, type InProcessEmulator, type RelayedDelivery, type RelayHandle } from '../../src/index.js';
import { answer, hang, useReceivers, type Receiver } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * The webhook relay over real HTTP: an emulator on 127.0.0.1, receivers on 127.0.0.1, and
 * startRelay() between them. Addresses under http://relayed.invalid/ cannot be reached by the
 * emulator itself, so every message that arrives came through the relay.
 */
const OWNER = 'hrs_test_acme_owner';
const HEADERS = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
const START_S = Date.parse('2026-10-05T09:00:00.000Z') / 1000;
const RELAYED = 'http://relayed.invalid/';
const started: InProcessEmulator[] = [];
const relays: RelayHandle[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
  for (const em of started.splice(0)) await em.close();
});

async function emulator(timeoutMs = 2_000) {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' }, webhooks: { signatureClock: 'emulated', timeoutMs } });
  started.push(em);
  const { url } = await em.start(0);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const address = async (addressUrl: string) => {
    const res = await call('POST', '/v1/webhooks', { url: addressUrl });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const ping = async (id: string) => expect((await call('POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
  const deliveries = async (id: string) => (await call('GET', `/v1/webhooks/${id}/deliveries?limit=100`)).body.data as { status: string; attempts: number; last_status_code: number | null; last_error: string | null }[];
  return { em, url, call, address, ping, deliveries };
}

async function relay(url: string, options: Partial<Parameters<typeof startRelay>[0]> = {}, seen: RelayedDelivery[] = []) {
  const handle = await startRelay({ url, key: OWNER, urlPrefix: RELAYED, onDelivery: (d) => seen.push(d), ...options });
  relays.push(handle);
  return handle;
}

const signedAt = (r: Receiver, path: string) => r.to(path).map((q) => Number(/^t=(\d+)/.exec(String(q.headers['service-signature']))![1]) - START_S);

describe('startRelay', () => {
  it('posts each message to the receiver byte for byte with its signature headers, and the delivery succeeds', async () => {
    const { url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(204));
    const seen: RelayedDelivery[] = [];
    await relay(url, { forwardTo: r.url('/hooks') }, seen);
    const hook = await address(`${RELAYED}hooks`);
    await ping(hook.id);
    const [req] = await r.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['service-event-type']).toBe('ping');
    expect(verifySignature(req!.body.toString('utf8'), String(req!.headers['service-signature']), hook.secret, { now: START_S })).toBe(true);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
    expect((await deliveries(hook.id))[0]).toMatchObject({ attempts: 1, last_status_code: 204, last_error: null });
    await until(() => seen.length === 1, 'the relay to report');
    expect(seen[0]).toMatchObject({ status_code: 204, error: null, recorded: true, event_type: 'ping', url: r.url('/hooks') });
  });

  it('gives a failing receiver the same retry instants as a direct delivery', async () => {
    const { em, url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(500, 'down'));
    // One address through the relay, one straight to the receiver: the relay takes only the first.
    await relay(url, { forwardTo: r.url('/relayed') });
    const relayed = await address(`${RELAYED}hooks`);
    const direct = await address(r.url('/direct'));
    await ping(relayed.id);
    await ping(direct.id);
    for (const step of ['1m', '5m', '30m', '2h']) await em.clock.advance(step);
    expect(signedAt(r, '/relayed')).toEqual([0, 60, 360, 2160, 9360]);
    expect(signedAt(r, '/relayed')).toEqual(signedAt(r, '/direct'));
    const [a, b] = [(await deliveries(relayed.id))[0]!, (await deliveries(direct.id))[0]!];
    expect(a).toMatchObject({ status: 'failed', attempts: 5, last_status_code: 500, last_error: 'HTTP 500: down' });
    expect({ ...a, id: undefined, endpoint_id: undefined, event_id: undefined, created_at: undefined }).toEqual({ ...b, id: undefined, endpoint_id: undefined, event_id: undefined, created_at: undefined });
  });

  it('plays delivery faults as it would directly: a duplicate comes twice, a corrupt signature does not verify', async () => {
    const { em, url, address, ping } = await emulator();
    const r = await receivers.start(answer(200));
    await relay(url, { forwardTo: r.url('/hooks') });
    const hook = await address(`${RELAYED}hooks`);
    await em.deliveryFaults.add({ kind: 'duplicate', delay_ms: 1000 });
    await em.deliveryFaults.add({ kind: 'corrupt_signature' });
    await ping(hook.id);
    await ping(hook.id);
    await em.clock.advance('1s');
    await r.waitFor(3);
    const byEvent = new Map<string, string[]>();
    for (const q of r.requests) byEvent.set(String(q.headers['service-event-id']), [...(byEvent.get(String(q.headers['service-event-id'])) ?? []), String(q.headers['service-signature'])]);
    const counts = [...byEvent.values()].map((v) => v.length).sort();
    expect(counts).toEqual([1, 2]);
    const verified = r.requests.map((q) => verifySignature(q.body.toString('utf8'), String(q.headers['service-signature']), hook.secret, { now: START_S + 1 }));
    expect(verified.filter((v) => !v)).toHaveLength(1);
  });

  it("sends each message to its address's own URL when there is no forward-to", async () => {
    const { url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(200));
    await relay(url, { urlPrefix: r.base });
    const hook = await address(r.url('/own'));
    await ping(hook.id);
    await r.waitFor(1);
    expect(r.to('/own')).toHaveLength(1);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
  });

  it('records a receiver that does not answer as the timeout a direct attempt records', async () => {
    const { url, address, ping, deliveries } = await emulator(300);
    const r = await receivers.start(hang);
    await relay(url, { forwardTo: r.url('/slow') });
    const hook = await address(`${RELAYED}slow`);
    await ping(hook.id);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'failed', 'the attempt to fail', 5_000);
    expect((await deliveries(hook.id))[0]).toMatchObject({ last_status_code: null, last_error: 'timed out after 300 ms' });
  });

  it('once closed, takes nothing: the relay list is empty and attempts go out directly', async () => {
    const { url, call, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(200));
    const handle = await relay(url, { urlPrefix: r.base, forwardTo: r.url('/relayed') });
    expect((await call('GET', '/_emulator/relays')).body.data).toMatchObject([{ id: handle.relay.id, workspace: 'default', url_prefix: r.base, forward_to: r.url('/relayed') }]);
    await handle.close();
    expect(await handle.done).toEqual({ reason: 'closed' });
    expect((await call('GET', '/_emulator/relays')).body.data).toEqual([]);
    const hook = await address(r.url('/direct'));
    await ping(hook.id);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the direct delivery');
    expect(r.to('/relayed')).toHaveLength(0);
    expect(r.to('/direct')).toHaveLength(1);
  });

  it('ends as lost when the emulator goes away', async () => {
    const { em, url } = await emulator();
    const handle = await relay(url, { waitMs: 200 });
    await em.close();
    const end = await handle.done;
    expect(end.reason).toBe('lost');
  });

  it('refuses to start against an emulator that is not there', async () => {
    await expect(startRelay({ url: 'http://127.0.0.1:9' })).rejects.toThrow(/cannot reach the emulator/);
  });
});

describe('the relay routes', () => {
  it('validate what they are sent, and say which relay is unknown', async () => {
    const { call } = await emulator();
    expect((await call('POST', '/_emulator/relays', { url_prefix: 7 })).status).toBe(422);
    expect((await call('POST', '/_emulator/relays', { nope: true })).status).toBe(422);
    const open = await call('POST', '/_emulator/relays', {});
    expect(open.status).toBe(201);
    const id = open.body.id as string;
    expect((await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: -1 })).status).toBe(422);
    expect((await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 0 })).body).toEqual({ data: [], stopping: false });
    const unknownMessage = await call('POST', `/_emulator/relays/${id}/results`, { message_id: 'rmsg_999', status_code: 200, error: null, duration_ms: 1 });
    expect(unknownMessage.status).toBe(404);
    expect((unknownMessage.body.error as { code: string }).code).toBe('resource_not_found');
    expect((await call('POST', `/_emulator/relays/${id}/results`, { message_id: 'rmsg_1', status_code: 99, error: null, duration_ms: 1 })).status).toBe(422);
    expect((await call('DELETE', `/_emulator/relays/${id}`)).status).toBe(200);
    expect((await call('POST', `/_emulator/relays/${id}/claim`, {})).status).toBe(404);
    expect((await call('DELETE', '/_emulator/relays/rly_nope')).status).toBe(404);
  });

  it('belong to one workspace: another workspace neither sees nor claims them', async () => {
    const { call } = await emulator();
    const other = await call('POST', '/_emulator/workspaces', {});
    const otherId = other.body.id as string;
    const open = await call('POST', '/_emulator/relays', {});
    expect((await call('GET', `/_emulator/workspaces/${otherId}/relays`)).body.data).toEqual([]);
    expect((await call('POST', `/_emulator/workspaces/${otherId}/relays/${open.body.id as string}/claim`, { wait_ms: 0 })).status).toBe(404);
  });

  it('answer a waiting long poll as soon as a message comes', async () => {
    const { url, call, address, ping } = await emulator();
    const open = await call('POST', '/_emulator/relays', { url_prefix: RELAYED });
    const id = open.body.id as string;
    const began = performance.now();
    const poll = call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 20_000 });
    const hook = await address(`${RELAYED}x`);
    await ping(hook.id);
    const claimed = await poll;
    expect(performance.now() - began).toBeLessThan(10_000);
    const [m] = claimed.body.data as { id: string; url: string; headers: Record<string, string>; body: string; timeout_ms: number }[];
    expect(m).toMatchObject({ url: `${RELAYED}x`, timeout_ms: 2_000 });
    expect(verifySignature(m!.body, m!.headers['Service-Signature']!, hook.secret, { now: START_S })).toBe(true);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect((await call('POST', `/_emulator/relays/${id}/results`, { message_id: m!.id, status_code: 200, error: null, duration_ms: 3 })).body).toEqual({ message_id: m!.id, recorded: true });
  });
});
