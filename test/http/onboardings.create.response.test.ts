import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { HOUR, START_MS, withEmployment, withOptions, expectRefused, expectCreated } from '../support/onboarding-create.js';

/** POST /v1/onboardings that succeeds: the CreatedOnboarding response and the contract type it settles on. */

describe('POST /v1/onboardings: the CreatedOnboarding response', () => {
  it('answers 201 with exactly the fields of CreatedOnboarding', async () => {
    const { res } = await expectCreated(createBody());
    expect(Object.keys(res.body).sort()).toEqual(
      ['expires_at', 'hosted_url', 'id', 'invitation_sent', 'metadata', 'object', 'reference', 'status'].sort(),
    );
    expect(res.body.id).toMatch(/^onb_[A-Za-z0-9]+$/);
    expect(res.body.object).toBe('onboarding');
    expect(res.body.status).toBe('pending_employee');
    expect(res.body.invitation_sent).toBe(false);
    expect(res.body.reference).toBe('test-ref');
    expect(res.body.metadata).toEqual({ team: 'blue' });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('hands out an absolute hosted_url the employee can open', async () => {
    const { res } = await expectCreated(createBody());
    const url = new URL(res.body.hosted_url);
    expect(['http:', 'https:']).toContain(url.protocol);
    expect(url.pathname.length).toBeGreaterThan(1);
  });

  it('gives every onboarding its own id and its own hosted_url', async () => {
    const h = harness();
    const a = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    const b = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.hosted_url).not.toBe(a.body.hosted_url);
  });

  it('expires the link 336 hours after now by default (frozen clock 2026-10-05T09:00:00Z)', async () => {
    const { res } = await expectCreated(createBody());
    expect(Date.parse(res.body.expires_at)).toBe(START_MS + 336 * HOUR);
    expect(Date.parse(res.body.expires_at)).toBe(Date.parse('2026-10-19T09:00:00Z'));
  });

  it('counts expires_in_hours from the current (advanced) clock', async () => {
    const h = harness();
    h.emulator.defaultWorkspace.clock.advance(3 * HOUR);
    const res = await h.as(KEYS.owner).post('/v1/onboardings', withOptions({ expires_in_hours: 48 }));
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.expires_at)).toBe(START_MS + 3 * HOUR + 48 * HOUR);
  });

  it('reports invitation_sent true when options.send_invitation is true', async () => {
    const { res } = await expectCreated(withOptions({ send_invitation: true }));
    expect(res.body.invitation_sent).toBe(true);
  });

  it('reports invitation_sent false when options.send_invitation is false', async () => {
    const { res } = await expectCreated(withOptions({ send_invitation: false }));
    expect(res.body.invitation_sent).toBe(false);
  });

  it('answers reference null and metadata {} when both are left out', async () => {
    const body: Record<string, unknown> = { ...createBody() };
    delete body.reference;
    delete body.metadata;
    const { res } = await expectCreated(body);
    expect(res.body.reference).toBeNull();
    expect(res.body.metadata).toEqual({});
  });

  it('keeps metadata values with their types (string, number, boolean)', async () => {
    const { res } = await expectCreated(createBody({ metadata: { team: 'blue', cost_centre: 4100, rate: 1.5, rehire: false } }));
    expect(res.body.metadata).toEqual({ team: 'blue', cost_centre: 4100, rate: 1.5, rehire: false });
  });

  it('stores the onboarding so GET returns it with the data that was sent', async () => {
    const { h, res } = await expectCreated(createBody({ employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test', phone: '+31 20 123 4567' } }));
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('pending_employee');
    expect(read.body.waiting_on).toEqual(['employee']);
    expect(read.body.source).toBe('api');
    expect(read.body.data_version).toBe(1);
    expect(read.body.employee).toMatchObject({ first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test', phone: '+31 20 123 4567' });
    expect(read.body.employee.id).toMatch(/^emp_/);
    expect(read.body.employment).toMatchObject({
      position: 'Cashier',
      start_date: '2026-12-01',
      location_id: 'loc_acme_amsterdam',
      hours_per_week: 24,
      hourly_wage_cents: 1400,
    });
    expect(read.body.workflow.template_id).toBe('tpl_acme_standard');
    expect(read.body.hosted_link).toMatchObject({ status: 'open', activated: false });
    expect(Date.parse(read.body.hosted_link.expires_at)).toBe(Date.parse(res.body.expires_at));
    expect(read.body.created_at).toBe(read.body.updated_at);
    expect(Date.parse(read.body.created_at)).toBe(START_MS);
  });

  it('stores phone as null when employee.phone is left out', async () => {
    const { h, res } = await expectCreated(createBody());
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.body.employee.phone).toBeNull();
  });

  it('stores options.return_url on the onboarding', async () => {
    const { h, res } = await expectCreated(withOptions({ return_url: 'https://app.acme.test/onboarding/done' }));
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.body.return_url).toBe('https://app.acme.test/onboarding/done');
  });
});

describe('POST /v1/onboardings: contract_type', () => {
  async function contractTypeOf(body: object) {
    const { h, res } = await expectCreated(body);
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.status).toBe(200);
    return read.body.employment.contract_type as string;
  }

  it('defaults to the contract_type of tpl_acme_standard (fixed_term)', async () => {
    expect(await contractTypeOf(createBody())).toBe('fixed_term');
  });

  it('defaults to the contract_type of tpl_acme_flex (on_call)', async () => {
    expect(await contractTypeOf(withEmployment({ template_id: 'tpl_acme_flex' }))).toBe('on_call');
  });

  it.each(['on_call', 'fixed_term', 'permanent'])('takes an explicit contract_type %s over the template default', async (type) => {
    expect(await contractTypeOf(withEmployment({ contract_type: type }))).toBe(type);
  });

  it('refuses a contract_type outside the enum on_call, fixed_term, permanent', async () => {
    await expectRefused(withEmployment({ contract_type: 'freelance' }), {
      code: 'parameter_invalid',
      param: 'employment.contract_type',
      message: /on_call.*fixed_term.*permanent/,
    });
  });
});
