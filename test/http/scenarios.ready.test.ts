import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScenarioFile } from '../../src/scenarios/scenario.load.js';
import { createBody, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding, readOnboarding } from '../support/sandbox-steps.js';

/**
 * Every file in scenarios/ is loaded over HTTP, an onboarding is created, the clock is
 * advanced, and the exact sequence of event types, their instants and the final state are
 * checked.
 */

const file = (name: string) => fileURLToPath(new URL(`../../scenarios/${name}`, import.meta.url));

async function load(h: Harness, name: string) {
  const res = await h.http().put('/_emulator/scenario').send(readScenarioFile(file(name)));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.loaded).toBe(true);
}

async function advanceBy(h: Harness, by: string) {
  const res = await h.http().post('/_emulator/clock/advance').send({ by });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { now: string; fired: { kind: string; step?: string; onboarding_id?: string; skipped?: string }[] };
}

/** Every event of one onboarding, oldest first, with the minutes since the start of the test. */
async function timeline(h: Harness, id: string, key: string = KEYS.owner) {
  const all: { type: string; created_at: string; data: Record<string, unknown> }[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = await h.as(key).get(`/v1/events?limit=100${cursor ? `&starting_after=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    if (!res.body.has_more) break;
    cursor = res.body.data.at(-1).id;
  }
  return all
    .filter((e) => e.data.onboarding_id === id)
    .map((e) => ({ type: e.type, at: (Date.parse(e.created_at) - Date.parse(FROZEN_START)) / 60_000 }));
}

const types = (t: { type: string }[]) => t.map((e) => e.type);

const SUBMITTED = ['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required'];
const THREE_APPROVALS = ['onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approval_given', 'onboarding.approved'];
const SIGNED_AND_SENT = ['contract.sent', 'contract.signed_by_employee', 'onboarding.contract_signed', 'contract.signed'];
const COMPLETED = ['integration.sync_succeeded', 'payroll.completed', 'onboarding.completed'];

describe('ready scenarios', () => {
  it('happy-path: the whole journey, each event at its scripted minute', async () => {
    const h = harness();
    await load(h, 'happy-path.yaml');
    const id = await createOnboarding(h);
    const { fired } = await advanceBy(h, '1d');
    expect(fired.filter((f) => f.kind === 'scenario.step' && f.onboarding_id === id).map((f) => f.step)).toEqual([
      'employee_opened', 'employee_submitted', 'identity_verified', 'approval_given', 'approval_given', 'approval_given',
      'contract_sent', 'employee_signed', 'employer_signed', 'payroll_completed',
    ]);
    const t = await timeline(h, id);
    expect(types(t)).toEqual(['onboarding.created', 'onboarding.started', ...SUBMITTED, ...THREE_APPROVALS, ...SIGNED_AND_SENT, ...COMPLETED]);
    // opens +60, submits +90, identity +105, approvals +165/+225/+285, sent +295, signs +415, employer +475, payroll +480.
    expect(t.map((e) => e.at)).toEqual([0, 60, 90, 90, 90, 165, 225, 285, 285, 295, 415, 475, 475, 480, 480, 480]);
    const o = await readOnboarding(h, id);
    expect(o.status).toBe('completed');
    expect(o.payroll).toMatchObject({ status: 'succeeded' });
    // Its expectation: every onboarding created since it was loaded (not the fixtures') completed within the day.
    const report = (await h.http().get('/_emulator/scenario/report')).body;
    expect(report).toMatchObject({ scenario: 'happy-path', passed: 1, failed: 0, pending: 0 });
    expect(report.expectations[0].details).toEqual([
      { subject: id, status: 'passed', due_at: '2026-10-06T09:00:00.000Z', seen_at: '2026-10-05T17:00:00.000Z', reason: 'reached completed at 2026-10-05T17:00:00.000Z, 8h after its creation' },
    ]);
  });

  it('returned-for-correction: returned to the employee once, submitted again, completed', async () => {
    const h = harness();
    await load(h, 'returned-for-correction.yaml');
    const id = await createOnboarding(h);
    await advanceBy(h, '2d');
    expect(types(await timeline(h, id))).toEqual([
      'onboarding.created', 'onboarding.started', ...SUBMITTED, 'onboarding.returned', ...SUBMITTED, ...THREE_APPROVALS,
      ...SIGNED_AND_SENT, ...COMPLETED,
    ]);
    const o = await readOnboarding(h, id);
    expect(o.status).toBe('completed');
    expect(o.data_version).toBe(3);
  });

  it('terms-changed-after-approval: terms change lapses the approvals, the review runs again, completed with the new wage', async () => {
    const h = harness();
    await load(h, 'terms-changed-after-approval.yaml');
    const id = await createOnboarding(h);
    await advanceBy(h, '2d');
    expect(types(await timeline(h, id))).toEqual([
      'onboarding.created', 'onboarding.started', ...SUBMITTED, ...THREE_APPROVALS,
      'onboarding.terms_changed', 'onboarding.approval_required', ...THREE_APPROVALS, ...SIGNED_AND_SENT, ...COMPLETED,
    ]);
    const o = await readOnboarding(h, id);
    expect(o.status).toBe('completed');
    expect((o.employment as { hourly_wage_cents: number }).hourly_wage_cents).toBe(2450);
    expect(o.data_version).toBe(3);
  });

  it('payroll-failure-then-recovery: action_required with the scripted code and connector, resolved a day later', async () => {
    const h = harness();
    await load(h, 'payroll-failure-then-recovery.yaml');
    const id = await createOnboarding(h);
    await advanceBy(h, '12h');
    let o = await readOnboarding(h, id);
    expect(o.status).toBe('action_required');
    expect(o.payroll).toMatchObject({ status: 'failed', connector: 'nmbrs', error_code: 'bsn_invalid' });
    const failedAt = (await timeline(h, id)).at(-1)!.at;
    await advanceBy(h, '1d');
    const t = await timeline(h, id);
    expect(types(t)).toEqual([
      'onboarding.created', 'onboarding.started', ...SUBMITTED, ...THREE_APPROVALS, ...SIGNED_AND_SENT,
      'integration.sync_failed', 'onboarding.failed', ...COMPLETED,
    ]);
    expect(t.at(-1)!.at - failedAt).toBe(24 * 60);
    o = await readOnboarding(h, id);
    expect(o.status).toBe('completed');
    expect(o.payroll).toMatchObject({ status: 'resolved', error_code: 'bsn_invalid' });
    const report = (await h.http().get('/_emulator/scenario/report')).body;
    expect(report.expectations.map((e: { name: string; status: string }) => [e.name, e.status])).toEqual([
      ['payroll fails the same day', 'passed'], ['the fix completes it within two days', 'passed'],
    ]);
  });

  it('employee-never-opens: nothing happens after creation; the link expires and opening it is refused', async () => {
    const h = harness();
    await load(h, 'employee-never-opens.yaml');
    const id = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true, expires_in_hours: 48 } });
    const { fired } = await advanceBy(h, '20d');
    expect(fired.some((f) => f.kind === 'scenario.step' && f.onboarding_id === id)).toBe(false);
    expect(types(await timeline(h, id))).toEqual(['onboarding.created', 'onboarding.invitation_sent']);
    const o = await readOnboarding(h, id);
    expect(o.status).toBe('pending_employee');
    expect(Date.parse((o.hosted_link as { expires_at: string }).expires_at)).toBe(Date.parse(FROZEN_START) + 48 * 3_600_000);
    const open = await h.http().post(`/_emulator/onboardings/${id}/employee/open`).send({});
    expect(open.status).toBe(409);
    expect(open.body.error.code).toBe('hosted_link_expired');
  });

  it('slow-employer-signature: waits in awaiting_employer_signature for five days, then completes', async () => {
    const h = harness();
    await load(h, 'slow-employer-signature.yaml');
    const id = await createOnboarding(h);
    await advanceBy(h, '4d');
    expect((await readOnboarding(h, id)).status).toBe('awaiting_employer_signature');
    await advanceBy(h, '2d');
    const t = await timeline(h, id);
    expect(types(t)).toEqual(['onboarding.created', 'onboarding.started', ...SUBMITTED, ...THREE_APPROVALS, ...SIGNED_AND_SENT, ...COMPLETED]);
    const employeeSigned = t.find((e) => e.type === 'contract.signed_by_employee')!.at;
    expect(t.find((e) => e.type === 'onboarding.contract_signed')!.at - employeeSigned).toBe(5 * 24 * 60);
    expect((await readOnboarding(h, id)).status).toBe('completed');
  });

  it('partner-flow: the partner’s onboardings play out and the partner sees every event; others are left alone', async () => {
    const h = harness();
    await load(h, 'partner-flow.yaml');
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    const created = await partner.post('/v1/onboardings', createBody({ metadata: { source: 'partner-app' } }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const other = await createOnboarding(h);
    await advanceBy(h, '1d');
    expect((await readOnboarding(h, id)).status).toBe('awaiting_employer_signature');
    await advanceBy(h, '1d');
    const seen = await partner.get('/v1/events?limit=100');
    expect(seen.status).toBe(200);
    expect((seen.body.data as { type: string; data: { onboarding_id: string } }[]).filter((e) => e.data.onboarding_id === id).map((e) => e.type)).toEqual([
      'onboarding.created', 'onboarding.started', ...SUBMITTED, ...THREE_APPROVALS, ...SIGNED_AND_SENT, ...COMPLETED,
    ]);
    expect((await readOnboarding(h, id)).status).toBe('completed');
    expect(types(await timeline(h, other))).toEqual(['onboarding.created']);
  });
});
