import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { answer, hang, useReceivers } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * Receiver checks are bounded: at most 4 run at once (the 5th is 429 with Retry-After), and one
 * whose client hangs up stops starting checks, instead of sending its messages to the end.
 */
const SECRET = 'whsec_boundsSecret000000000000001';
const started: InProcessEmulator[] = [];
const receivers = useReceivers();
/** A receiver check sends wrong messages on purpose: they are not held to the document. */
const UNCHECKED = { unchecked: ['/hook'] };
afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function emulator() {
  const em = createEmulator();
  started.push(em);
  return { em, url: (await em.start(0)).url };
}

const check = (url: string, receiver: string, timeoutMs: number, signal?: AbortSignal) =>
  fetch(`${url}/_emulator/receiver-checks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: receiver, secret: SECRET, timeout_ms: timeoutMs }), ...(signal ? { signal } : {}) });

describe('receiver checks', () => {
  it('run at most 4 at once: a 5th is refused with 429 and Retry-After, and taken once one has finished', async () => {
    const { url } = await emulator();
    const slow = await receivers.start(hang, UNCHECKED);
    const four = Array.from({ length: 4 }, () => check(url, slow.url(), 300));
    await until(() => slow.requests.length >= 4, 'the four runs to start', 5_000);
    const fifth = await check(url, slow.url(), 300);
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('retry-after')).toBe('5');
    expect(((await fifth.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    for (const res of await Promise.all(four)) expect(res.status).toBe(200);
    const fine = await receivers.start(answer(200), UNCHECKED);
    expect((await check(url, fine.url(), 300)).status).toBe(200);
  }, 60_000);

  it('stop starting checks once the client has hung up', async () => {
    const { url } = await emulator();
    // Each answer takes 200 ms: a whole run is a few dozen messages, several seconds long.
    const slow = await receivers.start({ kind: 'delay', ms: 200, then: { kind: 'status', status: 200 } }, UNCHECKED);
    const client = new AbortController();
    const pending = check(url, slow.url(), 2_000, client.signal).catch(() => 'aborted');
    await until(() => slow.requests.length >= 2, 'the run to start', 5_000);
    // Three more runs on a receiver that never answers take the other places for as long as this test lasts.
    const others = new AbortController();
    const stuck = await receivers.start(hang, UNCHECKED);
    const held = Array.from({ length: 3 }, () => check(url, stuck.url(), 2_000, others.signal).catch(() => 'aborted'));
    await until(() => stuck.requests.length >= 3, 'the three other runs to start', 5_000);
    // A check refused by its address once it has a place (422), or refused a place (429): whether the hung-up run still holds one.
    const probe = async () => (await check(url, 'ftp://127.0.0.1/hook', 300)).status;
    expect(await probe()).toBe(429);
    client.abort();
    expect(await pending).toBe('aborted');
    // Its place is given back when the run ends: what was in flight at the hang-up may still have arrived; nothing can after.
    await until(async () => (await probe()) === 422, 'the hung-up run to end', 10_000);
    expect(slow.requests.length).toBeLessThan(15);
    others.abort();
    await Promise.all(held);
  }, 30_000);
});
