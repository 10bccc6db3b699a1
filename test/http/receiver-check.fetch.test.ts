import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createEmulator, type InProcessEmulator } from '../../src/in-process.js';
import { FROZEN_START, KEYS } from '../support/harness.js';
import { gradedReceiver, SECRET, type GradedReceiver, type ReceiverKind } from '../support/graded-receivers.js';

/**
 * Check 12 (expect_fetch): the receivers call back a real emulator listening on 127.0.0.1, whose
 * request journal the check reads; through POST /_emulator/receiver-checks and in process.
 */
const servers: RunningServer[] = [];
const emulators: InProcessEmulator[] = [];
const open: GradedReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
  for (const s of servers.splice(0)) await s.close();
  for (const e of emulators.splice(0)) await e.close();
});

const EXPECT = { method: 'GET' as const, path: '/v1/onboardings/{onboarding_id}', within_ms: 2_000 };
type Report = { ok: boolean; checks: { id: number; name: string; required: boolean; grade: string; reason: string }[] };

async function emulatorOverHttp(journalLimit?: number): Promise<string> {
  const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START }, ...(journalLimit !== undefined ? { journalLimit } : {}) });
  const server = await listen(emulator, { port: 0, host: '127.0.0.1' });
  servers.push(server);
  return server.url;
}

async function receiver(kind: ReceiverKind, base: string | undefined): Promise<GradedReceiver> {
  const r = await gradedReceiver(kind, [SECRET], base === undefined ? undefined : { base, key: KEYS.owner });
  open.push(r);
  return r;
}

async function post(base: string, body: object): Promise<{ status: number; body: Report & Record<string, unknown> }> {
  const res = await fetch(`${base}/_emulator/receiver-checks`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Report & Record<string, unknown> };
}

const check12 = (report: Report) => {
  expect(report.checks).toHaveLength(12);
  return report.checks[11]!;
};
const idsIn = (reason: string) => reason.match(/onb_[A-Za-z0-9]{20}/g) ?? [];

describe('POST /_emulator/receiver-checks with expect_fetch (check 12)', () => {
  it('passes a receiver that fetches each new event\'s onboarding once; required', async () => {
    const base = await emulatorOverHttp();
    const r = await receiver('correct', base);
    const res = await post(base, { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 3, expect_fetch: EXPECT });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const c = check12(res.body);
    expect(c, c.reason).toMatchObject({ id: 12, name: 'fetched_after_event', required: true, grade: 'passed' });
    // Check 1's onboarding and the burst's three, each named once.
    expect(new Set(idsIn(c.reason)).size).toBe(4);
    expect(res.body.ok).toBe(true);
    // The calls were really made: 404s for fictitious onboardings, in the journal.
    const journal = (await (await fetch(`${base}/_emulator/requests?path=/v1/onboardings/*`)).json()) as { data: { status: number }[] };
    expect(journal.data.length).toBeGreaterThanOrEqual(4);
    expect(journal.data.every((e) => e.status === 404)).toBe(true);
  });

  it('fails a receiver that fetches again on the repeat, naming the onboarding fetched twice', async () => {
    const base = await emulatorOverHttp();
    const r = await receiver('fetchOnRepeat', base);
    const res = await post(base, { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 2, expect_fetch: EXPECT });
    const c = check12(res.body);
    expect(c.grade, c.reason).toBe('failed');
    expect(c.reason).toMatch(/called more than once: onb_[A-Za-z0-9]{20} 2 times \(check 1's onboarding/);
    expect(c.reason).not.toContain('never called');
    expect(res.body.ok).toBe(false);
  });

  it('fails a receiver that never fetches, naming every missing onboarding', async () => {
    const base = await emulatorOverHttp();
    const r = await receiver('correct', undefined);
    const res = await post(base, { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 2, expect_fetch: { path: '/v1/onboardings/{onboarding_id}', within_ms: 200 } });
    const c = check12(res.body);
    expect(c.grade).toBe('failed');
    expect(c.reason).toContain('GET /v1/onboardings/{onboarding_id}: never called within 200 ms: ');
    expect(idsIn(c.reason)).toHaveLength(3);
    expect(c.reason).toContain('0 of 3 called exactly once');
    // Checks 1 to 11 are unaffected.
    expect(res.body.checks.slice(0, 11).every((x) => x.grade === 'passed')).toBe(true);
    expect(res.body.ok).toBe(false);
  });

  it('skips check 12 when the journal is off', async () => {
    const base = await emulatorOverHttp(0);
    const r = await receiver('correct', base);
    const res = await post(base, { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 1, expect_fetch: EXPECT });
    const c = check12(res.body);
    expect(c.grade).toBe('skipped');
    expect(c.reason).toContain('request journal is off');
    expect(res.body.ok).toBe(true);
  });

  it('has no check 12 without expect_fetch, and refuses a bad one before sending anything', async () => {
    const base = await emulatorOverHttp();
    const r = await receiver('correct', base);
    const plain = await post(base, { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 1 });
    expect(plain.body.checks).toHaveLength(11);
    const sent = r.received;
    for (const expect_fetch of [{ path: '/v1/onboardings/x' }, { path: '/v1/onboardings/{onboarding_id}', within_ms: 10_001 }, { path: '/v1/onboardings/{onboarding_id}', method: 'TRACE' }]) {
      const res = await post(base, { url: r.url, secret: SECRET, expect_fetch });
      expect(res.status, JSON.stringify(expect_fetch)).toBe(422);
      expect((res.body as unknown as { error: { code: string } }).error.code).toBe('parameter_invalid');
    }
    expect(r.received).toBe(sent);
  });
});

describe('receiverCheck in process with expect_fetch', () => {
  const inProcess = async (journalLimit?: number) => {
    const em = createEmulator(journalLimit !== undefined ? { journalLimit } : {});
    emulators.push(em);
    const { url } = await em.start(0);
    return { em, url };
  };

  it('passes the correct receiver, fails fetch-on-repeat and no-fetch', async () => {
    const { em, url } = await inProcess();
    const good = await receiver('correct', url);
    const passed = await em.receiverCheck({ url: good.url, secret: SECRET, timeout_ms: 2_000, burst: 2, expect_fetch: EXPECT });
    expect(check12(passed).grade, check12(passed).reason).toBe('passed');
    expect(passed.ok).toBe(true);

    const twice = await receiver('fetchOnRepeat', url);
    const repeated = await em.receiverCheck({ url: twice.url, secret: SECRET, timeout_ms: 2_000, burst: 2, expect_fetch: EXPECT });
    expect(check12(repeated)).toMatchObject({ grade: 'failed' });
    expect(check12(repeated).reason).toContain('2 times');

    const none = await receiver('correct', undefined);
    const missing = await em.receiverCheck({ url: none.url, secret: SECRET, timeout_ms: 2_000, burst: 2, expect_fetch: { path: '/v1/onboardings/{onboarding_id}', within_ms: 100 } });
    expect(check12(missing).grade).toBe('failed');
    expect(idsIn(check12(missing).reason)).toHaveLength(3);
  });

  it('skips check 12 with the journal off', async () => {
    const { em, url } = await inProcess(0);
    const r = await receiver('correct', url);
    const report = await em.receiverCheck({ url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 1, expect_fetch: EXPECT });
    expect(check12(report)).toMatchObject({ grade: 'skipped' });
  });
});
