import { describe, expect, it } from 'vitest';
import { createBody, envelope, harness, KEYS } from '../support/harness.js';
import { EMPLOYER_FIXTURE, PARTNER_FIXTURE, ALL_FIXTURES, partner, createMany, idsOf } from '../support/onboardings-read.js';

/** Reading one onboarding (GET /v1/onboardings/{id}), and which onboardings partners, employers and environments see. */

describe('GET /v1/onboardings/{id}', () => {
  it('returns the Onboarding with steps and documents', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: EMPLOYER_FIXTURE,
      object: 'onboarding',
      status: 'pending_employee',
      waiting_on: ['employee'],
      returned: false,
      data_version: 1,
      reference: 'demo-jansen',
      metadata: { team: 'store-amsterdam', cost_centre: 4100 },
      contract: { status: 'none' },
      payroll: null,
      return_url: null,
      workflow: { template_id: 'tpl_acme_standard' },
      approvals: { required: ['manager', 'payroll_reviewer', 'owner'], given: [] },
    });
    expect(Array.isArray(res.body.steps)).toBe(true);
    expect(res.body.steps.length).toBeGreaterThan(0);
    for (const step of res.body.steps) {
      expect(Object.keys(step).sort()).toEqual(['applies', 'done', 'id', 'kind', 'phase', 'title']);
      expect(typeof step.applies).toBe('boolean');
      expect(typeof step.done).toBe('boolean');
    }
    expect(res.body.documents).toEqual([]);
    expect(Number.isInteger(res.body.workflow.version)).toBe(true);
    expect(res.body.hosted_link).toMatchObject({ status: 'open', activated: false });
    expect(['dashboard', 'api']).toContain(res.body.source);
    expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false);
    expect(Number.isNaN(Date.parse(res.body.updated_at))).toBe(false);
  });

  it('shows email, phone and the employment terms to the owner key', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(res.body.employee).toMatchObject({
      first_name: 'Eva',
      last_name: 'Jansen',
      email: 'eva.jansen@example.test',
      phone: '+31 6 12345678',
    });
    expect(res.body.employee.id).toMatch(/^emp_/);
    expect(res.body.employment).toEqual({
      position: 'Sales associate',
      location_id: 'loc_acme_amsterdam',
      start_date: '2026-12-01',
      contract_type: 'fixed_term',
      hours_per_week: 32,
      hourly_wage_cents: 1525,
    });
  });

  it.each([
    ['manager', KEYS.manager],
    ['payroll_reviewer', KEYS.payroll],
  ])('shows the dossier fields to a key whose user is %s', async (_role, key) => {
    const h = harness();
    const res = await h.as(key).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(res.body.employee.email).toBe('eva.jansen@example.test');
    expect(res.body.employment.hourly_wage_cents).toBe(1525);
  });

  it('leaves out email, phone and the employment terms for the recruiter key (keys omitted, not null)', async () => {
    const h = harness();
    const res = await h.as(KEYS.recruiter).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.employee).sort()).toEqual(['first_name', 'id', 'last_name']);
    expect(Object.keys(res.body.employment).sort()).toEqual(['location_id', 'position', 'start_date']);
    expect(res.body.employee).not.toHaveProperty('email');
    expect(res.body.employee).not.toHaveProperty('phone');
    expect(res.body.employment).not.toHaveProperty('contract_type');
    expect(res.body.employment).not.toHaveProperty('hours_per_week');
    expect(res.body.employment).not.toHaveProperty('hourly_wage_cents');
    // The rest of the onboarding is still there.
    expect(res.body.employee.first_name).toBe('Eva');
    expect(Array.isArray(res.body.steps)).toBe(true);
    expect(Array.isArray(res.body.documents)).toBe(true);
  });

  it('leaves out email, phone and the employment terms for a partner key (keys omitted, not null)', async () => {
    const h = harness();
    const res = await partner(h).get(`/v1/onboardings/${PARTNER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(PARTNER_FIXTURE);
    expect(Object.keys(res.body.employee).sort()).toEqual(['first_name', 'id', 'last_name']);
    expect(Object.keys(res.body.employment).sort()).toEqual(['location_id', 'position', 'start_date']);
    expect(res.body.employee.first_name).toBe('Noah');
    expect(Array.isArray(res.body.steps)).toBe(true);
  });

  it('shows the dossier fields of the partner-made onboarding to the employer owner', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get(`/v1/onboardings/${PARTNER_FIXTURE}`);
    expect(res.status).toBe(200);
    expect(res.body.employee.email).toBe('noah.bakker@example.test');
    expect(res.body.employee.phone).toBeNull();
    expect(res.body.employment.contract_type).toBe('on_call');
    expect(res.body.employment.hours_per_week).toBe(20);
  });

  it('answers an unknown id with 404 not_found / resource_not_found', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/onboardings/unknown');
    expect(res.status).toBe(404);
    const err = envelope(res);
    expect(err.type).toBe('not_found');
    expect(err.code).toBe('resource_not_found');
    expect(err.message).toMatch(/unknown/);
  });

  it('answers a well-formed but unknown onb_ id with 404', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings/onb_doesnotexist0000000');
    expect(res.status).toBe(404);
    expect(envelope(res).code).toBe('resource_not_found');
  });

  it("hides another employer's onboarding (404)", async () => {
    const res = await harness().as(KEYS.bakker).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(404);
    const err = envelope(res);
    expect(err.type).toBe('not_found');
    expect(err.code).toBe('resource_not_found');
  });
});

describe('Visibility: partners, employers and environments', () => {
  it('lets the partner (Service-Organization: org_acme) list only the onboardings it created', async () => {
    const h = harness();
    const res = await partner(h).get('/v1/onboardings');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([PARTNER_FIXTURE]);
  });

  it('lets the partner read its own onboarding but not the employer\'s own (404)', async () => {
    const h = harness();
    expect((await partner(h).get(`/v1/onboardings/${PARTNER_FIXTURE}`)).status).toBe(200);
    const res = await partner(h).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(404);
    const err = envelope(res);
    expect(err.type).toBe('not_found');
    expect(err.code).toBe('resource_not_found');
  });

  it('shows the partner new onboardings it creates, and never the employer\'s new ones', async () => {
    const h = harness();
    const mine = await partner(h).post('/v1/onboardings', createBody({ reference: 'partner-new' }));
    expect(mine.status).toBe(201);
    const [employers] = await createMany(h, 1);
    const res = await partner(h).get('/v1/onboardings');
    expect(idsOf(res)).toEqual([mine.body.id, PARTNER_FIXTURE]);
    expect((await partner(h).get(`/v1/onboardings/${employers}`)).status).toBe(404);
  });

  it('lets the employer see both its own and the partner-made onboardings', async () => {
    const h = harness();
    const mine = await partner(h).post('/v1/onboardings', createBody({ reference: 'partner-new' }));
    const res = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(idsOf(res)).toEqual([mine.body.id, ...ALL_FIXTURES]);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${mine.body.id}`)).status).toBe(200);
  });

  it('does not show another partner (Payflow) the onboardings HR Soft created', async () => {
    const h = harness();
    const list = await h.as(KEYS.payflow).get('/v1/onboardings');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect((await h.as(KEYS.payflow).get(`/v1/onboardings/${PARTNER_FIXTURE}`)).status).toBe(404);
  });

  it("does not show one employer another employer's onboardings", async () => {
    const h = harness();
    const res = await h.as(KEYS.bakker).get('/v1/onboardings');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('keeps test onboardings out of sight of a live key', async () => {
    const h = harness();
    const list = await h.as(KEYS.live).get('/v1/onboardings');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const one = await h.as(KEYS.live).get(`/v1/onboardings/${EMPLOYER_FIXTURE}`);
    expect(one.status).toBe(404);
    expect(envelope(one).code).toBe('resource_not_found');
  });

  it('keeps live onboardings out of sight of a test key, and shows them to the live key', async () => {
    const h = harness();
    const live = await h.as(KEYS.live).post('/v1/onboardings', createBody({ reference: 'live-1' }));
    expect(live.status).toBe(201);
    const testList = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(idsOf(testList)).not.toContain(live.body.id);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${live.body.id}`)).status).toBe(404);
    const byRef = await h.as(KEYS.owner).get('/v1/onboardings?reference=live-1');
    expect(byRef.body.data).toEqual([]);
    const liveList = await h.as(KEYS.live).get('/v1/onboardings');
    expect(idsOf(liveList)).toEqual([live.body.id]);
    expect((await h.as(KEYS.live).get(`/v1/onboardings/${live.body.id}`)).status).toBe(200);
  });
});
