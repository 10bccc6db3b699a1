import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startRelay, verifySignature, type RelayedDelivery, type RelayHandle } from '../../src/index.js';
import { answer, useReceivers } from '../support/receiver.js';
import { createBody } from '../support/harness.js';
import { until } from '../support/wait.js';
import { IMAGE, LABEL, docker, inspect, logs, must, removeContainers, start, waitForStatus } from './docker.js';
import { median, record } from './numbers.js';

/**
 * Webhooks from the container to a receiver on the host's 127.0.0.1, with no network flags: the
 * emulator on the default bridge, the relay in this process (or the image itself run as
 * `listen` on the host's network). Its frozen clock signs with
 * emulated time, so a signature is checked against the workspace clock.
 */
const OWNER = 'hrs_test_acme_owner';
const HEADERS = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
const START = '2026-10-05T09:00:00.000Z';
const START_S = Date.parse(START) / 1000;
const receivers = useReceivers();
const relays: RelayHandle[] = [];

afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});
afterAll(removeContainers);

async function emulatorInContainer() {
  const c = await start({ args: ['--scenario', 'happy-path', '--seed', '7', '--clock', 'frozen', '--start-time', START, '--signature-clock', 'emulated'] });
  await waitForStatus(`${c.base}/_emulator/health`);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${c.base}${path}`, { method, headers: HEADERS, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };
  return { base: c.base, call };
}

async function allEventIds(call: (m: string, p: string) => Promise<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await call('GET', `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`);
    const data = page.data as { id: string }[];
    ids.push(...data.map((e) => e.id));
    if (!page.has_more || data.length === 0) return ids;
    after = data.at(-1)!.id;
  }
}

describe('the relay between a container and the host', () => {
  it('brings every message of a 50-event scenario to the host once, each with a valid signature', async () => {
    const { base, call } = await emulatorInContainer();
    const r = await receivers.start(answer(200));
    const seen: RelayedDelivery[] = [];
    relays.push(await startRelay({ url: base, key: OWNER, forwardTo: r.url('/hooks'), onDelivery: (d) => seen.push(d) }));
    const earlier = new Set(await allEventIds(call));
    // The container cannot reach this address; only the relay delivers to it.
    const hook = await call('POST', '/v1/webhooks', { url: 'http://host.invalid/hooks' }) as { id: string; secret: string };
    for (let i = 0; i < 5; i++) await call('POST', '/v1/onboardings', createBody({ reference: `relay-${i}`, employee: { first_name: 'Ada', last_name: `Relay ${i}`, email: `relay${i}@example.test` } }));
    await call('POST', '/_emulator/clock/advance', { by: '2d' });
    const events = (await allEventIds(call)).filter((id) => !earlier.has(id));
    expect(events.length).toBeGreaterThanOrEqual(50);
    await until(() => r.requests.length >= events.length, `${events.length} messages at the receiver`, 30_000);
    const received = r.requests.map((q) => String(q.headers['service-event-id']));
    expect(new Set(received).size).toBe(received.length);
    expect([...received].sort()).toEqual([...events].sort());
    const now = Date.parse(String((await call('GET', '/_emulator/clock')).now)) / 1000;
    for (const q of r.requests) {
      expect(verifySignature(q.body, String(q.headers['service-signature']), hook.secret, { now, toleranceSeconds: now - START_S + 60 })).toBe(true);
    }
    await until(() => seen.length >= events.length, 'every report', 10_000);
    expect(seen.every((d) => d.status_code === 200 && d.recorded)).toBe(true);
    const deliveries = (await call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=100`)).data as { status: string }[];
    expect(deliveries.length).toBeGreaterThanOrEqual(50);
    expect(deliveries.every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('gives a receiver that answers 500 the retry instants of a direct delivery', async () => {
    const { base, call } = await emulatorInContainer();
    const r = await receivers.start(answer(500, 'down'));
    relays.push(await startRelay({ url: base, key: OWNER, forwardTo: r.url('/hooks') }));
    const hook = await call('POST', '/v1/webhooks', { url: 'http://host.invalid/hooks', events: ['onboarding.created'] }) as { id: string };
    await call('POST', `/v1/webhooks/${hook.id}/test`, {});
    for (const by of ['1m', '5m', '30m', '2h', '6h']) await call('POST', '/_emulator/clock/advance', { by });
    const instants = r.requests.map((q) => Number(/^t=(\d+)/.exec(String(q.headers['service-signature']))![1]) - START_S);
    // The spec's schedule after each failed attempt: 1, 5, 30, 120, 360 minutes.
    expect(instants).toEqual([0, 60, 360, 2160, 9360, 30960]);
    const [d] = (await call('GET', `/v1/webhooks/${hook.id}/deliveries`)).data as { status: string; attempts: number; last_status_code: number; last_error: string }[];
    expect(d).toMatchObject({ status: 'failed', attempts: 6, last_status_code: 500, last_error: 'HTTP 500: down' });
  });

  it('adds little to a delivery: p95 of the relay overhead over 50 deliveries recorded (target 50 ms)', async () => {
    const { base, call } = await emulatorInContainer();
    const r = await receivers.start(answer(200));
    const reported = new Map<string, number>();
    relays.push(await startRelay({ url: base, key: OWNER, forwardTo: r.url('/hooks'), onDelivery: (d) => reported.set(d.event_id!, Date.now()) }));
    const hook = await call('POST', '/v1/webhooks', { url: 'http://host.invalid/hooks', events: ['onboarding.created'] }) as { id: string };
    const overheads: number[] = [];
    for (let i = 0; i < 50; i++) {
      const before = r.requests.length;
      const sent = Date.now();
      const ping = await call('POST', `/v1/webhooks/${hook.id}/test`, {}) as { event_id: string };
      const [req] = (await r.waitFor(before + 1, 10_000)).slice(before);
      await until(() => reported.has(ping.event_id), 'the report', 10_000);
      // From the ping to the report: the API call, the long poll's answer to this process and
      // the report back (the receiver answers at once), an upper bound of what the relay adds.
      overheads.push(reported.get(ping.event_id)! - sent);
      expect(req!.headers['service-event-id']).toBe(ping.event_id);
    }
    const sorted = [...overheads].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
    record({ name: 'relay overhead per delivery, p95 of 50 (from the ping request to the report)', value: p95, unit: 'ms', target: 'at most 50 ms' });
    record({ name: 'relay overhead per delivery, median of 50', value: median(overheads), unit: 'ms' });
    expect(p95).toBeLessThanOrEqual(50);
  });

  it('runs as the image itself: `listen --forward-to` on the host network makes a session address, its printed secret verifies, and `docker stop` removes it', async () => {
    const { base, call } = await emulatorInContainer();
    const r = await receivers.start(answer(200));
    const relay = await must(['run', '-d', '--label', LABEL, '--network', 'host', IMAGE, 'listen', '--url', base, '--forward-to', r.url('/webhooks')]);
    const ready = /Ready! Your webhook signing secret is (whsec_\S+) \(session address (wh_\S+);/;
    let out = '';
    await until(async () => ready.test((out = await logs(relay))), 'the ready line in the relay container', 20_000).catch(() => {
      throw new Error(`no ready line from the relay container: ${out}`);
    });
    const [, secret, id] = ready.exec(out)!;
    const listed = async () => ((await call('GET', '/v1/webhooks?limit=100')).data as { id: string }[]).map((w) => w.id);
    expect(await listed()).toEqual([id]);
    await call('POST', `/v1/webhooks/${id}/test`, {});
    const [got] = await r.waitFor(1, 10_000);
    expect(got!.path).toBe('/webhooks');
    // The frozen clock signs with emulated time: the signature is checked at it.
    expect(verifySignature(got!.body, String(got!.headers['service-signature']), secret!, { now: START_S })).toBe(true);
    const stopped = await docker(['stop', relay], 30_000);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(await inspect(relay, '{{.State.ExitCode}}')).toBe('0');
    expect(await listed()).toEqual([]);
  });
});

