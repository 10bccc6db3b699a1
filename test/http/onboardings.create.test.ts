import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FixturesDocument } from '../../src/fixtures/fixtures.schema.js';
import { createBody, envelope, FROZEN_START, harness, KEYS } from '../support/harness.js';

const HOUR = 60 * 60 * 1000;
const START_MS = Date.parse(FROZEN_START);

type Body = ReturnType<typeof createBody>;

/** createBody with a change inside employee / employment / options, keeping the rest. */
function withEmployee(patch: Record<string, unknown>, drop: string[] = []): Body {
  const base = createBody();
  const employee: Record<string, unknown> = { ...base.employee, ...patch };
  for (const k of drop) delete employee[k];
  return { ...base, employee } as Body;
}

function withEmployment(patch: Record<string, unknown>, drop: string[] = []): Body {
  const base = createBody();
  const employment: Record<string, unknown> = { ...base.employment, ...patch };
  for (const k of drop) delete employment[k];
  return { ...base, employment } as Body;
}

function withOptions(options: Record<string, unknown>): Body {
  return createBody({ options });
}

function without(field: keyof Body): Record<string, unknown> {
  const body: Record<string, unknown> = { ...createBody() };
  delete body[field];
  return body;
}

/** POSTs a body that must be refused; checks status, envelope, code, param and that nothing was written. */
async function expectRefused(
  body: object,
  expected: { status?: number; code: string; param?: string; message?: RegExp },
  key: string = KEYS.owner,
) {
  const h = harness();
  const before = h.storeJson();
  const res = await h.as(key).post('/v1/onboardings', body);
  expect(res.status).toBe(expected.status ?? 422);
  const err = envelope(res);
  expect(err.code).toBe(expected.code);
  expect(err.type).toBe(expected.status === 403 ? 'permission_error' : 'invalid_request');
  if (expected.param !== undefined) expect(err.param).toBe(expected.param);
  if (expected.message) expect(err.message).toMatch(expected.message);
  expect(h.storeJson()).toBe(before);
  return err;
}

async function expectCreated(body: object, key: string = KEYS.owner) {
  const h = harness();
  const res = await h.as(key).post('/v1/onboardings', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { h, res };
}

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

describe('POST /v1/onboardings: required fields', () => {
  it.each(['employee', 'employment'] as const)('refuses a body without %s (parameter_missing)', async (field) => {
    await expectRefused(without(field), { code: 'parameter_missing', param: field, message: /required/ });
  });

  it.each(['first_name', 'last_name', 'email'])('refuses a body without employee.%s', async (field) => {
    await expectRefused(withEmployee({}, [field]), { code: 'parameter_missing', param: `employee.${field}` });
  });

  it.each(['position', 'start_date', 'location_id', 'template_id', 'hours_per_week', 'hourly_wage_cents'])(
    'refuses a body without employment.%s',
    async (field) => {
      await expectRefused(withEmployment({}, [field]), { code: 'parameter_missing', param: `employment.${field}` });
    },
  );

  it('accepts a body without the optional employee.phone, employment.contract_type, reference, metadata and options', async () => {
    const body: Record<string, unknown> = { employee: createBody().employee, employment: createBody().employment };
    const { res } = await expectCreated(body);
    expect(res.body.status).toBe('pending_employee');
  });

  it('refuses an empty body', async () => {
    const err = await expectRefused({}, { code: 'parameter_missing' });
    expect(['employee', 'employment']).toContain(err.param);
  });
});

describe('POST /v1/onboardings: field types', () => {
  it.each([
    ['employee', 'a string'],
    ['employment', 42],
  ] as const)('refuses %s that is not an object', async (field, value) => {
    await expectRefused(createBody({ [field]: value }), { code: 'parameter_invalid', param: field, message: /object/ });
  });

  it.each([
    ['first_name', 42],
    ['last_name', true],
    ['email', 12],
    ['phone', 612345678],
  ] as const)('refuses employee.%s of the wrong type', async (field, value) => {
    await expectRefused(withEmployee({ [field]: value }), { code: 'parameter_invalid', param: `employee.${field}`, message: /string/ });
  });

  it.each([
    ['position', 1],
    ['start_date', 20261201],
    ['location_id', null],
    ['template_id', ['tpl_acme_standard']],
  ] as const)('refuses employment.%s of the wrong type', async (field, value) => {
    await expectRefused(withEmployment({ [field]: value }), { code: 'parameter_invalid', param: `employment.${field}` });
  });

  it('refuses hours_per_week sent as a string', async () => {
    await expectRefused(withEmployment({ hours_per_week: '24' }), { code: 'parameter_invalid', param: 'employment.hours_per_week', message: /number/ });
  });

  it('refuses hourly_wage_cents sent as a string', async () => {
    await expectRefused(withEmployment({ hourly_wage_cents: '1400' }), { code: 'parameter_invalid', param: 'employment.hourly_wage_cents', message: /integer/ });
  });

  it('refuses reference that is not a string', async () => {
    await expectRefused(createBody({ reference: 123 }), { code: 'parameter_invalid', param: 'reference' });
  });

  it('refuses metadata that is not an object', async () => {
    await expectRefused(createBody({ metadata: 'team=blue' }), { code: 'parameter_invalid', param: 'metadata' });
  });

  it('refuses options that is not an object', async () => {
    await expectRefused(createBody({ options: true }), { code: 'parameter_invalid', param: 'options' });
  });

  it('refuses options.send_invitation that is not a boolean', async () => {
    await expectRefused(withOptions({ send_invitation: 'yes' }), { code: 'parameter_invalid', param: 'options.send_invitation', message: /boolean/ });
  });

  it('refuses options.expires_in_hours that is not an integer', async () => {
    await expectRefused(withOptions({ expires_in_hours: '24' }), { code: 'parameter_invalid', param: 'options.expires_in_hours' });
  });

  it('refuses an empty employee.first_name', async () => {
    await expectRefused(withEmployee({ first_name: '' }), { code: 'parameter_invalid', param: 'employee.first_name' });
  });
});

describe('POST /v1/onboardings: hours_per_week 0 to 60', () => {
  it.each([0, 0.5, 38, 59.5, 60])('accepts hours_per_week %d', async (hours) => {
    const { h, res } = await expectCreated(withEmployment({ hours_per_week: hours }));
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.body.employment.hours_per_week).toBe(hours);
  });

  it.each([
    [-1, /at least 0/],
    [-0.5, /at least 0/],
    [60.5, /at most 60/],
    [61, /at most 60/],
  ] as const)('refuses hours_per_week %d', async (hours, message) => {
    await expectRefused(withEmployment({ hours_per_week: hours }), { code: 'parameter_invalid', param: 'employment.hours_per_week', message });
  });
});

describe('POST /v1/onboardings: hourly_wage_cents, an integer of at least 1', () => {
  it.each([1, 1400, 100000])('accepts hourly_wage_cents %d', async (cents) => {
    const { h, res } = await expectCreated(withEmployment({ hourly_wage_cents: cents }));
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${res.body.id}`);
    expect(read.body.employment.hourly_wage_cents).toBe(cents);
  });

  it.each([
    [0, /at least 1/],
    [-100, /at least 1/],
  ] as const)('refuses hourly_wage_cents %d (minimum 1)', async (cents, message) => {
    await expectRefused(withEmployment({ hourly_wage_cents: cents }), { code: 'parameter_invalid', param: 'employment.hourly_wage_cents', message });
  });

  it.each([1.5, 1400.01])('refuses hourly_wage_cents %d (not an integer)', async (cents) => {
    await expectRefused(withEmployment({ hourly_wage_cents: cents }), { code: 'parameter_invalid', param: 'employment.hourly_wage_cents', message: /integer/ });
  });
});

describe('POST /v1/onboardings: options.expires_in_hours 1 to 336', () => {
  it.each([1, 24, 336])('accepts expires_in_hours %d and expires the link that many hours from now', async (hours) => {
    const { res } = await expectCreated(withOptions({ expires_in_hours: hours }));
    expect(Date.parse(res.body.expires_at)).toBe(START_MS + hours * HOUR);
  });

  it.each([
    [0, /at least 1/],
    [337, /at most 336/],
    [-1, /at least 1/],
  ] as const)('refuses expires_in_hours %d', async (hours, message) => {
    await expectRefused(withOptions({ expires_in_hours: hours }), { code: 'parameter_invalid', param: 'options.expires_in_hours', message });
  });

  it('refuses expires_in_hours 1.5 (not an integer)', async () => {
    await expectRefused(withOptions({ expires_in_hours: 1.5 }), { code: 'parameter_invalid', param: 'options.expires_in_hours', message: /integer/ });
  });
});

describe('POST /v1/onboardings: reference at most 200 characters', () => {
  it('accepts a reference of 200 characters', async () => {
    const reference = 'r'.repeat(200);
    const { res } = await expectCreated(createBody({ reference }));
    expect(res.body.reference).toBe(reference);
  });

  it('refuses a reference of 201 characters', async () => {
    await expectRefused(createBody({ reference: 'r'.repeat(201) }), { code: 'parameter_invalid', param: 'reference', message: /200/ });
  });
});

describe('POST /v1/onboardings: formats', () => {
  it.each(['not-an-email', 'lotte@', '@example.test', 'lotte example.test'])('refuses employee.email %j', async (email) => {
    await expectRefused(withEmployee({ email }), { code: 'parameter_invalid', param: 'employee.email', message: /e-mail/ });
  });

  it.each(['01-12-2026', '2026-13-01', '2026-12-32', '2026-02-30', '2026-12-01T09:00:00Z', 'next monday', ''])(
    'refuses employment.start_date %j',
    async (date) => {
      await expectRefused(withEmployment({ start_date: date }), { code: 'parameter_invalid', param: 'employment.start_date', message: /date/ });
    },
  );

  it('accepts employment.start_date 2028-02-29 (a leap day)', async () => {
    await expectCreated(withEmployment({ start_date: '2028-02-29' }));
  });
});

describe('POST /v1/onboardings: location and template of the employer', () => {
  it('accepts the other location of org_acme', async () => {
    await expectCreated(withEmployment({ location_id: 'loc_acme_utrecht' }));
  });

  it('refuses an unknown location with 422 location_unknown', async () => {
    await expectRefused(withEmployment({ location_id: 'loc_nowhere' }), {
      code: 'location_unknown',
      param: 'employment.location_id',
      message: /loc_nowhere/,
    });
  });

  it("refuses another employer's location with 422 location_unknown", async () => {
    await expectRefused(withEmployment({ location_id: 'loc_bakker_haarlem' }), { code: 'location_unknown', param: 'employment.location_id' });
  });

  it('refuses an unknown template with 422 template_unknown', async () => {
    await expectRefused(withEmployment({ template_id: 'tpl_nowhere' }), {
      code: 'template_unknown',
      param: 'employment.template_id',
      message: /tpl_nowhere/,
    });
  });

  it("refuses another employer's template with 422 template_unknown", async () => {
    await expectRefused(withEmployment({ template_id: 'tpl_bakker_baker' }), { code: 'template_unknown', param: 'employment.template_id' });
  });
});

describe('POST /v1/onboardings: unknown fields', () => {
  it('refuses an unknown top-level field with 422 parameter_unknown', async () => {
    await expectRefused(createBody({ nickname: 'Lot' }), { code: 'parameter_unknown', param: 'nickname' });
  });

  it('refuses an unknown field in employee', async () => {
    await expectRefused(withEmployee({ bsn: '123456782' }), { code: 'parameter_unknown', param: 'employee.bsn' });
  });

  it('refuses an unknown field in employment', async () => {
    await expectRefused(withEmployment({ salary: 3000 }), { code: 'parameter_unknown', param: 'employment.salary' });
  });

  it('refuses an unknown field in options', async () => {
    await expectRefused(withOptions({ remind: true }), { code: 'parameter_unknown', param: 'options.remind' });
  });

  it('refuses status in the create body (it is always pending_employee)', async () => {
    await expectRefused(createBody({ status: 'completed' }), { code: 'parameter_unknown', param: 'status' });
  });
});

describe('POST /v1/onboardings: subscription_required', () => {
  it('refuses an employer without a running trial or subscription with 403 subscription_required', async () => {
    const body = createBody({
      employment: { ...createBody().employment, location_id: 'loc_corner_main', template_id: 'tpl_corner_staff' },
    });
    const err = await expectRefused(body, { status: 403, code: 'subscription_required' }, KEYS.corner);
    expect(err.type).toBe('permission_error');
  });

  it('lets an employer on a running trial create (org_bakker)', async () => {
    const body = createBody({
      employment: { ...createBody().employment, location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker' },
    });
    const { res } = await expectCreated(body, KEYS.bakker);
    expect(res.body.status).toBe('pending_employee');
  });
});

/** The default fixtures, without their onboardings, with other subscriptions for org_acme and the partner HR Soft. */
function fixturesWith(acme: Record<string, unknown>, hrsoft: Record<string, unknown> = {}): FixturesDocument {
  const doc = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
    organizations: Record<string, unknown>[];
    partners: Record<string, unknown>[];
    onboardings: unknown[];
  };
  // Fixture onboardings are created at start-up and would meet the subscription rule themselves.
  doc.onboardings = [];
  doc.organizations = doc.organizations.map((o) => (o.id === 'org_acme' ? { ...o, ...acme } : o));
  doc.partners = doc.partners.map((p) => (p.id === 'org_hrsoft' ? { ...p, ...hrsoft } : p));
  return doc as unknown as FixturesDocument;
}

describe('POST /v1/onboardings: subscription of the paying party', () => {
  it('lets an employer create while its trial runs, and refuses with 403 subscription_required once it has ended', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'trial', trial_ends_at: '2026-10-06T09:00:00Z' }) });
    const during = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(during.status, JSON.stringify(during.body)).toBe(201);
    h.emulator.defaultWorkspace.clock.advance(25 * HOUR);
    const before = h.storeJson();
    const after = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(after.status).toBe(403);
    const err = envelope(after);
    expect(err.type).toBe('permission_error');
    expect(err.code).toBe('subscription_required');
    expect(h.storeJson()).toBe(before);
  });

  it('lets a partner with a subscription create for an employer without one', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }, { subscription: 'active' }) });
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("does not let the employer's own key create on the partner's subscription", async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }, { subscription: 'active' }) });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('subscription_required');
  });

  it('refuses a partner without a subscription acting for an employer without one', async () => {
    const h = harness({ fixtures: fixturesWith({ subscription: 'none' }) });
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('subscription_required');
  });
});

describe('POST /v1/onboardings: options.return_url', () => {
  it.each([
    'https://app.acme.test/done',
    'https://app.acme.test/onboarding/done?x=1',
    'https://careers.acme.test/back',
    'https://a.b.acme.test/',
  ])('accepts %s (https on an allowed origin of org_acme)', async (url) => {
    await expectCreated(withOptions({ return_url: url }));
  });

  it.each([
    ['http://app.acme.test/done', /https/],
    ['http://careers.acme.test/done', /https/],
    ['https://evil.test/done', /evil\.test/],
    ['https://acme.test.evil.test/done', /not in allowed_origins/],
    ['https://evilacme.test/done', /not in allowed_origins/],
    ['https://app.hrsoft.test/done', /not in allowed_origins/],
  ] as const)('refuses %s with 422 return_url_not_allowed', async (url, message) => {
    await expectRefused(withOptions({ return_url: url }), { code: 'return_url_not_allowed', param: 'options.return_url', message });
  });

  it("accepts the partner's own origin with the partner key (Service-Organization: org_acme)", async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://app.hrsoft.test/onboarding/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('pending_employee');
  });

  it("accepts the employer's origin with the partner key", async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://app.acme.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses http on the partner origin with the partner key', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'http://app.hrsoft.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.code).toBe('return_url_not_allowed');
    expect(err.param).toBe('options.return_url');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses a domain neither the employer nor the partner allows, with the partner key', async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://payflow.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status).toBe(422);
    expect(envelope(res).code).toBe('return_url_not_allowed');
  });
});
