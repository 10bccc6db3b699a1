import { describe, expect, it } from 'vitest';
import { decide, TRANSITIONS, type Trigger } from '../../src/resources/onboardings/onboardings.machine.js';
import { ONBOARDING_STATUSES, type OnboardingStatus } from '../../src/resources/onboardings/onboardings.model.js';

/**
 * The onboarding life-cycle table (docs/api.md, The life cycle; docs/decisions.md, Life cycle),
 * written out independently of src/resources/onboardings/onboardings.machine.ts: for each
 * trigger, where it may start, where it leads, its events, and the code of every refusal.
 */
type Row = { from: OnboardingStatus[]; to?: OnboardingStatus; events: string[]; refusal: string };
const IN_REVIEW: OnboardingStatus[] = ['in_review'];
const EMPLOYEE: OnboardingStatus[] = ['pending_employee', 'awaiting_employee_signature'];
const LIVE: OnboardingStatus[] = ['pending_employee', 'in_review', 'contract_ready', 'awaiting_employee_signature', 'awaiting_employer_signature', 'processing', 'action_required'];

const TABLE: Record<Exclude<Trigger, 'create' | 'create_and_invite'>, Row> = {
  employee_open: { from: ['pending_employee'], events: ['onboarding.started'], refusal: 'employee_not_pending' },
  employee_submit: { from: ['pending_employee'], to: 'in_review', events: ['onboarding.employee_submitted', 'onboarding.approval_required'], refusal: 'employee_not_pending' },
  verify_identity: { from: IN_REVIEW, events: [], refusal: 'not_in_review' },
  approve: { from: IN_REVIEW, events: ['onboarding.approval_given'], refusal: 'not_in_review' },
  approve_last: { from: IN_REVIEW, to: 'contract_ready', events: ['onboarding.approval_given', 'onboarding.approved'], refusal: 'not_in_review' },
  return_to_employee: { from: IN_REVIEW, to: 'pending_employee', events: ['onboarding.returned'], refusal: 'not_in_review' },
  return_to_manager: { from: IN_REVIEW, events: ['onboarding.returned'], refusal: 'not_in_review' },
  manager_correct: { from: IN_REVIEW, events: ['onboarding.approval_required'], refusal: 'not_in_review' },
  change_terms: { from: ['in_review', 'contract_ready'], to: 'in_review', events: ['onboarding.terms_changed', 'onboarding.approval_required'], refusal: 'terms_locked' },
  send_contract: { from: ['contract_ready'], to: 'awaiting_employee_signature', events: ['contract.sent'], refusal: 'contract_not_ready' },
  employee_sign: { from: ['awaiting_employee_signature'], to: 'awaiting_employer_signature', events: ['contract.signed_by_employee'], refusal: 'not_awaiting_employee_signature' },
  employer_sign: { from: ['awaiting_employer_signature'], to: 'processing', events: ['onboarding.contract_signed'], refusal: 'not_awaiting_employer_signature' },
  payroll_succeed: { from: ['processing'], to: 'completed', events: ['integration.sync_succeeded', 'onboarding.completed'], refusal: 'not_processing' },
  payroll_fail: { from: ['processing'], to: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'], refusal: 'not_processing' },
  resolve: { from: ['action_required'], to: 'completed', events: ['integration.sync_succeeded', 'onboarding.completed'], refusal: 'not_action_required' },
  cancel: { from: LIVE, to: 'cancelled', events: ['onboarding.cancelled'], refusal: 'invalid_transition' },
  new_hosted_link: { from: EMPLOYEE, events: [], refusal: 'hosted_link_unavailable' },
  new_hosted_link_sent: { from: EMPLOYEE, events: ['onboarding.invitation_sent'], refusal: 'hosted_link_unavailable' },
  send_reminder: { from: EMPLOYEE, events: ['onboarding.invitation_sent'], refusal: 'hosted_link_unavailable' },
};

const pairs = (Object.keys(TABLE) as (keyof typeof TABLE)[]).flatMap((trigger) => ONBOARDING_STATUSES.map((status) => ({ trigger, status })));

describe('the onboarding transition table', () => {
  it('covers every trigger of the machine', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...Object.keys(TABLE), 'create', 'create_and_invite'].sort());
  });

  it.each(pairs)('$trigger from $status', ({ trigger, status }) => {
    const row = TABLE[trigger];
    const d = decide(status, trigger);
    if (row.from.includes(status)) {
      expect(d).toEqual({ ok: true, to: row.to ?? status, events: row.events });
    } else {
      const code = status === 'cancelled' ? 'onboarding_cancelled' : status === 'completed' ? 'onboarding_completed' : row.refusal;
      expect(d).toMatchObject({ ok: false, code });
      if (!d.ok) expect(d.message).toContain(status === 'cancelled' || status === 'completed' ? status : `status is ${status}`);
    }
  });

  it.each(['create', 'create_and_invite'] as const)('%s starts a new onboarding in pending_employee and nowhere else', (trigger) => {
    expect(decide(null, trigger)).toMatchObject({ ok: true, to: 'pending_employee' });
    for (const status of ONBOARDING_STATUSES) expect(decide(status, trigger).ok).toBe(false);
    expect(decide(null, 'cancel').ok).toBe(false);
  });
});
