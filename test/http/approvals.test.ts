import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FixturesDocument } from '../../src/fixtures/fixtures.schemas.js';
import { changeTerms, returnForCorrection } from '../../src/resources/onboardings/onboardings.lifecycle.js';
import { createBody, harness, KEYS, expectError, type Harness } from '../support/harness.js';
import { advance, createOnboarding, eventTypes, inReview, readOnboarding } from '../support/sandbox-steps.js';

const identity = (h: Harness, key: string, id: string) => h.as(key).post(`/v1/onboardings/${id}/identity-verification`);
const approval = (h: Harness, key: string, id: string, role: string, dataVersion: number) =>
  h.as(key).post(`/v1/onboardings/${id}/approvals`, { role, data_version: dataVersion });

interface OpenApproval {
  onboarding_id: string;
  data_version: number;
  can_approve_as: string[];
  blocked_by: string[];
}

/** The OpenApproval of one onboarding in GET /v1/approvals, or undefined when it is not listed. */
async function openApproval(h: Harness, key: string, id: string): Promise<OpenApproval | undefined> {
  const res = await h.as(key).get('/v1/approvals?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as OpenApproval[]).find((a) => a.onboarding_id === id);
}

const NO_USER = 'hrs_test_acme_nouser';

/** The default fixtures plus an employer key without a user, and approvals:write for HR Soft at Acme. */
function withReviewingKeys(): FixturesDocument {
  const doc = JSON.parse(readFileSync('fixtures/default.json', 'utf8')) as FixturesDocument;
  const owner = doc.keys.find((k) => k.key === KEYS.owner)!;
  doc.keys.push({ ...owner, key: NO_USER, name: 'Acme key without a user', user_id: null });
  const hrsoftKey = doc.keys.find((k) => k.key === KEYS.hrsoft)!;
  hrsoftKey.scopes = [...hrsoftKey.scopes, 'approvals:write'];
  const admission = doc.partners!.find((p) => p.id === 'org_hrsoft')!.admitted_by.find((a) => a.organization_id === 'org_acme')!;
  admission.scopes = [...admission.scopes, 'approvals:write'];
  return doc;
}

const FLEX = { position: 'Flex', start_date: '2026-12-01', location_id: 'loc_acme_utrecht', template_id: 'tpl_acme_flex', hours_per_week: 8, hourly_wage_cents: 1400 };
const BAKER = { position: 'Baker', start_date: '2026-12-01', location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker', hours_per_week: 38, hourly_wage_cents: 1600 };

describe('the API-approvals switch', () => {
  it('refuses identity confirmation and approvals with 403 api_approvals_disabled, writing nothing', async () => {
    const h = harness();
    const id = await inReview(h, KEYS.bakker, { employment: BAKER });
    const before = h.storeJson();
    expectError(await identity(h, KEYS.bakker, id), 403, 'permission_error', 'api_approvals_disabled');
    expectError(await approval(h, KEYS.bakker, id, 'owner', 2), 403, 'permission_error', 'api_approvals_disabled');
    expect(h.storeJson()).toBe(before);
  });

  it('shows api_approvals_disabled in GET /v1/approvals, beside the roles the user holds', async () => {
    const h = harness();
    const id = await inReview(h, KEYS.bakker, { employment: BAKER });
    expect(await openApproval(h, KEYS.bakker, id)).toEqual({
      onboarding_id: id, data_version: 2, can_approve_as: ['owner'], blocked_by: ['api_approvals_disabled', 'identity_check'],
    });
  });

  it('is checked again on every request: turning it on lets the same key approve', async () => {
    const h = harness();
    const id = await inReview(h, KEYS.bakker, { employment: BAKER });
    await advance(h, id, KEYS.bakker); // identity by the sandbox
    const store = h.emulator.defaultWorkspace.store;
    store.organizations.put({ ...store.organizations.get('org_bakker')!, api_approvals: true });
    const res = await approval(h, KEYS.bakker, id, 'owner', 2);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('roles', () => {
  it('identity confirmation needs a manager: 403 role_not_held for an owner or payroll reviewer', async () => {
    const h = harness();
    const id = await inReview(h);
    expectError(await identity(h, KEYS.owner, id), 403, 'permission_error', 'role_not_held');
    expectError(await identity(h, KEYS.payroll, id), 403, 'permission_error', 'role_not_held');
    const ok = await identity(h, KEYS.manager, id);
    expect(ok.status).toBe(200);
    // The dual key's user is a manager too; the check is already confirmed, so that is a conflict.
    expectError(await identity(h, KEYS.dual, id), 409, 'conflict', 'identity_already_verified');
  });

  it('an approval needs the role: 403 role_not_held naming param role', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    const before = h.storeJson();
    expectError(await approval(h, KEYS.owner, id, 'manager', 2), 403, 'permission_error', 'role_not_held', 'role');
    expectError(await approval(h, KEYS.manager, id, 'payroll_reviewer', 2), 403, 'permission_error', 'role_not_held', 'role');
    expect(h.storeJson()).toBe(before);
  });

  it('keys without a user and partner keys hold no role', async () => {
    const h = harness({ fixtures: withReviewingKeys() });
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    expectError(await identity(h, NO_USER, id), 403, 'permission_error', 'role_not_held');
    expectError(await approval(h, NO_USER, id, 'owner', 2), 403, 'permission_error', 'role_not_held', 'role');
    // Not the key owner's to approve: not listed at all.
    expect(await openApproval(h, NO_USER, id)).toBeUndefined();
    // The partner's employer granted approvals:write, but the partner's user belongs to the partner.
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    const own = 'onb_demo_partner';
    for (let i = 0; i < 3; i++) expect((await partner.post(`/v1/sandbox/onboardings/${own}/advance`)).status).toBe(200);
    expectError(await partner.post(`/v1/onboardings/${own}/identity-verification`), 403, 'permission_error', 'role_not_held');
    expectError(await partner.post(`/v1/onboardings/${own}/approvals`, { role: 'manager', data_version: 2 }), 403, 'permission_error', 'role_not_held', 'role');
  });
});

describe('identity before approvals', () => {
  it('an approval before the identity check is 409 identity_not_verified', async () => {
    const h = harness();
    const id = await inReview(h);
    const before = h.storeJson();
    expectError(await approval(h, KEYS.payroll, id, 'payroll_reviewer', 2), 409, 'conflict', 'identity_not_verified');
    expect(h.storeJson()).toBe(before);
    expect(await openApproval(h, KEYS.payroll, id)).toEqual({
      onboarding_id: id, data_version: 2, can_approve_as: ['payroll_reviewer'], blocked_by: ['identity_check'],
    });
  });

  it('identity confirmation emits no event and marks the step done', async () => {
    const h = harness();
    const id = await inReview(h);
    const before = await eventTypes(h, id);
    const res = await identity(h, KEYS.manager, id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('in_review');
    expect(res.body.steps.find((s: { id: string }) => s.id === 'identity_check').done).toBe(true);
    expect(await eventTypes(h, id)).toEqual(before);
  });

  it('outside the review it is a 409 of the state machine', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    expectError(await identity(h, KEYS.manager, id), 409, 'conflict', 'not_in_review');
    expectError(await approval(h, KEYS.manager, id, 'manager', 1), 409, 'conflict', 'not_in_review');
  });
});

describe('the journey by API approvals with three users', () => {
  it('manager, payroll reviewer and owner bring the onboarding to contract_ready', async () => {
    const h = harness();
    const id = await inReview(h);
    const base = await eventTypes(h, id);

    const verified = await identity(h, KEYS.manager, id);
    expect(verified.status).toBe(200);
    expect(verified.body.waiting_on).toEqual(['manager', 'payroll_reviewer', 'owner']);

    const m = await approval(h, KEYS.manager, id, 'manager', 2);
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect(m.body).toMatchObject({ object: 'onboarding', id, status: 'in_review', waiting_on: ['payroll_reviewer', 'owner'], data_version: 2 });
    // The reviewer may open the dossier: terms and e-mail are shown.
    expect(m.body.employee.email).toBe('lotte@example.test');
    expect(m.body.employment.hourly_wage_cents).toBe(1400);

    const p = await approval(h, KEYS.payroll, id, 'payroll_reviewer', 2);
    expect(p.status).toBe(200);
    expect(p.body.waiting_on).toEqual(['owner']);

    const o = await approval(h, KEYS.owner, id, 'owner', 2);
    expect(o.status).toBe(200);
    expect(o.body.status).toBe('contract_ready');
    expect(o.body.waiting_on).toEqual(['manager']);
    expect(o.body.approvals).toEqual({
      required: ['manager', 'payroll_reviewer', 'owner'],
      given: [
        { role: 'manager', valid: true, data_version: 2, at: expect.any(String) },
        { role: 'payroll_reviewer', valid: true, data_version: 2, at: expect.any(String) },
        { role: 'owner', valid: true, data_version: 2, at: expect.any(String) },
      ],
    });
    expect(await eventTypes(h, id)).toEqual([
      ...base, 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approved',
    ]);
    // Nothing is left to approve: no longer listed.
    for (const key of [KEYS.owner, KEYS.manager, KEYS.payroll]) expect(await openApproval(h, key, id)).toBeUndefined();
    // A further approval is refused by the state machine.
    expectError(await approval(h, KEYS.dual, id, 'manager', 2), 409, 'conflict', 'not_in_review');
  });

  it('the same role twice is 409 approval_already_given', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    expect((await approval(h, KEYS.manager, id, 'manager', 2)).status).toBe(200);
    expectError(await approval(h, KEYS.dual, id, 'manager', 2), 409, 'conflict', 'approval_already_given', 'role');
  });

  it('a role the template does not require is 422 approval_not_required', async () => {
    const h = harness();
    const id = await inReview(h, KEYS.owner, { employment: FLEX });
    await identity(h, KEYS.manager, id);
    expectError(await approval(h, KEYS.owner, id, 'owner', 2), 422, 'invalid_request', 'approval_not_required', 'role');
  });
});

describe('four-eyes', () => {
  it('one person approving as manager and then as owner is 409 four_eyes_violation', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.dual, id);
    expect((await approval(h, KEYS.dual, id, 'manager', 2)).status).toBe(200);
    const before = h.storeJson();
    expectError(await approval(h, KEYS.dual, id, 'owner', 2), 409, 'conflict', 'four_eyes_violation', 'role');
    expect(h.storeJson()).toBe(before);
    // Another person can still give the owner approval.
    expect((await approval(h, KEYS.owner, id, 'owner', 2)).status).toBe(200);
  });

  it('GET /v1/approvals: can_approve_as both roles before; after one approval the item is no longer hers to list', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    expect(await openApproval(h, KEYS.dual, id)).toMatchObject({ can_approve_as: ['manager', 'owner'], blocked_by: [] });
    await approval(h, KEYS.dual, id, 'owner', 2);
    // Dana still holds the open manager role, but four-eyes closes it to her for this data version.
    expect(await openApproval(h, KEYS.dual, id)).toBeUndefined();
    expect(await openApproval(h, KEYS.manager, id)).toMatchObject({ can_approve_as: ['manager'], blocked_by: [] });
    // The owner role is approved (by Dana): nothing left that Olivia holds, so it is not hers to list.
    expect(await openApproval(h, KEYS.owner, id)).toBeUndefined();
  });

  it('a new data version frees the person again', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.dual, id);
    await approval(h, KEYS.dual, id, 'manager', 2);
    const ws = h.emulator.defaultWorkspace;
    changeTerms(ws, ws.store.onboardings.get(id)!, { hours_per_week: 30 });
    expect(await openApproval(h, KEYS.dual, id)).toMatchObject({ data_version: 3, can_approve_as: ['manager', 'owner'], blocked_by: [] });
    expect((await approval(h, KEYS.dual, id, 'owner', 3)).status).toBe(200);
  });
});

describe('data_version', () => {
  it('another version than the current one is 409 data_version_mismatch', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    expectError(await approval(h, KEYS.manager, id, 'manager', 1), 409, 'conflict', 'data_version_mismatch', 'data_version');
    expectError(await approval(h, KEYS.manager, id, 'manager', 3), 409, 'conflict', 'data_version_mismatch', 'data_version');
  });

  it('changed terms make given approvals lapse: the old version is refused, the new one reviewed again', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    await approval(h, KEYS.manager, id, 'manager', 2);
    await approval(h, KEYS.payroll, id, 'payroll_reviewer', 2);
    const ws = h.emulator.defaultWorkspace;
    const before = await eventTypes(h, id);
    changeTerms(ws, ws.store.onboardings.get(id)!, { hourly_wage_cents: 1600 });
    expect((await eventTypes(h, id)).slice(before.length)).toEqual(['onboarding.terms_changed', 'onboarding.approval_required']);

    const lapsed = await readOnboarding(h, id);
    expect(lapsed.data_version).toBe(3);
    expect(lapsed.waiting_on).toEqual(['manager', 'payroll_reviewer', 'owner']);
    expect(lapsed.approvals.given.map((a) => [a.role, a.valid, a.data_version])).toEqual([['manager', false, 2], ['payroll_reviewer', false, 2]]);

    // The owner reviewed version 2: refused.
    expectError(await approval(h, KEYS.owner, id, 'owner', 2), 409, 'conflict', 'data_version_mismatch', 'data_version');
    expect(await openApproval(h, KEYS.manager, id)).toEqual({ onboarding_id: id, data_version: 3, can_approve_as: ['manager'], blocked_by: [] });
    for (const [key, role] of [[KEYS.manager, 'manager'], [KEYS.payroll, 'payroll_reviewer'], [KEYS.owner, 'owner']] as const) {
      const res = await approval(h, key, id, role, 3);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await readOnboarding(h, id)).status).toBe('contract_ready');
  });

  it('terms changed in contract_ready bring the onboarding back to review', async () => {
    const h = harness();
    const id = await inReview(h, KEYS.owner, { employment: FLEX });
    await identity(h, KEYS.manager, id);
    await approval(h, KEYS.manager, id, 'manager', 2);
    await approval(h, KEYS.payroll, id, 'payroll_reviewer', 2);
    const ws = h.emulator.defaultWorkspace;
    changeTerms(ws, ws.store.onboardings.get(id)!, { position: 'Flex lead' });
    expect(await openApproval(h, KEYS.payroll, id)).toMatchObject({ data_version: 3, can_approve_as: ['payroll_reviewer'] });
  });
});

describe('GET /v1/approvals', () => {
  it('lists every onboarding in review the key can see, oldest first, with the current data_version', async () => {
    const h = harness();
    const first = await inReview(h);
    const pending = await createOnboarding(h);
    const second = await inReview(h, KEYS.owner, { employment: FLEX });
    const res = await h.as(KEYS.manager).get('/v1/approvals');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'list',
      data: [
        { onboarding_id: first, data_version: 2, can_approve_as: ['manager'], blocked_by: ['identity_check'] },
        { onboarding_id: second, data_version: 2, can_approve_as: ['manager'], blocked_by: ['identity_check'] },
      ],
      has_more: false,
      next_cursor: null,
    });
    expect(res.body.data.map((a: OpenApproval) => a.onboarding_id)).not.toContain(pending);
  });

  it('leaves out an onboarding where the user holds none of the still-open roles', async () => {
    const h = harness();
    // The flex template asks the manager and the payroll reviewer; Olivia is the owner only.
    const id = await inReview(h, KEYS.owner, { employment: FLEX });
    expect(await openApproval(h, KEYS.owner, id)).toBeUndefined();
    await identity(h, KEYS.manager, id);
    await approval(h, KEYS.manager, id, 'manager', 2);
    // The manager's role is no longer open: the item leaves the manager's list, stays on the payroll reviewer's.
    expect(await openApproval(h, KEYS.payroll, id)).toMatchObject({ can_approve_as: ['payroll_reviewer'], blocked_by: [] });
    expect(await openApproval(h, KEYS.manager, id)).toBeUndefined();
  });

  it('keeps an item whose open role the user holds but must wait for (identity_check); leaves out one four-eyes closes', async () => {
    const h = harness();
    const id = await inReview(h);
    // Before the identity check: waiting, listed.
    expect(await openApproval(h, KEYS.dual, id)).toEqual({ onboarding_id: id, data_version: 2, can_approve_as: ['manager', 'owner'], blocked_by: ['identity_check'] });
    await identity(h, KEYS.manager, id);
    await approval(h, KEYS.dual, id, 'manager', 2);
    // Dana still holds the open owner role, but four-eyes closes it to her for version 2: not listed.
    expect(await openApproval(h, KEYS.dual, id)).toBeUndefined();
    // The owner role is still open to someone else.
    expect(await openApproval(h, KEYS.owner, id)).toMatchObject({ can_approve_as: ['owner'], blocked_by: [] });
  });

  it('returned_to_manager while the data waits for the manager\'s correction', async () => {
    const h = harness();
    const id = await inReview(h);
    await identity(h, KEYS.manager, id);
    const ws = h.emulator.defaultWorkspace;
    returnForCorrection(ws, ws.store.onboardings.get(id)!, 'manager');
    expect(await openApproval(h, KEYS.payroll, id)).toEqual({
      onboarding_id: id, data_version: 2, can_approve_as: ['payroll_reviewer'], blocked_by: ['returned_to_manager'],
    });
    expectError(await approval(h, KEYS.payroll, id, 'payroll_reviewer', 2), 409, 'conflict', 'returned_to_manager');
    // Returned to the employee: no longer in review, no longer listed.
    const other = await inReview(h);
    returnForCorrection(ws, ws.store.onboardings.get(other)!, 'employee');
    expect(await openApproval(h, KEYS.payroll, other)).toBeUndefined();
  });

  it('a partner holds no role: its own onboardings in review are not its to approve', async () => {
    const h = harness();
    const mine = await inReview(h);
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    for (let i = 0; i < 2; i++) expect((await partner.post('/v1/sandbox/onboardings/onb_demo_partner/advance')).status).toBe(200);
    const res = await partner.get('/v1/approvals');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    expect(await openApproval(h, KEYS.manager, mine)).toBeDefined();
    // The employer's keys see the partner's onboarding too.
    expect(await openApproval(h, KEYS.manager, 'onb_demo_partner')).toMatchObject({ can_approve_as: ['manager'] });
  });

  it('test and live keys see their own environment only', async () => {
    const h = harness();
    const test = await inReview(h);
    const live = await h.as(KEYS.live).get('/v1/approvals');
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual([]);
    expect(await openApproval(h, KEYS.owner, test)).toBeDefined();
  });

  it('pages with limit and starting_after', async () => {
    const h = harness();
    const ids = [await inReview(h), await inReview(h), await inReview(h)];
    const page1 = await h.as(KEYS.owner).get('/v1/approvals?limit=2');
    expect(page1.body.data.map((a: OpenApproval) => a.onboarding_id)).toEqual(ids.slice(0, 2));
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: ids[1] });
    const page2 = await h.as(KEYS.owner).get(`/v1/approvals?limit=2&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data.map((a: OpenApproval) => a.onboarding_id)).toEqual([ids[2]]);
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
    expectError(await h.as(KEYS.owner).get('/v1/approvals?starting_after=onb_nope'), 422, 'invalid_request', 'cursor_invalid');
    expectError(await h.as(KEYS.owner).get('/v1/approvals?limit=0'), 422, 'invalid_request', 'parameter_invalid');
    expectError(await h.as(KEYS.owner).get('/v1/approvals?status=in_review'), 422, 'invalid_request', 'parameter_unknown');
  });
});

describe('scopes, ids and bodies', () => {
  it('needs approvals:write to approve and approvals:read to list', async () => {
    const h = harness();
    const id = await inReview(h);
    expectError(await identity(h, KEYS.readonly, id), 403, 'permission_error', 'scope_missing');
    expectError(await approval(h, KEYS.readonly, id, 'owner', 2), 403, 'permission_error', 'scope_missing');
    expectError(await h.as(KEYS.recruiter).get('/v1/approvals'), 403, 'permission_error', 'scope_missing');
    expect((await h.as(KEYS.readonly).get('/v1/approvals')).status).toBe(200);
    // A partner key whose employer did not grant the scope.
    const payflow = h.asPartnerFor(KEYS.payflow, 'org_acme');
    expectError(await payflow.get('/v1/approvals'), 403, 'permission_error', 'scope_missing');
  });

  it('the OpenAPI document names the spec\'s scope for each new route', async () => {
    const res = await harness().http().get('/openapi.json');
    const paths = JSON.parse(res.text).paths as Record<string, Record<string, { 'x-scope'?: string; description?: string }>>;
    const expected = {
      'POST /v1/onboardings/{id}/identity-verification': 'approvals:write',
      'POST /v1/onboardings/{id}/approvals': 'approvals:write',
      'GET /v1/approvals': 'approvals:read',
      'POST /v1/onboardings/{id}/contract': 'contracts:write',
      'POST /v1/sandbox/onboardings/{id}/advance': 'onboardings:write',
    };
    for (const [route, scope] of Object.entries(expected)) {
      const [method, path] = route.split(' ') as [string, string];
      const op = paths[path]?.[method.toLowerCase()];
      expect(op, route).toBeDefined();
      expect(op!['x-scope'] ?? op!.description, route).toContain(scope);
    }
  });

  it('answers 404 for unknown and foreign onboardings', async () => {
    const h = harness();
    expectError(await identity(h, KEYS.manager, 'onb_nope'), 404, 'not_found', 'resource_not_found');
    expectError(await approval(h, KEYS.manager, 'onb_nope', 'manager', 2), 404, 'not_found', 'resource_not_found');
    const bakkers = await inReview(h, KEYS.bakker, { employment: BAKER });
    const store = h.emulator.defaultWorkspace.store;
    store.organizations.put({ ...store.organizations.get('org_acme')!, api_approvals: true });
    expectError(await approval(h, KEYS.manager, bakkers, 'manager', 2), 404, 'not_found', 'resource_not_found');
  });

  it.each([
    [{}, 422, 'parameter_missing', 'role'],
    [{ role: 'manager' }, 422, 'parameter_missing', 'data_version'],
    [{ data_version: 2 }, 422, 'parameter_missing', 'role'],
    [{ role: 'ceo', data_version: 2 }, 422, 'parameter_invalid', 'role'],
    [{ role: 'manager', data_version: '2' }, 422, 'parameter_invalid', 'data_version'],
    [{ role: 'manager', data_version: 2.5 }, 422, 'parameter_invalid', 'data_version'],
    [{ role: 'manager', data_version: 2, note: 'x' }, 422, 'parameter_unknown', 'note'],
  ])('refuses the approval body %j', async (body, status, code, param) => {
    const h = harness();
    const id = await inReview(h);
    expectError(await h.as(KEYS.manager).post(`/v1/onboardings/${id}/approvals`, body), status, 'invalid_request', code, param);
  });

  it('identity-verification takes no body', async () => {
    const h = harness();
    const id = await inReview(h);
    expectError(await h.as(KEYS.manager).post(`/v1/onboardings/${id}/identity-verification`, { ok: true }), 422, 'invalid_request', 'parameter_unknown');
    const res = await h.as(KEYS.manager).post(`/v1/onboardings/${id}/identity-verification`, {});
    expect(res.status).toBe(200);
  });

  it('a live key approves live onboardings (no sandbox involved)', async () => {
    const h = harness();
    const res = await h.as(KEYS.live).post('/v1/onboardings', createBody());
    expect(res.status).toBe(201);
    // Live onboardings have no sandbox; the live owner is not a manager.
    expectError(await identity(h, KEYS.live, res.body.id), 403, 'permission_error', 'role_not_held');
    expectError(await approval(h, KEYS.live, res.body.id, 'owner', 1), 409, 'conflict', 'not_in_review');
  });
});
