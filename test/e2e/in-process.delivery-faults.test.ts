import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, type ControlClient, type InProcessEmulator } from '../../src/index.js';
import { answer, useReceivers } from '../support/receiver.js';

/** Delivery faults through both transports of the control interface: the same calls, the same answers, the same messages sent. */
const OWNER = 'hrs_test_acme_owner';
const START_S = Date.parse('2026-10-05T09:00:00.000Z') / 1000;
const started: InProcessEmulator[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function setUp() {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' }, webhooks: { signatureClock: 'emulated' } });
  started.push(em);
  const { url } = await em.start(0);
  const r = await receivers.start(answer(200));
  const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
  const hook = (await (await fetch(`${url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: r.url() }) })).json()) as { id: string };
  const ping = async () => expect((await fetch(`${url}/v1/webhooks/${hook.id}/test`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
  return { em, url, r, hook, ping };
}

async function exercise(control: ControlClient, { r, hook, ping }: Awaited<ReturnType<typeof setUp>>) {
  const stale = await control.deliveryFaults.add({ kind: 'stale_timestamp', endpoint_id: hook.id });
  const dup = await control.deliveryFaults.add({ kind: 'duplicate', delay_ms: 1000 });
  expect(stale).toMatchObject({ object: 'delivery_fault', kind: 'stale_timestamp', endpoint_id: hook.id, count: 1, remaining: 1, source: 'api' });
  expect((await control.deliveryFaults.list()).map((f) => f.id)).toEqual([stale.id, dup.id]);
  await ping();
  await ping();
  await control.clock.advance('1s');
  const signedAt = r.requests.map((q) => Number(/^t=(\d+)/.exec(String(q.headers['service-signature']))![1]) - START_S);
  // The two first messages go out at one instant, in either order; the copy a second later.
  expect(signedAt.slice(0, 2).sort((a, b) => a - b)).toEqual([-600, 0]);
  expect(signedAt[2]).toBe(1);
  const copy = r.requests[2]!;
  const original = r.requests.slice(0, 2).find((q) => q.headers['service-event-id'] === copy.headers['service-event-id'])!;
  expect(original.body.equals(copy.body)).toBe(true);
  expect(Number(/^t=(\d+)/.exec(String(original.headers['service-signature']))![1])).toBe(START_S);
  expect(await control.deliveryFaults.list()).toEqual([]);

  const later = await control.deliveryFaults.add({ kind: 'delay', delay_ms: 60_000, until: '2026-10-06T00:00:00.000Z' });
  expect(later).toMatchObject({ count: null, remaining: null, until: '2026-10-06T00:00:00.000Z' });
  await expect(control.deliveryFaults.add({ kind: 'delay' })).rejects.toMatchObject({ status: 422, code: 'parameter_missing' });
  await expect(control.deliveryFaults.add({ kind: 'nope' as 'delay' })).rejects.toMatchObject({ status: 422 });
  await expect(control.deliveryFaults.add({ kind: 'drop_ack', endpoint_id: 'wh_missing' })).rejects.toMatchObject({ status: 404, code: 'resource_not_found' });
  expect(await control.deliveryFaults.remove(later.id)).toEqual({ id: later.id, deleted: true });
  await expect(control.deliveryFaults.remove(later.id)).rejects.toMatchObject({ status: 404 });
  await control.deliveryFaults.add({ kind: 'reorder' });
  expect(await control.deliveryFaults.clear()).toEqual({ deleted: 1 });
}

describe('delivery faults through the control interface', () => {
  it('in process', async () => {
    const ctx = await setUp();
    await exercise(ctx.em, ctx);
    await expect(ctx.em.deliveryFaults.add({ kind: 'delay' })).rejects.toBeInstanceOf(ApiError);
  });

  it('over HTTP (the CLI client)', async () => {
    const ctx = await setUp();
    await exercise(httpControl({ url: ctx.url }), ctx);
  });
});
