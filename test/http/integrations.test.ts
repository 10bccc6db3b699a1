import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payrollFail, resolveAction } from '../../src/resources/onboardings/onboardings.lifecycle.js';
import { createBody, envelope, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { payrollDone, payrollFailed, signed } from '../support/journey.js';

const EMPLOYER_FIXTURE = 'onb_demo_jansen'; // created by hrs_test_acme_owner
const PARTNER_FIXTURE = 'onb_demo_partner'; // created by hrs_test_hrsoft for org_acme
const MINUTE = 60_000;
/**
 * The default fixtures' staff onboardings (onb_acme_sanne, then onb_acme_daan) complete at load,
 * payroll succeeding with nmbrs: Acme's last sync is the newer one, at the start of the clock.
 */
const STAFF_SYNC = { at: FROZEN_START, outcome: 'succeeded', onboarding_id: 'onb_acme_daan', error_code: null };

/** The default fixtures without the completed (staff) onboardings: nothing of org_acme ever synced. */
function fixturesWithoutStaff() {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
    onboardings: { id: string; completed?: boolean }[];
  };
  const onboardings = doc.onboardings.filter((o) => !o.completed);
  expect(onboardings.map((o) => o.id)).toEqual([EMPLOYER_FIXTURE, PARTNER_FIXTURE]);
  return { ...doc, onboardings };
}

/** A new workspace from those fixtures, and its key standing for `fixtureKey`. */
async function workspaceWithoutStaff(h: Harness, fixtureKey: string): Promise<string> {
  const res = await h.http().post('/_emulator/workspaces').send({ fixtures: fixturesWithoutStaff() });
  expect(res.status).toBe(201);
  const suffix = (res.body.id as string).slice(-12);
  const key = (res.body.keys as { key: string }[]).find((k) => k.key === `${fixtureKey}_${suffix}`);
  expect(key, fixtureKey).toBeDefined();
  return key!.key;
}

const nmbrs = (status: string, lastSync: unknown) => ({
  object: 'list',
  data: [{ object: 'integration', kind: 'payroll', connector: 'nmbrs', status, last_sync: lastSync }],
  has_more: false,
  next_cursor: null,
});

describe('GET /v1/integrations', () => {
  it("lists the employer's payroll connector, connected and never synced (no onboarding of the employer completed)", async () => {
    const h = harness();
    const owner = await workspaceWithoutStaff(h, KEYS.owner);
    const res = await h.as(owner).get('/v1/integrations');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(nmbrs('connected', null));
    const bakker = await h.as(KEYS.bakker).get('/v1/integrations');
    expect(bakker.body.data[0]).toMatchObject({ connector: 'manual', status: 'connected', last_sync: null });
  });

  it("shows the default staff's newest completed onboarding as the employer's last sync", async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/integrations');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(nmbrs('connected', STAFF_SYNC));
  });

  it('is failing while the payroll failure switch of the organization is on', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const org = ws.store.organizations.get('org_acme')!;
    ws.store.organizations.put({ ...org, payroll_failure: { enabled: true, error_code: 'connector_unavailable' } });
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body.data[0].status).toBe('failing');
    // Another employer's integration is untouched.
    expect((await h.as(KEYS.bakker).get('/v1/integrations')).body.data[0].status).toBe('connected');
  });

  it('shows the newest payroll outcome: success, then a failure, then its resolution', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', STAFF_SYNC));
    const processing = signed(ws, EMPLOYER_FIXTURE);
    // Processing is not a sync yet: the staff's completion stays the last one.
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', STAFF_SYNC));

    ws.clock.advance(MINUTE);
    payrollDone(ws, PARTNER_FIXTURE);
    const succeeded = { at: '2026-10-05T09:01:00.000Z', outcome: 'succeeded', onboarding_id: PARTNER_FIXTURE, error_code: null };
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', succeeded));

    ws.clock.advance(MINUTE);
    const failed = payrollFail(ws, processing, 'employee_rejected');
    const failure = { at: '2026-10-05T09:02:00.000Z', outcome: 'failed', onboarding_id: EMPLOYER_FIXTURE, error_code: 'employee_rejected' };
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', failure));
    // A later PATCH does not move the failure's instant.
    ws.clock.advance(MINUTE);
    expect((await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'changed' })).status).toBe(200);
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body.data[0].last_sync).toEqual(failure);

    ws.clock.advance(MINUTE);
    resolveAction(ws, ws.store.onboardings.get(failed.id)!);
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body.data[0].last_sync).toEqual({
      at: '2026-10-05T09:04:00.000Z', outcome: 'succeeded', onboarding_id: EMPLOYER_FIXTURE, error_code: null,
    });
  });

  it("a partner sees the employer's connector with the syncs of its own onboardings only", async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    payrollDone(ws, PARTNER_FIXTURE);
    ws.clock.advance(MINUTE);
    payrollFailed(ws, EMPLOYER_FIXTURE);
    const partner = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get('/v1/integrations');
    expect(partner.status).toBe(200);
    expect(partner.body).toEqual(nmbrs('connected', { at: FROZEN_START, outcome: 'succeeded', onboarding_id: PARTNER_FIXTURE, error_code: null }));
    const employer = await h.as(KEYS.owner).get('/v1/integrations');
    expect(employer.body.data[0].last_sync).toMatchObject({ outcome: 'failed', onboarding_id: EMPLOYER_FIXTURE, error_code: 'connector_unavailable' });
  });

  it('keeps test and live apart', async () => {
    const h = harness();
    payrollDone(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
    expect((await h.as(KEYS.live).get('/v1/integrations')).body).toEqual(nmbrs('connected', null));
  });

  it('needs integrations:read, granted to a partner by the employer', async () => {
    const h = harness();
    for (const [key, code] of [[KEYS.noscopes, 'scope_missing'], [KEYS.recruiter, 'scope_missing'], [KEYS.payflow, 'scope_missing']] as const) {
      const res = await h.as(key).get('/v1/integrations');
      expect(res.status, key).toBe(403);
      expect(envelope(res).code).toBe(code);
    }
    const bakker = await h.asPartnerFor(KEYS.hrsoft, 'org_bakker').get('/v1/integrations');
    expect(bakker.status).toBe(403);
    expect(envelope(bakker).code).toBe('scope_not_granted');
    expect((await h.as(KEYS.readonly).get('/v1/integrations')).status).toBe(200);
    expect((await h.http().get('/v1/integrations')).status).toBe(401);
  });

  it('pages like every list and refuses unknown parameters', async () => {
    const h = harness();
    const page = await h.as(KEYS.owner).get('/v1/integrations?limit=1');
    expect(page.body).toMatchObject({ has_more: false, next_cursor: null, data: [{ connector: 'nmbrs' }] });
    const after = await h.as(KEYS.owner).get('/v1/integrations?starting_after=nmbrs');
    expect(after.body).toMatchObject({ data: [], has_more: false });
    for (const query of ['limit=0', 'starting_after=nope', 'connector=nmbrs']) {
      const res = await h.as(KEYS.owner).get(`/v1/integrations?${query}`);
      expect(res.status, query).toBe(422);
      envelope(res);
    }
  });

  it('a new onboarding is not a sync', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', STAFF_SYNC));
    h.emulator.defaultWorkspace.clock.advance(MINUTE);
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
    expect((await h.as(KEYS.owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', STAFF_SYNC));
    // Nor where nothing synced before.
    const owner = await workspaceWithoutStaff(h, KEYS.owner);
    expect((await h.as(owner).post('/v1/onboardings', createBody())).status).toBe(201);
    expect((await h.as(owner).get('/v1/integrations')).body).toEqual(nmbrs('connected', null));
  });
});

