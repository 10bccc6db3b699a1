import { validate } from 'ctrf';
import { afterEach, describe, expect, it } from 'vitest';
import { httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, runReceiverCheck, type ControlClient, type InProcessEmulator } from '../../src/index.js';
import { gradedReceiver, gradesOf, SECRET, type GradedReceiver } from '../support/graded-receivers.js';

/** receiverCheck() through both transports of the control interface, and runReceiverCheck from the package. */
const started: InProcessEmulator[] = [];
const open: GradedReceiver[] = [];
afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function exercise(control: ControlClient) {
  const correct = await gradedReceiver('correct');
  const unsigned = await gradedReceiver('unsigned');
  open.push(correct, unsigned);
  const good = await control.receiverCheck({ url: correct.url, secret: SECRET, timeout_ms: 2_000, burst: 2 });
  expect(good.ok).toBe(true);
  expect(good.checks.every((c) => c.grade === 'passed')).toBe(true);
  const bad = await control.receiverCheck({ url: unsigned.url, secret: SECRET, timeout_ms: 2_000, burst: 2 });
  expect(bad.ok).toBe(false);
  expect([3, 4, 5, 6].map((id) => gradesOf(bad)[id])).toEqual(['failed', 'failed', 'failed', 'failed']);
  await expect(control.receiverCheck({ url: 'ftp://example.test/', secret: SECRET })).rejects.toMatchObject({ status: 422, code: 'parameter_invalid' });
  // The same run as a CTRF report: a test per check, the required ones failed as in the JSON.
  const ctrf = await control.receiverCheckCtrf({ url: unsigned.url, secret: SECRET, timeout_ms: 2_000, burst: 2 });
  expect(validate(ctrf)).toEqual({ valid: true, errors: [] });
  expect(ctrf.results.tests.filter((t) => t.status === 'failed').map((t) => t.name)).toEqual(['3 bad_signature', '4 missing_signature', '5 stale_timestamp', '6 body_changed']);
  await expect(control.receiverCheckCtrf({ url: 'ftp://example.test/', secret: SECRET })).rejects.toMatchObject({ status: 422, code: 'parameter_invalid' });
}

describe('receiverCheck on the control interface', () => {
  it('in process', async () => {
    const em = createEmulator();
    started.push(em);
    await exercise(em);
    await expect(em.receiverCheck({ url: 'ftp://example.test/', secret: SECRET })).rejects.toBeInstanceOf(ApiError);
  });

  it('over HTTP (httpControl)', async () => {
    const em = createEmulator();
    started.push(em);
    const { url } = await em.start(0);
    await exercise(httpControl({ url }));
  });

  it('runReceiverCheck is exported for use without an emulator', async () => {
    const r = await gradedReceiver('notIdempotent');
    open.push(r);
    const report = await runReceiverCheck({ url: r.url, secret: SECRET, timeoutMs: 2_000, burst: 1 });
    expect(report.checks[1]).toMatchObject({ name: 'repeated_message', grade: 'failed', status: 409 });
  });
});
