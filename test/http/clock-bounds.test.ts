import { describe, expect, it } from 'vitest';
import { expectError, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * The workspace clock stays within 2000-01-01 and the end of 9899, and one advance covers at
 * most 100 years. A move outside is refused before anything changes, and the workspace keeps
 * answering: once, a huge advance left every later request failing until a reset.
 */

const advance = (h: Harness, by: unknown) => h.http().post('/_emulator/clock/advance').send({ by });
const jump = (h: Harness, now: string) => h.http().post('/_emulator/clock').send({ now });

/** The workspace still answers its control and /v1 requests, with the clock where it was. */
async function stillAnswers(h: Harness, now: string) {
  const clock = await h.http().get('/_emulator/clock');
  expect(clock.status, JSON.stringify(clock.body)).toBe(200);
  expect(clock.body.now).toBe(now);
  expect((await h.as(KEYS.owner).get('/v1/onboardings')).status).toBe(200);
  expect((await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/hosted-link')).status).toBe(201);
}

const HUNDRED_YEARS_S = 100 * 365.25 * 86_400;

describe('POST /_emulator/clock/advance: limits', () => {
  it.each([
    ['1e15 seconds', 1e15, /at most 100 years/],
    ['1e12 seconds (the year 33715)', 1e12, /at most 100 years/],
    ['"9999999999d"', '9999999999d', /at most 100 years/],
    ['1e308 seconds', 1e308, /at most 100 years|give seconds/],
    ['100 years and one second', HUNDRED_YEARS_S + 1, /at most 100 years/],
  ])('refuses %s with 422 naming the limit, and changes nothing', async (_name, by, message) => {
    const h = harness();
    await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/hosted-link'); // something pending
    const before = h.storeJson();
    const err = expectError(await advance(h, by), 422, 'invalid_request', 'parameter_invalid', 'by');
    expect(err.message).toMatch(message);
    expect(h.storeJson()).toBe(before);
    await stillAnswers(h, FROZEN_START);
  });

  it('accepts exactly 100 years', async () => {
    const h = harness();
    const res = await advance(h, HUNDRED_YEARS_S);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const later = new Date(Date.parse(FROZEN_START) + HUNDRED_YEARS_S * 1000).toISOString();
    expect(later.slice(0, 4)).toBe('2126');
    expect(res.body.now).toBe(later);
    await stillAnswers(h, later);
  });

  it('refuses an advance past the end of 9899, saying where the clock stands', async () => {
    const h = harness({ clock: { mode: 'frozen', start: '9850-01-01T00:00:00Z' } });
    const err = expectError(await advance(h, '36500d'), 422, 'invalid_request', 'parameter_invalid', 'by');
    expect(err.message).toContain('9850-01-01T00:00:00.000Z');
    expect(err.message).toContain('9899-12-31T23:59:59.999Z');
    await stillAnswers(h, '9850-01-01T00:00:00.000Z');
  });
});

describe('POST /_emulator/clock: limits', () => {
  it.each(['1970-01-01T00:00:00Z', '1999-12-31T23:59:59Z'])('refuses %s, before the range, with 422 on now', async (now) => {
    const h = harness();
    const err = expectError(await jump(h, now), 422, 'invalid_request', 'parameter_invalid', 'now');
    expect(err.message).toContain('2000-01-01T00:00:00.000Z');
    await stillAnswers(h, FROZEN_START);
  });

  it('refuses an instant after 9899 with 422 (and one past 9999)', async () => {
    const h = harness();
    expectError(await jump(h, '9900-01-01T00:00:00Z'), 422, 'invalid_request', 'parameter_invalid', 'now');
    expectError(await jump(h, '+010000-01-01T00:00:00Z'), 422, 'invalid_request', 'parameter_invalid', 'now');
    await stillAnswers(h, FROZEN_START);
  });

  it('answers 409 clock_backwards for an instant in range but in the past', async () => {
    const h = harness();
    expectError(await jump(h, '2020-01-01T00:00:00Z'), 409, 'conflict', 'clock_backwards', 'now');
    await stillAnswers(h, FROZEN_START);
  });

  it('accepts the last instant of 9899, and then refuses any advance; a link made then expires in a four-digit year', async () => {
    const h = harness();
    expect((await jump(h, '9899-12-31T23:59:59.999Z')).status).toBe(200);
    const link = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/hosted-link', { expires_in_hours: 336 });
    expect(link.body.expires_at).toBe('9900-01-14T23:59:59.999Z');
    expectError(await advance(h, 1), 422, 'invalid_request', 'parameter_invalid', 'by');
    await stillAnswers(h, '9899-12-31T23:59:59.999Z');
  });
});

describe('clocks made outside the range', () => {
  it('POST /_emulator/workspaces with clock.start 1970 is 422 on clock.start and makes no workspace', async () => {
    const h = harness();
    const before = (await h.http().get('/_emulator/workspaces')).body.data.length;
    expectError(await h.http().post('/_emulator/workspaces').send({ clock: { mode: 'frozen', start: '1970-01-01T00:00:00Z' } }), 422, 'invalid_request', 'parameter_invalid', 'clock.start');
    expect((await h.http().get('/_emulator/workspaces')).body.data.length).toBe(before);
  });

  it('PUT /_emulator/snapshot with a clock before 2000 or a timer no Date can hold is 422 and changes nothing', async () => {
    const h = harness();
    const snap = (await h.http().get('/_emulator/snapshot')).body;
    const before = h.storeJson();
    const early = { ...snap, clock: { ...snap.clock, now: '1970-01-01T00:00:00.000Z' } };
    const err = expectError(await h.http().put('/_emulator/snapshot').send(early), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'clock.now' })]));
    const timers = { ...snap.timers, timers: [{ seq: 1, due: 1e300, kind: 'event.purge', payload: {} }, ...snap.timers.timers.filter((t: { seq: number }) => t.seq !== 1)] };
    const bad = await h.http().put('/_emulator/snapshot').send({ ...snap, timers });
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('.due');
    expect(h.storeJson()).toBe(before);
    await stillAnswers(h, FROZEN_START);
  });

  it('a realtime snapshot whose offset puts now past 9899 is 422 on clock.offset_ms', async () => {
    const h = harness({ clock: { mode: 'realtime' } });
    const snap = (await h.http().get('/_emulator/snapshot')).body;
    const res = await h.http().put('/_emulator/snapshot').send({ ...snap, clock: { ...snap.clock, offset_ms: 1e15 } });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body.error.details)).toContain('clock.offset_ms');
    expect((await h.http().get('/_emulator/clock')).status).toBe(200);
  });
});
