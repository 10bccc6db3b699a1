import { describe, expect, it } from 'vitest';
import { createBody, KEYS } from '../support/harness.js';
import { HOUR, START_MS, withEmployee, withEmployment, withOptions, without, expectRefused, expectCreated } from '../support/onboarding-create.js';

/**
 * POST /v1/onboardings refused for its body: required fields, field types, ranges, formats,
 * location and template of the employer, unknown fields; a refusal writes nothing.
 */

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
