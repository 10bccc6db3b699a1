import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { createBody } from '../support/harness.js';

/**
 * The inbound network faults set through the in-process API, against the emulator's own
 * server on 127.0.0.1: a lost answer and its retry with the same Idempotency-Key, a reset
 * before anything ran, and a slow answer; the request journal tells them apart.
 */
const OWNER = 'hrs_test_acme_owner';
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function setUp() {
  const em = createEmulator({ seed: 7, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
  started.push(em);
  const { url } = await em.start(0);
  const post = (reference: string, idempotencyKey?: string) =>
    fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json', ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
      body: JSON.stringify(createBody({ reference })),
      signal: AbortSignal.timeout(10_000),
    });
  const count = async (reference: string) =>
    ((await (await fetch(`${url}/v1/onboardings?limit=100`, { headers: { Authorization: `Bearer ${OWNER}` } })).json()) as { data: { reference: string }[] }).data.filter((o) => o.reference === reference).length;
  return { em, post, count };
}

describe('inbound network faults through the in-process API', () => {
  it('drop_response_after_commit: the create ran; the retry with the same key is the replay, not a second onboarding', async () => {
    const { em, post, count } = await setUp();
    await em.faults.add({ kind: 'drop_response_after_commit', method: 'POST', path: '/v1/onboardings' });
    await expect(post('LOST-1', 'key-lost-1')).rejects.toThrow();
    const retry = await post('LOST-1', 'key-lost-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await count('LOST-1')).toBe(1);
    const journal = await em.requests.find({ method: 'POST', path: '/v1/onboardings' });
    expect(journal.data.map((e) => [e.status, e.answered, e.replayed])).toEqual([[201, true, true], [201, false, false]]);
  });

  it('drop_response_after_commit without a key: the blind retry makes a second onboarding, and verify catches the keyless POSTs', async () => {
    const { em, post, count } = await setUp();
    await em.faults.add({ kind: 'drop_response_after_commit', method: 'POST', path: '/v1/onboardings' });
    await expect(post('LOST-2')).rejects.toThrow();
    expect((await post('LOST-2')).status).toBe(201);
    expect(await count('LOST-2')).toBe(2);
    const keyless = await em.requests.verify({ method: 'POST', path: '/v1/onboardings', has_idempotency_key: false }, { exactly: 0 });
    expect(keyless).toMatchObject({ ok: false, count: 2 });
  });

  it('reset_before_commit: nothing ran, so even a keyless retry makes one onboarding; slow_response delays the answer', async () => {
    const { em, post, count } = await setUp();
    await em.faults.add({ kind: 'reset_before_commit', method: 'POST', path: '/v1/onboardings' });
    await expect(post('RESET-1')).rejects.toThrow();
    expect(await count('RESET-1')).toBe(0);
    expect((await post('RESET-1')).status).toBe(201);
    expect(await count('RESET-1')).toBe(1);

    await em.faults.add({ kind: 'slow_response', method: 'POST', path: '/v1/onboardings', first_byte_ms: 300 });
    const t0 = performance.now();
    expect((await post('SLOW-1')).status).toBe(201);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect(await em.faults.list()).toEqual([]);
  });
});
