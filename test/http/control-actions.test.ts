import { describe, expect, it } from 'vitest';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';
import {
  approveAll, createOnboarding, events, must, outbox, refused, toProcessing, toReview, types, typesAfter, USERS,
} from '../support/control.js';

const SUBMITTED = ['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required'];
const COMPLETED = ['integration.sync_succeeded', 'payroll.completed', 'onboarding.completed'];

describe('POST /_emulator/onboardings (the dashboard creates an onboarding)', () => {
  const dashboardBody = (extra: Record<string, unknown> = {}) => ({ ...createBody(), organization_id: 'org_acme', ...extra });

  it('creates with source dashboard, answers 201 with the full onboarding and hosted_url, and emits onboarding.created', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/onboardings').send(dashboardBody());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const o = res.body;
    expect(o).toMatchObject({ object: 'onboarding', status: 'pending_employee', source: 'dashboard', data_version: 1, reference: 'test-ref' });
    expect(o.employee.email).toBe('lotte@example.test');
    expect(o.employment).toMatchObject({ contract_type: 'fixed_term', hours_per_week: 24, hourly_wage_cents: 1400 });
    expect(o.steps.length).toBeGreaterThan(0);
    expect(o.hosted_url).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?\/hosted\/\S+$/);

    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${o.id}`);
    expect(read.status).toBe(200);
    expect(read.body.source).toBe('dashboard');
    expect(await types(h, o.id)).toEqual(['onboarding.created']);
    // A partner sees only what its own keys created.
    expect(await types(h, o.id, KEYS.payflow)).toEqual([]);
  });

  it('invites by mail when asked, and creates in the live environment when asked', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/onboardings').send(dashboardBody({ options: { send_invitation: true }, environment: 'live' }));
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(await types(h, id, KEYS.live)).toEqual(['onboarding.created', 'onboarding.invitation_sent']);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${id}`)).status).toBe(404);
    const [mail] = await outbox(h, `?onboarding_id=${id}`);
    expect(mail).toMatchObject({ kind: 'invitation', to: 'lotte@example.test', environment: 'live' });
  });

  it.each([
    ['no organization_id', { ...createBody() }, 422, 'parameter_missing', 'organization_id'],
    ['an unknown organization', dashboardBody({ organization_id: 'org_nope' }), 422, 'organization_unknown', 'organization_id'],
    ['a partner', dashboardBody({ organization_id: 'org_hrsoft' }), 422, 'organization_unknown', 'organization_id'],
    ['another environment', dashboardBody({ environment: 'staging' }), 422, 'parameter_invalid', 'environment'],
    ['an unknown field', dashboardBody({ extra: 1 }), 422, 'parameter_unknown', 'extra'],
    ['the /v1 rules: hours over 60', dashboardBody({ employment: { ...createBody().employment, hours_per_week: 61 } }), 422, 'parameter_invalid', 'employment.hours_per_week'],
    ['the /v1 rules: a location of another employer', dashboardBody({ employment: { ...createBody().employment, location_id: 'loc_bakker_haarlem' } }), 422, 'location_unknown', 'employment.location_id'],
    ['the /v1 rules: personal data in metadata', dashboardBody({ metadata: { email: 'a@b.test' } }), 422, 'metadata_personal_data', undefined],
    ['an employer without subscription', { ...dashboardBody(), organization_id: 'org_corner', employment: { ...createBody().employment, location_id: 'loc_corner_main', template_id: 'tpl_corner_staff' } }, 403, 'subscription_required', undefined],
  ])('refuses %s, writing nothing', async (_name, body, status, code, param) => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.http().post('/_emulator/onboardings').send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const err = envelope(res);
    expect(err.code).toBe(code);
    if (param !== undefined) expect(err.param).toBe(param);
    expect(h.storeJson()).toBe(before);
  });

  it('acts in the workspace named by the path or by the bearer key', async () => {
    const h = harness();
    const ws = await h.http().post('/_emulator/workspaces');
    const wsId = ws.body.id as string;
    const key = (ws.body.keys as { key: string; name: string }[]).find((k) => k.key.startsWith('hrs_test_acme_owner'))!.key;
    const byPath = await h.http().post(`/_emulator/workspaces/${wsId}/onboardings`).send(dashboardBody());
    expect(byPath.status).toBe(201);
    expect((await h.as(key).get(`/v1/onboardings/${byPath.body.id}`)).status).toBe(200);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${byPath.body.id}`)).status).toBe(404);
    const opened = await h.as(key).post(`/_emulator/onboardings/${byPath.body.id}/employee/open`);
    expect(opened.status).toBe(200);
    expect((await h.http().post(`/_emulator/onboardings/${byPath.body.id}/employee/open`)).status).toBe(404);
  });
});

describe('onboarding actions: lookup', () => {
  it('an unknown id is 404 resource_not_found', async () => {
    const h = harness();
    const err = await refused(h, 'onb_nope', 'employee/open', undefined, 404, 'resource_not_found');
    expect(err.param).toBe('id');
  });

  it('finds onboardings whatever key created them (a partner\'s included)', async () => {
    const h = harness();
    const o = await must(h, 'onb_demo_partner', 'employee/open');
    expect(o.status).toBe('pending_employee');
    expect(o.hosted_link!.activated).toBe(true);
  });

  it('refuses unknown body fields with 422', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await refused(h, id, 'employee/submit', { force: true }, 422, 'parameter_unknown');
    await refused(h, id, 'return', { to: 'owner' }, 422, 'parameter_invalid');
  });
});

describe('onboarding actions: the full journey through the control API', () => {
  it('drives an onboarding to completed with the life-cycle table\'s events, in order', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    const steps: [string, object | undefined, string, string[], string[]][] = [
      ['employee/open', undefined, 'pending_employee', ['employee'], ['onboarding.started']],
      ['employee/submit', undefined, 'in_review', ['manager', 'payroll_reviewer', 'owner'], SUBMITTED],
      ['verify-identity', { user_id: USERS.manager }, 'in_review', ['manager', 'payroll_reviewer', 'owner'], []],
      ['approve', { role: 'manager', user_id: USERS.manager }, 'in_review', ['payroll_reviewer', 'owner'], ['onboarding.approval_given']],
      ['approve', { role: 'payroll_reviewer', user_id: USERS.payroll_reviewer }, 'in_review', ['owner'], ['onboarding.approval_given']],
      ['approve', { role: 'owner', user_id: USERS.owner }, 'contract_ready', ['manager'], ['onboarding.approval_given', 'onboarding.approved']],
      ['send-contract', undefined, 'awaiting_employee_signature', ['employee'], ['contract.sent']],
      ['employee/sign', undefined, 'awaiting_employer_signature', ['manager'], ['contract.signed_by_employee']],
      ['employer-sign', undefined, 'processing', ['system'], ['onboarding.contract_signed', 'contract.signed']],
      ['payroll/complete', undefined, 'completed', [], COMPLETED],
    ];
    let seen = (await types(h, id)).length;
    for (const [action, body, status, waiting, emitted] of steps) {
      const o = await must(h, id, action, body);
      expect([action, o.status, o.waiting_on]).toEqual([action, status, waiting]);
      const now = await types(h, id);
      expect([action, now.slice(seen)]).toEqual([action, emitted]);
      seen = now.length;
    }
    const approvedEvents = (await events(h, id)).filter((e) => e.type === 'onboarding.approval_given');
    expect(approvedEvents.map((e) => e.data.role)).toEqual(['manager', 'payroll_reviewer', 'owner']);
  });
});

type State = 'pending' | 'review' | 'completed' | 'cancelled';

/** An onboarding of tpl_acme_standard in the given state, driven through the control API. */
async function inState(h: Harness, state: State): Promise<string> {
  const id = await createOnboarding(h);
  if (state === 'review') await toReview(h, id);
  if (state === 'completed') {
    await toProcessing(h, id);
    await must(h, id, 'payroll/complete');
  }
  if (state === 'cancelled') await must(h, id, 'cancel');
  return id;
}

describe('onboarding actions: each refused by the state machine with its 409 code, writing nothing', () => {
  const manager = { role: 'manager', user_id: USERS.manager };
  it.each<[string, object | undefined, State, string]>([
    ['employee/open', undefined, 'review', 'employee_not_pending'],
    ['employee/open', { code: '000000' }, 'cancelled', 'onboarding_cancelled'],
    ['employee/submit', undefined, 'pending', 'employee_not_started'],
    ['employee/submit', undefined, 'review', 'employee_not_pending'],
    ['employee/sign', undefined, 'pending', 'not_awaiting_employee_signature'],
    ['manager/correct', undefined, 'pending', 'not_in_review'],
    ['manager/correct', undefined, 'review', 'not_returned_to_manager'],
    ['change-terms', { hours_per_week: 30 }, 'pending', 'terms_locked'],
    ['change-terms', { hours_per_week: 30 }, 'completed', 'onboarding_completed'],
    ['return', { to: 'employee' }, 'pending', 'not_in_review'],
    ['verify-identity', {}, 'pending', 'not_in_review'],
    ['approve', manager, 'pending', 'not_in_review'],
    ['approve', manager, 'review', 'identity_not_verified'],
    ['send-contract', undefined, 'review', 'contract_not_ready'],
    ['employer-sign', undefined, 'pending', 'not_awaiting_employer_signature'],
    ['payroll/complete', undefined, 'pending', 'not_processing'],
    ['payroll/fail', { error_code: 'x' }, 'review', 'not_processing'],
    ['payroll/complete', undefined, 'completed', 'onboarding_completed'],
    ['resolve', undefined, 'pending', 'not_action_required'],
    ['send-reminder', undefined, 'review', 'hosted_link_unavailable'],
    ['cancel', undefined, 'completed', 'onboarding_completed'],
    ['cancel', undefined, 'cancelled', 'onboarding_cancelled'],
  ])('%s %j in %s: 409 %s', async (action, body, state, code) => {
    const h = harness();
    const id = await inState(h, state);
    const before = h.storeJson();
    const err = await refused(h, id, action, body, 409, code);
    expect(err.type).toBe('conflict');
    expect(h.storeJson()).toBe(before);
  });
});

describe('onboarding actions: approvals in the dashboard', () => {
  it('apply the four-eyes and data_version rules, and name users of the organization only', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    await refused(h, id, 'verify-identity', { user_id: USERS.payroll_reviewer }, 422, 'user_lacks_role');
    await must(h, id, 'verify-identity', { user_id: USERS.dual });
    await refused(h, id, 'verify-identity', {}, 409, 'identity_already_verified');
    await must(h, id, 'approve', { role: 'manager', user_id: USERS.dual });
    await refused(h, id, 'approve', { role: 'owner', user_id: USERS.dual }, 409, 'four_eyes_violation');
    await refused(h, id, 'approve', { role: 'manager', user_id: USERS.manager }, 409, 'approval_already_given');
    await refused(h, id, 'approve', { role: 'owner', user_id: USERS.manager }, 422, 'user_lacks_role');
    await refused(h, id, 'approve', { role: 'owner', user_id: 'usr_bakker_bram' }, 422, 'user_unknown');
    await refused(h, id, 'approve', { role: 'owner', user_id: 'usr_nobody' }, 422, 'user_unknown');
    await refused(h, id, 'approve', { role: 'owner', user_id: USERS.owner, data_version: 1 }, 409, 'data_version_mismatch');
    await refused(h, id, 'approve', { role: 'owner' }, 422, 'parameter_missing');
    const o = await must(h, id, 'approve', { role: 'owner', user_id: USERS.owner, data_version: 2 });
    expect(o.waiting_on).toEqual(['payroll_reviewer']);
  });

  it('an approval the template does not ask for is refused', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { employment: { ...createBody().employment, template_id: 'tpl_acme_flex' } });
    await toReview(h, id);
    await must(h, id, 'verify-identity');
    await refused(h, id, 'approve', { role: 'owner', user_id: USERS.owner }, 422, 'approval_not_required');
  });
});

describe('changed terms', () => {
  it('after approvals: data_version + 1, approvals lapse, review again (terms_changed then approval_required)', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    await must(h, id, 'verify-identity');
    await must(h, id, 'approve', { role: 'manager', user_id: USERS.manager });
    const seen = (await types(h, id)).length;
    const o = await must(h, id, 'change-terms', { hours_per_week: 32, hourly_wage_cents: 1550, contract_type: 'permanent' });
    expect(o.status).toBe('in_review');
    expect(o.data_version).toBe(3);
    expect(o.employment).toMatchObject({ hours_per_week: 32, hourly_wage_cents: 1550, contract_type: 'permanent' });
    expect(o.approvals.given).toEqual([expect.objectContaining({ role: 'manager', valid: false, data_version: 2 })]);
    expect(o.waiting_on).toEqual(['manager', 'payroll_reviewer', 'owner']);
    expect(await typesAfter(h, id, seen)).toEqual(['onboarding.terms_changed', 'onboarding.approval_required']);
    const changed = (await events(h, id)).find((e) => e.type === 'onboarding.terms_changed')!;
    expect(changed.data.data_version).toBe(3);
    // The lapsed approval does not count: the manager approves the new version again.
    await must(h, id, 'approve', { role: 'manager', user_id: USERS.manager });
  });

  it('from contract_ready back to in_review', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    expect((await approveAll(h, id)).status).toBe('contract_ready');
    const o = await must(h, id, 'change-terms', { start_date: '2027-01-04', position: 'Senior cashier' });
    expect(o.status).toBe('in_review');
    expect(o.approvals.given.every((a) => !a.valid)).toBe(true);
    expect(o.employment).toMatchObject({ start_date: '2027-01-04', position: 'Senior cashier' });
  });

  it.each([
    ['nothing to change', {}, 'parameter_missing'],
    ['hours over 60', { hours_per_week: 61 }, 'parameter_invalid'],
    ['a wage under 1 cent', { hourly_wage_cents: 0 }, 'parameter_invalid'],
    ['an unknown contract type', { contract_type: 'zero_hours' }, 'parameter_invalid'],
    ['a field that is not a term', { location_id: 'loc_acme_utrecht' }, 'parameter_unknown'],
  ])('refuses %s with 422', async (_name, body, code) => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    await refused(h, id, 'change-terms', body, 422, code);
  });
});

describe('returned for correction', () => {
  it('to the employee: pending_employee again, onboarding.returned with returned_to employee, then a new submission', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    const seen = (await types(h, id)).length;
    const o = await must(h, id, 'return', { to: 'employee' });
    expect([o.status, o.returned, o.waiting_on]).toEqual(['pending_employee', true, ['employee']]);
    const returned = (await events(h, id)).slice(seen);
    expect(returned.map((e) => [e.type, e.data.returned_to])).toEqual([['onboarding.returned', 'employee']]);
    const again = await must(h, id, 'employee/submit');
    expect([again.status, again.returned, again.data_version]).toEqual(['in_review', false, 3]);
    expect(await typesAfter(h, id, seen + 1)).toEqual(SUBMITTED);
  });

  it('to the manager: waiting on the manager, reviews wait, manager/correct asks for approval again', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    await must(h, id, 'verify-identity');
    const seen = (await types(h, id)).length;
    const o = await must(h, id, 'return', { to: 'manager' });
    expect([o.status, o.returned, o.waiting_on]).toEqual(['in_review', true, ['manager']]);
    const returned = (await events(h, id)).slice(seen);
    expect(returned.map((e) => [e.type, e.data.returned_to])).toEqual([['onboarding.returned', 'manager']]);
    await refused(h, id, 'approve', { role: 'manager', user_id: USERS.manager }, 409, 'returned_to_manager');
    await refused(h, id, 'return', { to: 'employee' }, 409, 'returned_to_manager');
    const corrected = await must(h, id, 'manager/correct');
    expect([corrected.status, corrected.returned, corrected.data_version]).toEqual(['in_review', false, 3]);
    expect(await typesAfter(h, id, seen + 1)).toEqual(['onboarding.approval_required']);
  });
});

describe('payroll failure and resolution', () => {
  it('fails to action_required with the connector and the organization\'s error code, then resolves to completed', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toProcessing(h, id);
    const seen = (await types(h, id)).length;
    const failed = await must(h, id, 'payroll/fail');
    expect(failed.status).toBe('action_required');
    expect(failed.waiting_on).toEqual(['manager', 'payroll_reviewer']);
    expect(failed.payroll).toMatchObject({ status: 'failed', connector: 'nmbrs', error_code: 'connector_unavailable' });
    const fails = (await events(h, id)).slice(seen);
    expect(fails.map((e) => [e.type, e.data.connector, e.data.error_code])).toEqual([
      ['integration.sync_failed', 'nmbrs', 'connector_unavailable'],
      ['onboarding.failed', 'nmbrs', 'connector_unavailable'],
    ]);
    const resolved = await must(h, id, 'resolve');
    expect(resolved.status).toBe('completed');
    expect(resolved.payroll!.status).toBe('resolved');
    const after = (await events(h, id)).slice(seen + 2);
    expect(after.map((e) => e.type)).toEqual(COMPLETED);
    expect(after[0]!.data.connector).toBe('nmbrs');
  });

  it('takes an error code from the body, else from the organization\'s payroll_failure setting', async () => {
    const h = harness();
    const a = await createOnboarding(h);
    await toProcessing(h, a);
    expect((await must(h, a, 'payroll/fail', { error_code: 'bsn_rejected' })).payroll!.error_code).toBe('bsn_rejected');
    const patched = await h.http().patch('/_emulator/organizations/org_acme').send({ payroll_failure: { enabled: true, error_code: 'tax_table_missing' } });
    expect(patched.status).toBe(200);
    const b = await createOnboarding(h);
    await toProcessing(h, b);
    expect((await must(h, b, 'payroll/fail')).payroll!.error_code).toBe('tax_table_missing');
    // The explicit action completes whatever the switch says.
    const c = await createOnboarding(h);
    await toProcessing(h, c);
    expect((await must(h, c, 'payroll/complete')).payroll!.status).toBe('succeeded');
  });
});

describe('cancel', () => {
  it('cancels from a non-terminal state and revokes the link', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    const o = await must(h, id, 'cancel');
    expect(o.status).toBe('cancelled');
    expect(o.hosted_link!.status).toBe('revoked');
    expect((await types(h, id)).at(-1)).toBe('onboarding.cancelled');
  });
});

describe('hosted links, mails and the outbox', () => {
  it('POST /v1/onboardings with send_invitation: an invitation mail with the link and a 6-digit code, event kind invitation', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const mails = await outbox(h, `?onboarding_id=${id}`);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatchObject({ kind: 'invitation', to: 'lotte@example.test', onboarding_id: id });
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.link).toMatch(/\/hosted\/\S+$/);
    expect(mail.link!.split('/hosted/')[1]).toBe((created.body.hosted_url as string).split('/hosted/')[1]);
    const sent = (await events(h, id)).filter((e) => e.type === 'onboarding.invitation_sent');
    expect(sent.map((e) => e.data.kind)).toEqual(['invitation']);
    // Without send_invitation nothing is mailed.
    const quiet = await createOnboarding(h);
    expect(await outbox(h, `?onboarding_id=${quiet}`)).toEqual([]);
  });

  it('the employee opens with the mailed code; a wrong code is 422, counted as on the page, and changes nothing else', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true } });
    const [mail] = await outbox(h, `?onboarding_id=${id}`);
    const wrong = mail!.code === '000000' ? '111111' : '000000';
    const err = await refused(h, id, 'employee/open', { code: wrong }, 422, 'one_time_code_invalid');
    expect(err.param).toBe('code');
    expect(h.emulator.defaultWorkspace.store.onboardings.get(id)!.hosted_link!.code_attempts).toBe(1);
    expect(await types(h, id)).toEqual(['onboarding.created', 'onboarding.invitation_sent']);
    const o = await must(h, id, 'employee/open', { code: mail!.code! });
    expect(o.hosted_link).toMatchObject({ status: 'activated', activated: true });
    expect(await types(h, id)).toEqual(['onboarding.created', 'onboarding.invitation_sent', 'onboarding.started']);
    // The code is used up, as on the page; opening again is no new start.
    await refused(h, id, 'employee/open', { code: mail!.code! }, 422, 'one_time_code_invalid');
    await must(h, id, 'employee/open');
    expect((await types(h, id)).filter((t) => t === 'onboarding.started')).toHaveLength(1);
  });

  it('an expired link is 409 hosted_link_expired', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    const advanced = await h.http().post('/_emulator/clock/advance').send({ by: '337h' });
    expect(advanced.status).toBe(200);
    await refused(h, id, 'employee/open', undefined, 409, 'hosted_link_expired');
  });

  it('a new link with send_invitation mails kind new_link and revokes the old one', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true } });
    const [first] = await outbox(h, `?onboarding_id=${id}`);
    const renewed = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/hosted-link`, { send_invitation: true });
    expect(renewed.status).toBe(201);
    const mails = await outbox(h, `?onboarding_id=${id}`);
    expect(mails.map((m) => m.kind)).toEqual(['invitation', 'new_link']);
    const second = mails[1]!;
    expect(second.link).not.toBe(first!.link);
    const sent = (await events(h, id)).filter((e) => e.type === 'onboarding.invitation_sent');
    expect(sent.map((e) => e.data.kind)).toEqual(['invitation', 'new_link']);
    if (second.code !== first!.code) await refused(h, id, 'employee/open', { code: first!.code! }, 422, 'one_time_code_invalid');
    const o = await must(h, id, 'employee/open', { code: second.code! });
    expect(o.hosted_link!.activated).toBe(true);
  });

  it('a reminder mails kind reminder and emits onboarding.invitation_sent with kind reminder', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    const seen = (await types(h, id)).length;
    const o = await must(h, id, 'send-reminder');
    expect(o.status).toBe('pending_employee');
    const mails = await outbox(h, `?onboarding_id=${id}`);
    expect(mails.map((m) => [m.kind, m.to])).toEqual([['reminder', 'lotte@example.test']]);
    expect(mails[0]!.code).toMatch(/^\d{6}$/);
    const sent = (await events(h, id)).slice(seen);
    expect(sent.map((e) => [e.type, e.data.kind])).toEqual([['onboarding.invitation_sent', 'reminder']]);
  });

  it('the contract mail goes to the outbox without a code', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    await approveAll(h, id);
    await must(h, id, 'send-contract');
    const mails = await outbox(h, `?onboarding_id=${id}`);
    expect(mails.map((m) => [m.kind, m.code])).toEqual([['contract', null]]);
  });

  it('GET /_emulator/outbox: oldest first, filters by onboarding_id and to, refuses unknown query fields', async () => {
    const h = harness();
    const a = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true } });
    const b = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true }, employee: { first_name: 'Ali', last_name: 'Y', email: 'ali@example.test' } });
    await must(h, a, 'send-reminder');
    const all = await outbox(h);
    expect(all.map((m) => [m.onboarding_id, m.kind])).toEqual([[a, 'invitation'], [b, 'invitation'], [a, 'reminder']]);
    expect((await outbox(h, '?to=ALI@example.test')).map((m) => m.onboarding_id)).toEqual([b]);
    expect(await outbox(h, `?onboarding_id=${b}&to=lotte@example.test`)).toEqual([]);
    const res = await h.http().get('/_emulator/outbox?kind=reminder');
    expect(res.status).toBe(422);
    expect(envelope(res).code).toBe('parameter_unknown');
  });
});
