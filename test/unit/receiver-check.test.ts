import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { runReceiverCheck } from '../../src/receiver-check/receiver-check.js';
import { RECEIVER_CHECKS } from '../../src/receiver-check/receiver-check.checks.js';
import { gradedReceiver, gradesOf, PREVIOUS_SECRET, SECRET, type GradedReceiver } from '../support/graded-receivers.js';

/** The receiver check's domain function against real receivers on 127.0.0.1. */
const open: GradedReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
const start = async (...args: Parameters<typeof gradedReceiver>) => {
  const r = await gradedReceiver(...args);
  open.push(r);
  return r;
};
const REQUIRED = RECEIVER_CHECKS.filter((c) => c.required).map((c) => c.id);

describe('runReceiverCheck', () => {
  it('grades a correct receiver ok, every check passed, with status and time', async () => {
    const r = await start('correct');
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000 });
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(REQUIRED).toEqual([1, 2, 3, 4, 5, 6, 9, 11]);
    for (const c of report.checks) {
      expect(c.grade, `${c.id} ${c.reason}`).toBe('passed');
      expect(c.ms).toBeGreaterThanOrEqual(0);
    }
    expect(report.checks.find((c) => c.id === 3)!.status).toBe(401);
    expect(report.checks.find((c) => c.id === 1)!.status).toBe(200);
    expect(report.checks.find((c) => c.id === 10)!.reason).toContain('onboarding.submitted');
    // 1, 2 (same id), 3-6 refused, 7 (two), 8 (two), 9, 10, 11 (10 messages): 17 acted on, once each.
    expect(r.received).toBe(1 + 1 + 4 + 2 + 2 + 1 + 1 + 10);
    expect(r.handled).toHaveLength(17);
    expect(new Set(r.handled).size).toBe(17);
    expect(Date.parse(report.started_at)).not.toBeNaN();
  });

  it('co-signs the rotation check with the previous secret when given', async () => {
    // A receiver that only knows the previous secret: the first message's second v1 is its.
    const r = await start('correct', [PREVIOUS_SECRET]);
    const report = await runReceiverCheck({ url: r.url, secret: 'whsec_new', previousSecret: PREVIOUS_SECRET, timeoutMs: 2_000, burst: 1 });
    // Only the rotation's first message (v1 of the secret, then of the previous secret) verifies.
    expect(r.handled).toHaveLength(1);
    expect(report.checks.find((c) => c.id === 1)!.grade).toBe('failed');
    // Its second message carries no v1 of the previous secret: that part is what is reported.
    expect(report.checks.find((c) => c.id === 7)!).toMatchObject({ grade: 'warning', status: 401 });
  });

  it('fails checks 3 to 6 of a receiver that skips the signature', async () => {
    const r = await start('unsigned');
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 3 });
    expect(report.ok).toBe(false);
    const grades = gradesOf(report);
    expect([grades[3], grades[4], grades[5], grades[6]]).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect([grades[1], grades[2], grades[9], grades[11]]).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(report.checks.find((c) => c.id === 4)!.reason).toMatch(/accepted with 200; it must be refused/);
  });

  it('fails check 2 of a receiver that refuses a repeated event id', async () => {
    const r = await start('notIdempotent');
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 3 });
    expect(report.ok).toBe(false);
    const repeated = report.checks.find((c) => c.id === 2)!;
    expect(repeated).toMatchObject({ grade: 'failed', status: 409, required: true });
    expect(Object.entries(gradesOf(report)).filter(([, g]) => g !== 'passed').map(([id]) => Number(id))).toEqual([2]);
  });

  it('warns, without failing the run, when only the first v1 is verified', async () => {
    const r = await start('firstV1Only');
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 2 });
    expect(report.ok).toBe(true);
    const rotation = report.checks.find((c) => c.id === 7)!;
    expect(rotation).toMatchObject({ grade: 'warning', status: 401, required: false });
    expect(rotation.reason).toContain('newer secret');
  });

  it('fails what needs an answer when nothing listens, and warns on the refusals', async () => {
    const r = await start('correct');
    await r.close();
    open.splice(0);
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 500, burst: 2 });
    expect(report.ok).toBe(false);
    const grades = gradesOf(report);
    expect(grades[1]).toBe('failed');
    expect(grades[3]).toBe('warning');
    expect(report.checks.find((c) => c.id === 1)!).toMatchObject({ status: null });
    expect(report.checks.find((c) => c.id === 1)!.reason).toContain('connection refused');
  });

  it('under the strict policy sends every message to the addresses it vetted, resolving the name once', async () => {
    const resolved: string[] = [];
    const sent: (readonly string[] | undefined)[] = [];
    const report = await runReceiverCheck({ url: 'https://hooks.example.test/x', secret: SECRET, burst: 2 }, {
      urlPolicy: 'strict',
      // A name that would point inside on a second lookup (DNS rebinding): there is none.
      resolver: async (host) => {
        resolved.push(host);
        return resolved.length === 1 ? ['203.0.113.7'] : ['127.0.0.1'];
      },
      transport: { send: async (req) => (sent.push(req.addresses), { ok: true, status: 200, error: null, durationMs: 1 }) },
    });
    expect(report.checks.length).toBeGreaterThan(5);
    expect(resolved).toEqual(['hooks.example.test']);
    expect(sent.length).toBeGreaterThan(5);
    expect(sent.every((a) => a?.length === 1 && a[0] === '203.0.113.7')).toBe(true);
  });

  it('refuses an address the URL policy refuses, and out-of-range input, before sending', async () => {
    await expect(runReceiverCheck({ url: 'http://127.0.0.1:9/x', secret: SECRET }, { urlPolicy: 'strict' })).rejects.toMatchObject({
      code: 'parameter_invalid', param: 'url',
    });
    await expect(runReceiverCheck({ url: 'ftp://example.test/', secret: SECRET })).rejects.toBeInstanceOf(ApiError);
    await expect(runReceiverCheck({ url: 'http://127.0.0.1:9/x', secret: SECRET, burst: 51 })).rejects.toMatchObject({ param: 'burst' });
    await expect(runReceiverCheck({ url: 'http://127.0.0.1:9/x', secret: SECRET, timeoutMs: 10_001 })).rejects.toMatchObject({ param: 'timeout_ms' });
  });

  it('check 12 (expect_fetch): skipped without a journal; graded from the requests seen since the run started', async () => {
    const r = await start('correct');
    const alone = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 1, expectFetch: { path: '/v1/onboardings/{onboarding_id}' } });
    expect(alone.checks[11]).toMatchObject({ id: 12, name: 'fetched_after_event', required: true, grade: 'skipped' });
    expect(alone.ok).toBe(true);
    // A journal passed as functions: a request recorded before the start does not count, and none comes after.
    const seen: { method: string; path: string }[] = [{ method: 'GET', path: '/v1/onboardings/onb_before' }];
    let startedAt = -1;
    const report = await runReceiverCheck(
      { url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 1, expectFetch: { path: '/v1/onboardings/{onboarding_id}', withinMs: 50 } },
      { requests: { enabled: true, start: () => ((startedAt = seen.length), () => seen.slice(startedAt)) } },
    );
    expect(startedAt).toBe(1);
    const c = report.checks[11]!;
    expect(c.grade).toBe('failed');
    expect(c.reason).toContain('never called within 50 ms');
    expect(c.reason).toContain('0 of 2 called exactly once');
    await expect(runReceiverCheck({ url: r.url, secret: SECRET, expectFetch: { path: '/v1/onboardings' } })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'expect_fetch.path' });
    await expect(runReceiverCheck({ url: r.url, secret: SECRET, expectFetch: { path: '/v1/x/{onboarding_id}', withinMs: 0 } })).rejects.toMatchObject({ code: 'parameter_invalid' });
  });
});
