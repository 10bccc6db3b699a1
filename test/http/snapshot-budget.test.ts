import { describe, expect, it } from 'vitest';
import { SNAPSHOT_BODY_LIMIT } from '../../src/control/control.routes.js';
import { BODY_CONTAINER_LIMIT } from '../../src/core/documents.js';
import { SNAPSHOT_MISTAKES_LISTED, type WorkspaceSnapshot } from '../../src/persistence/snapshot.js';
import { expectError, harness, type Harness } from '../support/harness.js';

/**
 * What a large or hostile snapshot costs over HTTP: the body's size and its count of objects and
 * arrays are refused before parsing, and a document wrong throughout is answered with its first
 * mistakes instead of millions of them (which once held gigabytes and ended the process).
 */

async function take(h: Harness): Promise<WorkspaceSnapshot> {
  const res = await h.http().get('/_emulator/snapshot');
  expect(res.status).toBe(200);
  return res.body as WorkspaceSnapshot;
}

const putText = (h: Harness, text: string) => h.http().put('/_emulator/snapshot').set('Content-Type', 'application/json').send(text);

/** The snapshot's text with `filler` (JSON text of an array's items) as its onboardings. */
function withOnboardings(snapshot: WorkspaceSnapshot, filler: string): string {
  const text = JSON.stringify({ ...snapshot, store: { ...snapshot.store, onboardings: [] } });
  return text.replace('"onboardings":[]', `"onboardings":[${filler}]`);
}

describe('snapshot budgets over HTTP', () => {
  it('refuses more objects and arrays than it parses cheaply, before parsing, and changes nothing', async () => {
    const h = harness();
    const before = h.storeJson();
    const text = withOnboardings(await take(h), Array(BODY_CONTAINER_LIMIT + 1).fill('{}').join(','));
    expect(text.length).toBeLessThan(SNAPSHOT_BODY_LIMIT);
    const res = await putText(h, text);
    expectError(res, 413, 'invalid_request', 'body_too_large');
    expect(res.body.error.message).toBe('The body holds more than 1,000,000 objects and arrays.');
    expect(h.storeJson()).toBe(before);
  });

  it('does not count brackets inside strings', async () => {
    const h = harness();
    const snapshot = await take(h);
    snapshot.store.onboardings[0]!.reference = '[{'.repeat(1_000_000) as never;
    const res = await putText(h, JSON.stringify(snapshot));
    expect(res.status, res.text).toBe(200);
    expect((await take(h)).store.onboardings[0]!.reference).toHaveLength(2_000_000);
  });

  it('refuses a body over 32 MB with 413', async () => {
    const h = harness();
    const snapshot = await take(h);
    const text = JSON.stringify({ ...snapshot, padding: 'x'.repeat(SNAPSHOT_BODY_LIMIT) });
    const res = await putText(h, text);
    expectError(res, 413, 'invalid_request', 'body_too_large');
    expect(res.body.error.message).toBe('The body is larger than 32 MB.');
  });

  it('lists the first 100 mistakes of a large document wrong throughout', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await putText(h, withOnboardings(await take(h), Array(200_000).fill('{"x":1}').join(',')));
    const err = expectError(res, 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toHaveLength(SNAPSHOT_MISTAKES_LISTED);
    expect(err.message).toBe('The snapshot has at least 100 mistakes; the first 100 are in details. Nothing was changed.');
    const paths = err.details!.map((d) => d.path);
    expect(paths).toContain('store.onboardings[0].id');
    expect(paths.every((p) => p.startsWith('store.onboardings['))).toBe(true);
    expect(h.storeJson()).toBe(before);
  });

  it('counts every mistake the checks after the shape find, and lists the first 100', async () => {
    const h = harness();
    const snapshot = await take(h);
    const timer = snapshot.timers.timers[0]!;
    snapshot.timers.timers = Array.from({ length: 500 }, (_, i) => ({ ...timer, seq: i + 1, kind: 'coffee.break' }));
    snapshot.timers.next_seq = 501;
    const err = expectError(await putText(h, JSON.stringify(snapshot)), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.message).toBe('The snapshot has 500 mistake(s); the first 100 are in details. Nothing was changed.');
    expect(err.details).toHaveLength(100);
  });

  it('restores a large valid snapshot checked piece by piece, with the same answers as the original', async () => {
    const h = harness();
    const snapshot = await take(h);
    const first = snapshot.store.onboardings[0]!;
    // 4,000 onboardings: well past the 50,000 values checked at once.
    snapshot.store.onboardings = Array.from({ length: 4000 }, (_, i) => ({ ...first, id: `onb_bulk${String(i).padStart(5, '0')}` }));
    const res = await putText(h, JSON.stringify(snapshot));
    expect(res.status, res.text).toBe(200);
    expect(res.body.counts.onboardings).toBe(4000);
    const again = await take(h);
    expect(again.store.onboardings).toHaveLength(4000);
    expect(again.store.onboardings[3999]).toEqual({ ...first, id: 'onb_bulk03999' });
  });

  it('finds in a large document the mistake a whole check would find', async () => {
    const h = harness();
    const snapshot = await take(h);
    const first = snapshot.store.onboardings[0]!;
    snapshot.store.onboardings = Array.from({ length: 4000 }, (_, i) => ({ ...first, id: `onb_bulk${i}` }));
    (snapshot.store.onboardings[3500] as unknown as Record<string, unknown>).status = 'sideways';
    (snapshot.clock as unknown as Record<string, unknown>).mode = 'sideways';
    const err = expectError(await putText(h, JSON.stringify(snapshot)), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.message).toBe('The snapshot has 2 mistake(s); see details. Nothing was changed.');
    expect(err.details!.map((d) => d.path).sort()).toEqual(['clock.mode', 'store.onboardings[3500].status']);
  });
});
