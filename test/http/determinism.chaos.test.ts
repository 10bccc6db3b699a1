import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/delivery/signature.js';
import { harness, type Harness } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';
import { createOnboarding, readOnboarding } from '../support/sandbox-steps.js';
import { register, START_MS } from '../support/webhooks.js';

/**
 * The ready scenario flaky-webhooks (every delivery fault kind, declared in the file) played in
 * full twice with the same seed on the frozen clock: what the receiver was sent, and what the
 * emulator recorded of every delivery and attempt, must be the same bytes. Attempts due at one
 * instant go out concurrently, so the receiver's requests are compared per instant (sorted
 * within it); everything else is compared as it is.
 */
const receivers = useReceivers();

interface Seen {
  /** Milliseconds since the start, on the workspace clock, when the request arrived. */
  at: number;
  eventId: string;
  type: string;
  signature: string;
  body: string;
  answered: number;
}

async function play(seed: string) {
  const h: Harness = harness({ seed, webhooks: { signatureClock: 'emulated' } });
  const ws = h.emulator.defaultWorkspace;
  const seen: Seen[] = [];
  let secret = '';
  const r = await receivers.start((q) => {
    const now = ws.clock.nowMs();
    const signature = String(q.headers['service-signature']);
    // A correct receiver: refuses what does not verify within the 5-minute tolerance.
    const status = verifySignature(q.body, signature, secret, { now: Math.floor(now / 1000) }) ? 200 : 400;
    seen.push({ at: now - START_MS, eventId: String(q.headers['service-event-id']), type: String(q.headers['service-event-type']), signature, body: q.body.toString('utf8'), answered: status });
    return answer(status);
  });
  const w = await register(h, { url: r.url() });
  secret = w.secret;
  const loaded = await h.http().put('/_emulator/scenario').set('Content-Type', 'application/yaml').send(readFileSync(new URL('../../scenarios/flaky-webhooks.yaml', import.meta.url), 'utf8'));
  expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
  const faults = (await h.http().get('/_emulator/delivery-faults')).body.data as { id: string; kind: string; source: string }[];
  expect(faults.map((f) => [f.id, f.kind, f.source])).toEqual([
    ['dft_scenario_1', 'duplicate', 'scenario'], ['dft_scenario_2', 'reorder', 'scenario'], ['dft_scenario_3', 'drop_ack', 'scenario'],
    ['dft_scenario_4', 'corrupt_signature', 'scenario'], ['dft_scenario_5', 'stale_timestamp', 'scenario'], ['dft_scenario_6', 'delay', 'scenario'],
  ]);
  const id = await createOnboarding(h);
  const advanced = await h.http().post('/_emulator/clock/advance').send({ by: '2d' });
  expect(advanced.status).toBe(200);
  const onboarding = await readOnboarding(h, id);
  const deliveries = await h.http().get(`/_emulator/webhooks/${w.id}/deliveries?limit=100`);
  expect(deliveries.status).toBe(200);
  const perInstant = [...seen].sort((a, b) => a.at - b.at || a.eventId.localeCompare(b.eventId) || a.signature.localeCompare(b.signature));
  return { status: onboarding.status, seen, perInstant, deliveries: deliveries.body.data as Delivery[], receiverUrl: r.url() };
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  injected?: { kind: string; released_by?: string | null; duplicate_of?: string };
  attempt_log: { at: string; status_code: number | null; injected?: { kind: string; received_status_code?: number | null } }[];
}

describe('delivery chaos is deterministic', () => {
  it('flaky-webhooks played twice with one seed sends the same messages at the same instants and records the same deliveries, byte for byte', async () => {
    const a = await play('chaos-determinism');
    const b = await play('chaos-determinism');
    expect(a.status).toBe('completed');
    expect(JSON.stringify(b.perInstant)).toBe(JSON.stringify(a.perInstant));
    // Each attempt names the URL it was sent to: each play's own receiver, on a port of its own.
    const recorded = (p: typeof a) => JSON.stringify(p.deliveries).replaceAll(p.receiverUrl, 'RECEIVER');
    expect(recorded(a)).toContain('RECEIVER');
    expect(recorded(b)).toBe(recorded(a));

    // Not vacuous: every kind was played, as the file says.
    const kinds = new Set(a.deliveries.map((d) => d.injected?.kind).filter(Boolean));
    expect([...kinds].sort()).toEqual(['corrupt_signature', 'delay', 'drop_ack', 'duplicate', 'reorder', 'stale_timestamp']);
    // Two copies; each the bytes of its original, under the same event id.
    const copies = a.deliveries.filter((d) => d.injected?.duplicate_of);
    expect(copies).toHaveLength(2);
    const bodies = (eventId: string) => new Set(a.seen.filter((s) => s.eventId === eventId).map((s) => s.body));
    for (const c of copies) expect(bodies(c.event_id).size).toBe(1);
    // The held message arrived after the one that released it.
    const held = a.deliveries.find((d) => d.injected?.kind === 'reorder')!;
    const releaser = a.deliveries.find((d) => d.id === held.injected!.released_by)!;
    const firstArrival = (eventId: string) => a.seen.findIndex((s) => s.eventId === eventId);
    expect(firstArrival(releaser.event_id)).toBeLessThan(firstArrival(held.event_id));
    // Refused signatures (corrupt, stale) were retried clean; lost acknowledgements were retried.
    for (const kind of ['corrupt_signature', 'stale_timestamp', 'drop_ack']) {
      for (const d of a.deliveries.filter((x) => x.injected?.kind === kind)) {
        expect(d.status, kind).toBe('succeeded');
        expect(d.attempt_log.map((t) => t.injected?.kind ?? null), kind).toEqual([kind, null]);
      }
    }
    expect(a.seen.filter((s) => s.answered === 400)).toHaveLength(2);
    // Messages queued in the window arrived 10 minutes after their events.
    const late = a.deliveries.filter((d) => d.injected?.kind === 'delay');
    expect(late.length).toBeGreaterThan(0);
    for (const d of late) expect(Date.parse(d.attempt_log[0]!.at) - Date.parse(JSON.parse(a.seen.find((s) => s.eventId === d.event_id)!.body).created_at)).toBe(600_000);
  });
});
