import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import type { Transport } from '../../src/delivery/transport.js';
import { createBody, harness, KEYS } from '../support/harness.js';

/**
 * What tracing adds to a workspace's state (docs/tracing.md): a delivery's `trace` and each
 * attempt's `trace_id`, both optional in the snapshot's schema, so snapshots written before them
 * (or with tracing off) load as they did, and ones written with them round-trip.
 */
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const accepted: Transport = { send: () => Promise.resolve({ ok: true, status: 204, error: null, durationMs: 0 }) };

async function withDelivery() {
  const h = harness({ seed: 7, webhooks: { transport: accepted } });
  expect((await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['onboarding.created'] })).status).toBe(201);
  expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'snap-trace')).status).toBe(201);
  const ws = h.emulator.defaultWorkspace;
  await ws.scheduler.settle();
  return { h, ws };
}

type Doc = { store: { deliveries: { trace?: unknown; attempt_log?: { trace_id?: unknown }[] }[] } };

describe('snapshots and trace context', () => {
  it('a snapshot without trace fields (tracing off, or an older file) loads; one with them keeps them', async () => {
    const { h, ws } = await withDelivery();
    const plain = JSON.parse(JSON.stringify(h.emulator.snapshot(ws))) as Doc;
    expect(plain.store.deliveries).toHaveLength(1);
    expect(plain.store.deliveries[0]).not.toHaveProperty('trace');
    expect(plain.store.deliveries[0]!.attempt_log![0]).not.toHaveProperty('trace_id');
    h.emulator.restore(ws, plain);

    const traced = structuredClone(plain);
    traced.store.deliveries[0]!.trace = { traceparent: TRACEPARENT, tracestate: 'vendor=1' };
    traced.store.deliveries[0]!.attempt_log![0]!.trace_id = TRACE_ID;
    h.emulator.restore(ws, traced);
    const again = JSON.parse(JSON.stringify(h.emulator.snapshot(ws))) as Doc;
    expect(again.store.deliveries[0]).toMatchObject({ trace: { traceparent: TRACEPARENT, tracestate: 'vendor=1' }, attempt_log: [{ trace_id: TRACE_ID }] });

    // The inspector shows the trace the delivery belongs to.
    const listed = await h.http().get(`/_emulator/webhooks/${ws.store.deliveries.values()[0]!.endpoint_id}/deliveries`);
    expect(listed.body.data[0]).toMatchObject({ trace_id: TRACE_ID, attempt_log: [{ trace_id: TRACE_ID }] });
  });

  it('refuses a trace that is no W3C traceparent, naming the field', async () => {
    const { h, ws } = await withDelivery();
    const bad = JSON.parse(JSON.stringify(h.emulator.snapshot(ws))) as Doc;
    bad.store.deliveries[0]!.trace = { traceparent: 'not-a-traceparent' };
    let refusal: unknown;
    try {
      h.emulator.restore(ws, bad);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('snapshot_invalid');
    expect(JSON.stringify((refusal as ApiError).details)).toContain('store.deliveries[0].trace.traceparent');
  });
});
