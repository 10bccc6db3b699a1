import { describe, expect, it } from 'vitest';
import type { Transport, TransportRequest, TransportResult } from '../../src/delivery/transport.js';
import { createBody, harness, KEYS } from '../support/harness.js';
import { until, within } from '../support/wait.js';

/** A transport whose answers the test releases one by one; it never touches the network. */
function heldTransport() {
  const waiting: { request: TransportRequest; answer: (r: TransportResult) => void }[] = [];
  const transport: Transport = {
    send: (request) => new Promise((answer) => waiting.push({ request, answer })),
  };
  const fail = (): TransportResult => ({ ok: false, status: 500, error: 'HTTP 500: down', durationMs: 1 });
  const ok = (): TransportResult => ({ ok: true, status: 200, error: null, durationMs: 1 });
  return { transport, waiting, fail, ok };
}

describe('a manual retry running when the scheduled attempt falls due', () => {
  it('defers the scheduled attempt instead of running two at once', async () => {
    const held = heldTransport();
    const h = harness({ webhooks: { transport: held.transport } });
    const ws = h.emulator.defaultWorkspace;
    const wh = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://receiver.test/in', events: ['onboarding.created'] });
    await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    const first = ws.scheduler.advanceBy(0);
    await until(() => held.waiting.length === 1, 'the first attempt to reach the receiver');
    held.waiting.shift()!.answer(held.fail()); // first attempt fails: retry due in 1 minute
    await first;
    const [delivery] = ws.store.deliveries.values();
    expect(delivery!.status).toBe('failed');

    const manual = h.as(KEYS.owner).post(`/v1/webhooks/${wh.body.id}/deliveries/${delivery!.id}/retry`).then((r) => r);
    await until(() => held.waiting.length === 1, 'the manual attempt to reach the receiver');
    // The scheduled retry falls due meanwhile. The advance finishes once that attempt has run; had
    // it gone to the receiver too, it would hang there unanswered, so the deadline catches that.
    const fired = await within(ws.scheduler.advanceBy(60_000), 2_000, 'the advance to finish while the manual attempt is held');
    expect(fired.some((f) => f.deferred === true)).toBe(true);
    expect(held.waiting).toHaveLength(1); // not a second attempt at once
    held.waiting.shift()!.answer(held.ok());
    expect((await manual).body).toMatchObject({ status: 'succeeded', attempts: 2 });
    await ws.scheduler.advanceBy(5_000);
    expect(held.waiting).toHaveLength(0); // the deferred attempt found the delivery succeeded
    expect(ws.store.deliveries.get(delivery!.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
