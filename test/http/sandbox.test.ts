import { describe, expect, it } from 'vitest';
import { returnForCorrection } from '../../src/resources/onboardings/onboardings.lifecycle.js';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';
import {
  advance, advanceTimes, createOnboarding, eventsOf, eventTypes, inReview, readOnboarding,
} from '../support/sandbox-steps.js';

const advancePath = (id: string) => `/v1/sandbox/onboardings/${id}/advance`;

/** Switch the organization's simulated payroll failure on (as the control API will). */
function payrollFails(h: Harness, organizationId = 'org_acme', errorCode = 'connector_unreachable') {
  const store = h.emulator.defaultWorkspace.store;
  const org = store.organizations.get(organizationId)!;
  store.organizations.put({ ...org, payroll_failure: { enabled: true, error_code: errorCode } });
}

describe('POST /v1/sandbox/onboardings/{id}/advance: the full journey', () => {
  it('plays one step per call to completed, with status, waiting_on and the exact events after each step', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    expect(await eventTypes(h, id)).toEqual(['onboarding.created']);

    const expected: { step: string; status: string; waiting_on: string[]; events: string[] }[] = [
      { step: 'employee_opened', status: 'pending_employee', waiting_on: ['employee'], events: ['onboarding.started'] },
      {
        step: 'employee_submitted', status: 'in_review', waiting_on: ['manager', 'payroll_reviewer', 'owner'],
        events: ['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required'],
      },
      { step: 'identity_verified', status: 'in_review', waiting_on: ['manager', 'payroll_reviewer', 'owner'], events: [] },
      { step: 'approval_given', status: 'in_review', waiting_on: ['payroll_reviewer', 'owner'], events: ['onboarding.approval_given'] },
      { step: 'approval_given', status: 'in_review', waiting_on: ['owner'], events: ['onboarding.approval_given'] },
      { step: 'approval_given', status: 'contract_ready', waiting_on: ['manager'], events: ['onboarding.approval_given', 'onboarding.approved'] },
      { step: 'contract_sent', status: 'awaiting_employee_signature', waiting_on: ['employee'], events: ['contract.sent'] },
      { step: 'employee_signed', status: 'awaiting_employer_signature', waiting_on: ['manager'], events: ['contract.signed_by_employee'] },
      { step: 'employer_signed', status: 'processing', waiting_on: ['system'], events: ['onboarding.contract_signed', 'contract.signed'] },
      {
        step: 'payroll_completed', status: 'completed', waiting_on: [],
        events: ['integration.sync_succeeded', 'payroll.completed', 'onboarding.completed'],
      },
    ];
    const events = ['onboarding.created'];
    for (const want of expected) {
      const res = await h.as(KEYS.owner).post(advancePath(id));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['onboarding', 'step']);
      expect(res.body.step).toBe(want.step);
      expect(res.body.onboarding.id).toBe(id);
      expect(res.body.onboarding.status, want.step).toBe(want.status);
      expect(res.body.onboarding.waiting_on, want.step).toEqual(want.waiting_on);
      // The embedded onboarding is the one GET /v1/onboardings/{id} shows.
      expect(res.body.onboarding).toEqual(await readOnboarding(h, id));
      events.push(...want.events);
      expect(await eventTypes(h, id), want.step).toEqual(events);
    }

    const done = await readOnboarding(h, id);
    expect(done.approvals.given.map((a) => [a.role, a.valid, a.data_version])).toEqual([
      ['manager', true, 2], ['payroll_reviewer', true, 2], ['owner', true, 2],
    ]);
    expect(done.contract).toEqual({ status: 'signed' });
    expect(done.payroll).toMatchObject({ status: 'succeeded', connector: 'nmbrs', error_code: null });
    expect((done.steps as { id: string; applies: boolean; done: boolean }[]).every((s) => s.done || !s.applies)).toBe(true);

    expectError(await h.as(KEYS.owner).post(advancePath(id)), 409, 'conflict', 'sandbox_finished');
  });

  it('carries data_version, role and connector in the events, and the older names have their own ids', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await advanceTimes(h, id, 10);
    const events = await eventsOf(h, id);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.filter((e) => e.type === 'onboarding.approval_given').map((e) => e.data.role)).toEqual(['manager', 'payroll_reviewer', 'owner']);
    expect(events.find((e) => e.type === 'integration.sync_succeeded')!.data).toMatchObject({ connector: 'nmbrs', data_version: 2 });
    expect(events.find((e) => e.type === 'payroll.completed')!.data).toMatchObject({ connector: 'nmbrs' });
    for (const e of events) expect(e.organization_id).toBe('org_acme');
  });

  it('approves as the organization\'s test users, one person per role (four-eyes)', async () => {
    const h = harness();
    const id = await inReview(h);
    await advanceTimes(h, id, 4);
    const record = h.emulator.defaultWorkspace.store.onboardings.get(id)!;
    expect(record.approvals.map((a) => [a.role, a.user_id])).toEqual([
      ['manager', 'usr_acme_mark'], ['payroll_reviewer', 'usr_acme_paula'], ['owner', 'usr_acme_olivia'],
    ]);
  });

  it('uses a synthetic sandbox user when no member of the organization can take the role', async () => {
    const h = harness();
    const store = h.emulator.defaultWorkspace.store;
    const paula = store.users.get('usr_acme_paula')!;
    store.users.put({ ...paula, roles: [] });
    const id = await inReview(h);
    await advanceTimes(h, id, 3);
    expect(store.onboardings.get(id)!.approvals.map((a) => [a.role, a.user_id])).toEqual([
      ['manager', 'usr_acme_mark'], ['payroll_reviewer', 'usr_sandbox_payroll_reviewer'],
    ]);
  });

  it('skips approvals already given through the API and plays the next open role', async () => {
    const h = harness();
    const id = await inReview(h);
    expect((await advance(h, id)).step).toBe('identity_verified');
    const res = await h.as(KEYS.payroll).post(`/v1/onboardings/${id}/approvals`, { role: 'payroll_reviewer', data_version: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const next = await advance(h, id);
    expect(next.step).toBe('approval_given');
    expect(next.onboarding.waiting_on).toEqual(['owner']);
    const last = await advance(h, id);
    expect(last.onboarding.status).toBe('contract_ready');
  });

  it('asks two approvals for a template that needs two roles', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { employment: { position: 'Flex', start_date: '2026-12-01', location_id: 'loc_acme_utrecht', template_id: 'tpl_acme_flex', hours_per_week: 8, hourly_wage_cents: 1400 } });
    const steps = await advanceTimes(h, id, 9);
    expect(steps).toEqual([
      'employee_opened', 'employee_submitted', 'identity_verified', 'approval_given', 'approval_given',
      'contract_sent', 'employee_signed', 'employer_signed', 'payroll_completed',
    ]);
    expect((await readOnboarding(h, id)).status).toBe('completed');
  });

  it('does not need the API-approvals switch: it plays the service\'s test users', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.bakker, {
      employment: { position: 'Baker', start_date: '2026-12-01', location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker', hours_per_week: 38, hourly_wage_cents: 1600 },
    });
    const steps = await advanceTimes(h, id, 9, KEYS.bakker);
    expect(steps).toEqual([
      'employee_opened', 'employee_submitted', 'identity_verified', 'approval_given', 'approval_given',
      'contract_sent', 'employee_signed', 'employer_signed', 'payroll_completed',
    ]);
    // Bakker's connector is manual.
    expect((await readOnboarding(h, id, KEYS.bakker)).payroll).toMatchObject({ status: 'succeeded', connector: 'manual' });
  });
});

describe('sandbox advance: payroll failure', () => {
  it('fails to action_required with the organization\'s error code, then resolves to completed', async () => {
    const h = harness();
    payrollFails(h, 'org_acme', 'employee_number_taken');
    const id = await createOnboarding(h);
    const before = await advanceTimes(h, id, 9);
    expect(before[8]).toBe('employer_signed');
    const base = await eventTypes(h, id);

    const failed = await advance(h, id);
    expect(failed.step).toBe('payroll_failed');
    expect(failed.onboarding.status).toBe('action_required');
    expect(failed.onboarding.waiting_on).toEqual(['manager', 'payroll_reviewer']);
    expect(failed.onboarding.payroll).toEqual({ status: 'failed', connector: 'nmbrs', external_id: null, error_code: 'employee_number_taken' });
    const events = await eventsOf(h, id);
    expect(events.map((e) => e.type)).toEqual([...base, 'integration.sync_failed', 'onboarding.failed']);
    for (const e of events.slice(-2)) expect(e.data).toMatchObject({ connector: 'nmbrs', error_code: 'employee_number_taken', data_version: 2 });

    const resolved = await advance(h, id);
    expect(resolved.step).toBe('payroll_resolved');
    expect(resolved.onboarding.status).toBe('completed');
    expect(resolved.onboarding.waiting_on).toEqual([]);
    expect(resolved.onboarding.payroll).toMatchObject({ status: 'resolved', connector: 'nmbrs', error_code: 'employee_number_taken' });
    expect(await eventTypes(h, id)).toEqual([
      ...base, 'integration.sync_failed', 'onboarding.failed', 'integration.sync_succeeded', 'payroll.completed', 'onboarding.completed',
    ]);
    expectError(await h.as(KEYS.owner).post(advancePath(id)), 409, 'conflict', 'sandbox_finished');
  });
});

describe('sandbox advance: returned for correction', () => {
  it('after a return to the employee the next step is employee_submitted, with a new data version and identity check', async () => {
    const h = harness();
    const id = await inReview(h);
    await advanceTimes(h, id, 2); // identity, manager approval
    const ws = h.emulator.defaultWorkspace;
    returnForCorrection(ws, ws.store.onboardings.get(id)!, 'employee');
    const returned = await readOnboarding(h, id);
    expect(returned.status).toBe('pending_employee');
    expect(returned.returned).toBe(true);

    const again = await advance(h, id);
    expect(again.step).toBe('employee_submitted');
    expect(again.onboarding).toMatchObject({ status: 'in_review', returned: false, data_version: 3 });
    expect(again.onboarding.waiting_on).toEqual(['manager', 'payroll_reviewer', 'owner']);
    expect(await advanceTimes(h, id, 4)).toEqual(['identity_verified', 'approval_given', 'approval_given', 'approval_given']);
    const after = await readOnboarding(h, id);
    expect(after.status).toBe('contract_ready');
    // The first manager approval was for version 2 and lapsed.
    expect(after.approvals.given.map((a) => [a.role, a.data_version, a.valid])).toEqual([
      ['manager', 2, false], ['manager', 3, true], ['payroll_reviewer', 3, true], ['owner', 3, true],
    ]);
  });

  it('after a return to the manager the next step is manager_corrected, then the review goes on', async () => {
    const h = harness();
    const id = await inReview(h);
    await advance(h, id); // identity
    const ws = h.emulator.defaultWorkspace;
    returnForCorrection(ws, ws.store.onboardings.get(id)!, 'manager');
    const before = await eventTypes(h, id);
    expect(before.at(-1)).toBe('onboarding.returned');
    expect((await readOnboarding(h, id)).waiting_on).toEqual(['manager']);

    const corrected = await advance(h, id);
    expect(corrected.step).toBe('manager_corrected');
    expect(corrected.onboarding).toMatchObject({ status: 'in_review', returned: false, data_version: 3 });
    expect(corrected.onboarding.waiting_on).toEqual(['manager', 'payroll_reviewer', 'owner']);
    expect(await eventTypes(h, id)).toEqual([...before, 'onboarding.approval_required']);
    expect((await advance(h, id)).step).toBe('approval_given');
  });
});

describe('sandbox advance: refusals', () => {
  it('refuses live keys with 403 sandbox_test_keys_only', async () => {
    const h = harness();
    const live = await createOnboarding(h, KEYS.live);
    expectError(await h.as(KEYS.live).post(advancePath(live)), 403, 'permission_error', 'sandbox_test_keys_only');
    // Also for an id it cannot see: the key is refused before the onboarding is looked up.
    expectError(await h.as(KEYS.live).post(advancePath('onb_demo_jansen')), 403, 'permission_error', 'sandbox_test_keys_only');
    expect((await readOnboarding(h, live, KEYS.live)).status).toBe('pending_employee');
  });

  it('needs onboardings:write', async () => {
    const h = harness();
    expectError(await h.as(KEYS.readonly).post(advancePath('onb_demo_jansen')), 403, 'permission_error', 'scope_missing');
  });

  it('answers 404 for unknown and foreign onboardings', async () => {
    const h = harness();
    expectError(await h.as(KEYS.owner).post(advancePath('onb_nope')), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.bakker).post(advancePath('onb_demo_jansen')), 404, 'not_found', 'resource_not_found');
    // A partner sees only onboardings made through its own keys.
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    expectError(await partner.post(advancePath('onb_demo_jansen')), 404, 'not_found', 'resource_not_found');
    const own = await partner.post(advancePath('onb_demo_partner'));
    expect(own.status).toBe(200);
    expect(own.body.step).toBe('employee_opened');
    // The partner may not open the dossier: no e-mail in the embedded onboarding.
    expect(own.body.onboarding.employee.email).toBeUndefined();
  });

  it('refuses a body', async () => {
    const h = harness();
    expectError(await h.as(KEYS.owner).post(advancePath('onb_demo_jansen'), { steps: 2 }), 422, 'invalid_request', 'parameter_unknown');
  });

  it('answers 409 when the employee\'s link expired, as the employee would see it', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { options: { expires_in_hours: 1 } });
    const clock = await h.http().post('/_emulator/clock/advance').send({ by: '2h' });
    expect(clock.status).toBe(200);
    expectError(await h.as(KEYS.owner).post(advancePath(id)), 409, 'conflict', 'hosted_link_expired');
    const link = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/hosted-link`, {});
    expect(link.status).toBe(201);
    expect((await advance(h, id)).step).toBe('employee_opened');
  });

  it('replays with the same Idempotency-Key instead of playing a second step', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    const first = await h.as(KEYS.owner).post(advancePath(id)).set('Idempotency-Key', 'adv-1');
    const second = await h.as(KEYS.owner).post(advancePath(id)).set('Idempotency-Key', 'adv-1');
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await eventTypes(h, id)).toEqual(['onboarding.created', 'onboarding.started']);
  });
});

describe('sandbox advance: cancel from every non-terminal state', () => {
  // Steps from creation to reach each state (the last two with the payroll failure switch on).
  const states: { steps: number; status: string; failure?: boolean }[] = [
    { steps: 0, status: 'pending_employee' },
    { steps: 1, status: 'pending_employee' },
    { steps: 2, status: 'in_review' },
    { steps: 3, status: 'in_review' },
    { steps: 4, status: 'in_review' },
    { steps: 6, status: 'contract_ready' },
    { steps: 7, status: 'awaiting_employee_signature' },
    { steps: 8, status: 'awaiting_employer_signature' },
    { steps: 9, status: 'processing' },
    { steps: 10, status: 'action_required', failure: true },
  ];

  it.each(states)('after $steps steps ($status): cancel answers 200, then advance 409 sandbox_finished', async ({ steps, status, failure }) => {
    const h = harness();
    if (failure) payrollFails(h);
    const id = await createOnboarding(h);
    await advanceTimes(h, id, steps);
    expect((await readOnboarding(h, id)).status).toBe(status);
    const cancel = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.status).toBe('cancelled');
    expect(cancel.body.waiting_on).toEqual([]);
    expect((await eventTypes(h, id)).at(-1)).toBe('onboarding.cancelled');
    const before = h.storeJson();
    expectError(await h.as(KEYS.owner).post(advancePath(id)), 409, 'conflict', 'sandbox_finished');
    expect(h.storeJson()).toBe(before);
  });
});
