import { validate } from 'ctrf';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/in-process.js';
import { expectError, harness, type Harness } from '../support/harness.js';
import { gradedReceiver, gradesOf, SECRET, type GradedReceiver } from '../support/graded-receivers.js';

/** POST /_emulator/receiver-checks and the in-process helper, against receivers on 127.0.0.1. */
const open: GradedReceiver[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});
const start = async (kind: Parameters<typeof gradedReceiver>[0]) => {
  const r = await gradedReceiver(kind);
  open.push(r);
  return r;
};
const post = (h: Harness, body: object) => h.http().post('/_emulator/receiver-checks').send(body);

describe('POST /_emulator/receiver-checks', () => {
  it('grades a correct receiver ok', async () => {
    const r = await start('correct');
    const res = await post(harness(), { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, url: r.url });
    expect(res.body.checks).toHaveLength(11);
    expect(Object.values(gradesOf(res.body))).toEqual(Array(11).fill('passed'));
    expect(res.body.checks[0]).toMatchObject({ id: 1, name: 'valid_message', required: true, status: 200 });
    expect(typeof res.body.duration_ms).toBe('number');
    // 5 in the burst this time.
    expect(r.handled).toHaveLength(7 + 5);
  });

  it('fails checks 3 to 6 of a receiver that skips the signature', async () => {
    const r = await start('unsigned');
    const res = await post(harness(), { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 2 });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    const grades = gradesOf(res.body);
    expect([3, 4, 5, 6].map((id) => grades[id])).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('answers JUnit XML with ?format=junit and a CTRF report with ?format=ctrf, counting as the JSON does', async () => {
    const r = await start('unsigned');
    const body = { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 2 };
    const ctrf = await harness().http().post('/_emulator/receiver-checks?format=ctrf').send(body);
    expect(ctrf.status).toBe(200);
    expect(ctrf.headers['content-type']).toMatch(/^application\/json/);
    expect(validate(ctrf.body)).toEqual({ valid: true, errors: [] });
    expect(ctrf.body.results.summary).toMatchObject({ tests: 11, passed: 7, failed: 4 });
    const junit = await harness().http().post('/_emulator/receiver-checks?format=junit').send(body).buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done(null, text));
    });
    expect(junit.status).toBe(200);
    expect(junit.headers['content-type']).toMatch(/^application\/xml/);
    expect(junit.body).toMatch(/<testsuites [^>]*tests="11"[^>]*failures="4"/);
  });

  it('refuses a format it has not, sending nothing', async () => {
    const r = await start('correct');
    expectError(await harness().http().post('/_emulator/receiver-checks?format=xml').send({ url: r.url, secret: SECRET }), 422, 'invalid_request', 'parameter_invalid', 'format');
    expect(r.received).toBe(0);
  });

  it('fails check 2 of a receiver that is not idempotent', async () => {
    const r = await start('notIdempotent');
    const res = await post(harness(), { url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 2 });
    expect(res.body.ok).toBe(false);
    expect(res.body.checks[1]).toMatchObject({ id: 2, grade: 'failed', status: 409 });
  });

  it('refuses what the webhook URL policy refuses, and bad bodies, sending nothing', async () => {
    const r = await start('correct');
    expectError(await post(harness({ webhooks: { urlPolicy: 'strict' } }), { url: r.url, secret: SECRET }), 422, 'invalid_request', 'parameter_invalid', 'url');
    expectError(await post(harness(), { url: r.url }), 422, 'invalid_request', 'parameter_missing', 'secret');
    expectError(await post(harness(), { url: r.url, secret: SECRET, burst: 51 }), 422, 'invalid_request', 'parameter_invalid', 'burst');
    expect(r.received).toBe(0);
  });

  it('is the in-process helper receiverCheck', async () => {
    const r = await start('notIdempotent');
    const emu = createEmulator();
    const report = await emu.receiverCheck({ url: r.url, secret: SECRET, timeout_ms: 2_000, burst: 1 });
    expect(report.ok).toBe(false);
    expect(gradesOf(report)[2]).toBe('failed');
    await expect(emu.receiverCheck({ url: r.url, secret: '' })).rejects.toMatchObject({ code: 'parameter_invalid' });
  });
});
