import { describe, expect, it } from 'vitest';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * State a control request could leave behind that broke later requests, found by
 * control.fuzz.property.test.ts: each is now refused with a 422 that names it, and the
 * workspace goes on answering as before.
 */
type Idem = { response: { status: number; body: string; headers: Record<string, string> } };

async function snapshotOf(h: Harness) {
  const res = await h.http().get('/_emulator/snapshot');
  expect(res.status).toBe(200);
  return res.body as { store: Record<string, Record<string, unknown>[]>; faults: Record<string, unknown>[] };
}

async function stillAnswers(h: Harness) {
  expect((await h.http().get('/_emulator/clock')).status).toBe(200);
  expect((await h.http().get('/_emulator/keys')).status).toBe(200);
  expect((await h.as(KEYS.owner).get('/v1/onboardings')).status).toBe(200);
}

const keyIndex = (s: Awaited<ReturnType<typeof snapshotOf>>, key: string) => s.store.keys!.findIndex((k) => k.key === key);

describe('a restored snapshot cannot break later requests', () => {
  it('refuses a record field of the wrong type (scopes as an object), which made GET /_emulator/keys answer 500', async () => {
    const h = harness();
    const s = await snapshotOf(h);
    const i = keyIndex(s, KEYS.corner);
    s.store.keys![i]!.scopes = {};
    const err = expectError(await h.http().put('/_emulator/snapshot').send(s), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toContainEqual(expect.objectContaining({ path: `store.keys[${i}].scopes` }));
    await stillAnswers(h);
  });

  it('refuses an onboarding whose date is no date', async () => {
    const h = harness();
    const s = await snapshotOf(h);
    s.store.onboardings![0]!.created_at = 'yesterday';
    const err = expectError(await h.http().put('/_emulator/snapshot').send(s), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toContainEqual(expect.objectContaining({ path: 'store.onboardings[0].created_at' }));
    await stillAnswers(h);
  });

  it('refuses a key naming an organization the snapshot does not hold, which made GET /_emulator/keys answer 500', async () => {
    const h = harness();
    const s = await snapshotOf(h);
    const i = keyIndex(s, KEYS.readonly);
    s.store.keys![i]!.organization_id = 'org_gone';
    const err = expectError(await h.http().put('/_emulator/snapshot').send(s), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toContainEqual({ path: `store.keys[${i}].organization_id`, message: 'names the organization org_gone, which the snapshot does not hold' });
    await stillAnswers(h);
  });

  it('refuses a fault with a latency beyond the 30 s a created fault may have: the next /v1 request would have waited for days', async () => {
    const h = harness();
    await h.http().post('/_emulator/faults').send({ kind: 'latency', latency_ms: 1 }).expect(201);
    const s = await snapshotOf(h);
    s.faults[0]!.latency_ms = 2_000_000_000;
    const err = expectError(await h.http().put('/_emulator/snapshot').send(s), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details).toContainEqual(expect.objectContaining({ path: 'faults[0].latency_ms' }));
  });

  it.each([
    ['a header value with a line break, which made the replay answer 500', (r: Idem) => void (r.response.headers['X-Note'] = 'a\nb')],
    ['a 5xx status, which the replay answered with', (r: Idem) => void (r.response.status = 599)],
    ['a body that is not JSON, which the replay sent as application/json', (r: Idem) => void (r.response.body = '{{{')],
  ])('refuses an idempotency record with %s', async (_, edit) => {
    const h = harness();
    const send = () => h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel', {}).set('Idempotency-Key', 'poison');
    expect((await send()).status).toBe(200);
    const s = (await snapshotOf(h)) as unknown as { idempotency: Idem[] };
    edit(s.idempotency[0]!);
    const err = expectError(await h.http().put('/_emulator/snapshot').send(s), 422, 'invalid_request', 'snapshot_invalid');
    expect(err.details![0]!.path).toMatch(/^idempotency\[0\]\.response/);
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });
});

describe('a scenario delay longer than 100 years', () => {
  const longer = { rules: [{ match: { all: true }, employee: { opens: '9999999999d', submits: '36524d' } }] };

  it('is a mistake of the scenario (the clock moves at most 100 years at once): before, the step was planned past year 9999', async () => {
    const h = harness();
    const err = expectError(await h.http().put('/_emulator/scenario').send(longer), 422, 'invalid_request', 'scenario_invalid');
    expect(err.details).toEqual([
      { path: 'rules[0].employee.opens', message: '"9999999999d" is longer than 100 years, the longest delay', hint: expect.stringContaining('at most 100 years') },
    ]);
    expect((await h.http().get('/_emulator/scenario')).body.loaded).toBe(false);
    await stillAnswers(h);
  });

  it('is refused in a workspace created with it and in a validated document alike', async () => {
    const h = harness();
    const created = await h.http().post('/_emulator/workspaces').send({ scenario: longer });
    expect(created.status).toBe(422);
    const checked = await h.http().post('/_emulator/scenarios/validate').send(longer);
    expect(checked.body).toMatchObject({ valid: false, mistakes: [{ path: 'rules[0].employee.opens' }] });
  });
});

describe('the checks of restored records', () => {
  it('still take back the workspace’s own snapshot at the end of the clock, where a new link expires 14 days later', async () => {
    const h = harness();
    await h.http().post('/_emulator/clock').send({ now: '9899-12-31T23:00:00.000Z' }).expect(200);
    const created = await h.as(KEYS.owner).post('/v1/onboardings', {
      employee: { first_name: 'A', last_name: 'B', email: 'a@example.test' },
      employment: { position: 'P', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1400 },
    });
    expect(created.status).toBe(201);
    const own = (await snapshotOf(h)) as unknown as { store: { onboardings: { hosted_link: { expires_at: string } | null }[] } };
    // Past the end of the clock's range, but a four-digit year: the range leaves room for it.
    expect(own.store.onboardings.some((o) => o.hosted_link?.expires_at.startsWith('9900-01-14'))).toBe(true);
    expect((await h.http().put('/_emulator/snapshot').send(own)).status).toBe(200);
  });
});
