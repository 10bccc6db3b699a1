import { describe, expect, it } from 'vitest';
import { createBody, FROZEN_START, harness, KEYS, expectError, type Harness } from '../support/harness.js';

const HOUR = 60 * 60 * 1000;
const START_MS = Date.parse(FROZEN_START);
const EMPLOYER_FIXTURE = 'onb_demo_jansen'; // created by hrs_test_acme_owner
const PARTNER_FIXTURE = 'onb_demo_partner'; // created by hrs_test_hrsoft for org_acme

const partner = (h: Harness) => h.asPartnerFor(KEYS.hrsoft, 'org_acme');

async function created(h: Harness, overrides: Record<string, unknown> = {}) {
  const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; hosted_url: string; expires_at: string; invitation_sent: boolean };
}

async function read(h: Harness, id: string, key: string = KEYS.owner) {
  const res = await h.as(key).get(`/v1/onboardings/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('PATCH /v1/onboardings/{id}: reference and metadata', () => {
  it('changes reference and answers 200 with the Onboarding', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'jansen-2' });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('onboarding');
    expect(res.body.id).toBe(EMPLOYER_FIXTURE);
    expect(res.body.reference).toBe('jansen-2');
    expect(res.body.metadata).toEqual({ team: 'store-amsterdam', cost_centre: 4100 });
    expect(Array.isArray(res.body.steps)).toBe(true);
    expect(Array.isArray(res.body.documents)).toBe(true);
    expect((await read(h, EMPLOYER_FIXTURE)).reference).toBe('jansen-2');
  });

  it('clears reference with null', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: null });
    expect(res.status).toBe(200);
    expect(res.body.reference).toBeNull();
    expect((await read(h, EMPLOYER_FIXTURE)).reference).toBeNull();
  });

  it('leaves reference alone when only metadata is sent, and metadata alone when only reference is sent', async () => {
    const h = harness();
    const a = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { metadata: { region: 'north' } });
    expect(a.status).toBe(200);
    expect(a.body.reference).toBe('demo-jansen');
    const b = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'x' });
    expect(b.body.metadata).toEqual({ team: 'store-amsterdam', cost_centre: 4100, region: 'north' });
  });

  it('merges metadata and deletes a key given null', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, {
      metadata: { team: 'store-utrecht', cost_centre: null, priority: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ team: 'store-utrecht', priority: true });
    expect((await read(h, EMPLOYER_FIXTURE)).metadata).toEqual({ team: 'store-utrecht', priority: true });
  });

  it('accepts an empty body and changes nothing but updated_at', async () => {
    const h = harness();
    const before = await read(h, EMPLOYER_FIXTURE);
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, {});
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe(before.reference);
    expect(res.body.metadata).toEqual(before.metadata);
  });

  it('keeps data_version unchanged', async () => {
    const h = harness();
    const before = await read(h, EMPLOYER_FIXTURE);
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'r2', metadata: { a: 1 } });
    expect(res.status).toBe(200);
    expect(before.data_version).toBe(1);
    expect(res.body.data_version).toBe(before.data_version);
    expect((await read(h, EMPLOYER_FIXTURE)).data_version).toBe(1);
  });

  it('moves updated_at to the (advanced) clock and keeps created_at', async () => {
    const h = harness();
    const before = await read(h, EMPLOYER_FIXTURE);
    h.emulator.defaultWorkspace.clock.advance(90 * 60 * 1000);
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'later' });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.updated_at)).toBe(START_MS + 90 * 60 * 1000);
    expect(res.body.updated_at).not.toBe(before.updated_at);
    expect(res.body.created_at).toBe(before.created_at);
  });

  it('keeps status, employee, employment and hosted link as they were', async () => {
    const h = harness();
    const before = await read(h, EMPLOYER_FIXTURE);
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'r3' });
    expect(res.body.status).toBe(before.status);
    expect(res.body.employee).toEqual(before.employee);
    expect(res.body.employment).toEqual(before.employment);
    expect(res.body.hosted_link).toEqual(before.hosted_link);
  });

  it('accepts a reference of 200 characters and refuses 201', async () => {
    const h = harness();
    const ok = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'r'.repeat(200) });
    expect(ok.status).toBe(200);
    expect(ok.body.reference).toHaveLength(200);
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'r'.repeat(201) });
    expectError(res, 422, 'invalid_request', 'parameter_invalid', 'reference');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses a reference that is not a string or null', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 42 });
    expectError(res, 422, 'invalid_request', 'parameter_invalid', 'reference');
    expect(h.storeJson()).toBe(before);
  });

  it('hides the dossier fields in the PATCH answer for the recruiter key', async () => {
    const h = harness();
    const res = await h.as(KEYS.recruiter).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'by-recruiter' });
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe('by-recruiter');
    expect(res.body.employee).not.toHaveProperty('email');
    expect(res.body.employee).not.toHaveProperty('phone');
    expect(res.body.employment).not.toHaveProperty('hourly_wage_cents');
  });

  it('lets the partner patch the onboarding it created', async () => {
    const h = harness();
    const res = await partner(h).patch(`/v1/onboardings/${PARTNER_FIXTURE}`, { metadata: { crm_id: 'C-77' } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ crm_id: 'C-77' });
    expect(res.body.employee).not.toHaveProperty('email');
  });
});

describe('PATCH /v1/onboardings/{id}: field_not_updatable', () => {
  it.each([
    ['employee', { employee: { email: 'new@example.test' } }],
    ['employment', { employment: { hourly_wage_cents: 2000 } }],
    ['status', { status: 'completed' }],
    ['data_version', { data_version: 2 }],
    ['return_url', { return_url: 'https://app.acme.test/x' }],
    ['hosted_link', { hosted_link: null }],
  ] as const)('refuses %s with 422 field_not_updatable naming the field', async (field, body) => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, body);
    const err = expectError(res, 422, 'invalid_request', 'field_not_updatable', field);
    expect(err.message).toContain(field);
    expect(h.storeJson()).toBe(before);
  });

  it('refuses employee data even when sent together with an allowed change, and changes nothing', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, {
      reference: 'sneaky',
      employee: { last_name: 'Jansen-de Wit' },
    });
    expectError(res, 422, 'invalid_request', 'field_not_updatable', 'employee');
    expect(h.storeJson()).toBe(before);
    expect((await read(h, EMPLOYER_FIXTURE)).reference).toBe('demo-jansen');
  });

  it('refuses an unknown field with 422 parameter_unknown', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { nickname: 'Eef' });
    expectError(res, 422, 'invalid_request', 'parameter_unknown', 'nickname');
    expect(h.storeJson()).toBe(before);
  });
});

describe('POST /v1/onboardings/{id}/hosted-link', () => {
  it('answers 201 with exactly the fields of HostedLink', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'hosted_url', 'invitation_sent', 'onboarding_id']);
    expect(res.body.onboarding_id).toBe(EMPLOYER_FIXTURE);
    expect(() => new URL(res.body.hosted_url)).not.toThrow();
    expect(res.body.invitation_sent).toBe(false);
    expect(Number.isNaN(Date.parse(res.body.expires_at))).toBe(false);
  });

  it('makes a new link with a new token, and the previous one is no longer the current one', async () => {
    const h = harness();
    const onb = await created(h, { options: { expires_in_hours: 336 } });
    h.emulator.defaultWorkspace.clock.advance(2 * HOUR);
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${onb.id}/hosted-link`, { expires_in_hours: 24 });
    expect(res.status).toBe(201);
    expect(res.body.hosted_url).not.toBe(onb.hosted_url);
    expect(res.body.expires_at).not.toBe(onb.expires_at);
    const after = await read(h, onb.id);
    expect(after.hosted_link.status).toBe('open');
    expect(Date.parse(after.hosted_link.expires_at)).toBe(Date.parse(res.body.expires_at));
    // The stored link is the new one: its token is in the new URL, not in the old one.
    const token = h.emulator.defaultWorkspace.store.onboardings.get(onb.id)!.hosted_link!.token;
    expect(res.body.hosted_url).toContain(token);
    expect(onb.hosted_url).not.toContain(token);
  });

  it('makes a different link every time', async () => {
    const h = harness();
    const a = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`);
    const b = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.hosted_url).not.toBe(a.body.hosted_url);
  });

  it.each([1, 24, 336])('expires the new link expires_in_hours=%d from now', async (hours) => {
    const h = harness();
    h.emulator.defaultWorkspace.clock.advance(5 * HOUR);
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, { expires_in_hours: hours });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.expires_at)).toBe(START_MS + 5 * HOUR + hours * HOUR);
  });

  it('expires the new link at most 336 hours from now without expires_in_hours', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, {});
    expect(res.status).toBe(201);
    const at = Date.parse(res.body.expires_at);
    expect(at).toBeGreaterThan(START_MS);
    expect(at).toBeLessThanOrEqual(START_MS + 336 * HOUR);
  });

  it.each([0, 337, -1, 1.5, '24'])('refuses expires_in_hours %j (422, param expires_in_hours)', async (hours) => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, { expires_in_hours: hours });
    expectError(res, 422, 'invalid_request', 'parameter_invalid', 'expires_in_hours');
    expect(h.storeJson()).toBe(before);
  });

  it('reports invitation_sent true with send_invitation true', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, { send_invitation: true });
    expect(res.status).toBe(201);
    expect(res.body.invitation_sent).toBe(true);
  });

  it('reports invitation_sent false with send_invitation false, even after an earlier invitation', async () => {
    const h = harness();
    const onb = await created(h, { options: { send_invitation: true } });
    expect(onb.invitation_sent).toBe(true);
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${onb.id}/hosted-link`, { send_invitation: false });
    expect(res.status).toBe(201);
    expect(res.body.invitation_sent).toBe(false);
  });

  it('refuses send_invitation that is not a boolean', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, { send_invitation: 'yes' });
    expectError(res, 422, 'invalid_request', 'parameter_invalid', 'send_invitation');
  });

  it('refuses an unknown body field with 422 parameter_unknown', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, { return_url: 'https://app.acme.test' });
    expectError(res, 422, 'invalid_request', 'parameter_unknown', 'return_url');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses a new link on a cancelled onboarding with 409', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`)).status).toBe(200);
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, {});
    const err = expectError(res, 409, 'conflict', 'onboarding_cancelled');
    expect(err.message).toMatch(/cancel/);
    expect(h.storeJson()).toBe(before);
    expect((await read(h, EMPLOYER_FIXTURE)).hosted_link.status).toBe('revoked');
  });

  it('lets the partner renew the link of the onboarding it created', async () => {
    const h = harness();
    const res = await partner(h).post(`/v1/onboardings/${PARTNER_FIXTURE}/hosted-link`, {});
    expect(res.status).toBe(201);
    expect(res.body.onboarding_id).toBe(PARTNER_FIXTURE);
  });
});

describe('POST /v1/onboardings/{id}/cancel', () => {
  it('answers 200 with the Onboarding: status cancelled, waiting_on [], hosted_link revoked', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.object).toBe('onboarding');
    expect(res.body.id).toBe(EMPLOYER_FIXTURE);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.waiting_on).toEqual([]);
    expect(res.body.hosted_link.status).toBe('revoked');
    expect(Array.isArray(res.body.steps)).toBe(true);
    const after = await read(h, EMPLOYER_FIXTURE);
    expect(after.status).toBe('cancelled');
    expect(after.waiting_on).toEqual([]);
    expect(after.hosted_link.status).toBe('revoked');
  });

  it('accepts an empty JSON object as body', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`, {});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
  });

  it('moves updated_at and keeps data_version', async () => {
    const h = harness();
    h.emulator.defaultWorkspace.clock.advance(HOUR);
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.updated_at)).toBe(START_MS + HOUR);
    expect(res.body.data_version).toBe(1);
  });

  it('refuses cancelling again with 409 onboarding_cancelled and changes nothing', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`)).status).toBe(200);
    const before = h.storeJson();
    h.emulator.defaultWorkspace.clock.advance(HOUR);
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    expectError(res, 409, 'conflict', 'onboarding_cancelled');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses an unknown body field with 422 parameter_unknown and does not cancel', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`, { reason: 'no-show' });
    expectError(res, 422, 'invalid_request', 'parameter_unknown', 'reason');
    expect(h.storeJson()).toBe(before);
    expect((await read(h, EMPLOYER_FIXTURE)).status).toBe('pending_employee');
  });

  it('still allows PATCH of reference and metadata on a cancelled onboarding without reviving it', async () => {
    const h = harness();
    await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'archived' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(res.body.hosted_link.status).toBe('revoked');
  });

  it('lets the partner cancel the onboarding it created', async () => {
    const h = harness();
    const res = await partner(h).post(`/v1/onboardings/${PARTNER_FIXTURE}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
  });
});

describe("Writes on another organization's or an invisible onboarding: 404", () => {
  const writes = [
    ['PATCH', (h: Harness, key: string, id: string) => h.as(key).patch(`/v1/onboardings/${id}`, { reference: 'x' })],
    ['hosted-link', (h: Harness, key: string, id: string) => h.as(key).post(`/v1/onboardings/${id}/hosted-link`, {})],
    ['cancel', (h: Harness, key: string, id: string) => h.as(key).post(`/v1/onboardings/${id}/cancel`)],
  ] as const;

  it.each(writes)("%s by another employer (org_bakker) on org_acme's onboarding", async (_name, send) => {
    const h = harness();
    const before = h.storeJson();
    const res = await send(h, KEYS.bakker, EMPLOYER_FIXTURE);
    expectError(res, 404, 'not_found', 'resource_not_found');
    expect(h.storeJson()).toBe(before);
  });

  it.each(writes)("%s by the partner on the employer's own onboarding", async (name, _send) => {
    const h = harness();
    const before = h.storeJson();
    const p = partner(h);
    const res =
      name === 'PATCH'
        ? await p.patch(`/v1/onboardings/${EMPLOYER_FIXTURE}`, { reference: 'x' })
        : name === 'hosted-link'
          ? await p.post(`/v1/onboardings/${EMPLOYER_FIXTURE}/hosted-link`, {})
          : await p.post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    expectError(res, 404, 'not_found', 'resource_not_found');
    expect(h.storeJson()).toBe(before);
  });

  it.each(writes)('%s by a live key on a test onboarding', async (_name, send) => {
    const h = harness();
    const before = h.storeJson();
    const res = await send(h, KEYS.live, EMPLOYER_FIXTURE);
    expectError(res, 404, 'not_found', 'resource_not_found');
    expect(h.storeJson()).toBe(before);
  });

  it.each(writes)('%s on an unknown id', async (_name, send) => {
    const h = harness();
    const before = h.storeJson();
    const res = await send(h, KEYS.owner, 'onb_unknown');
    expectError(res, 404, 'not_found', 'resource_not_found');
    expect(h.storeJson()).toBe(before);
  });
});
