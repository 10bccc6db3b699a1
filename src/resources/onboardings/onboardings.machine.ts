import type { ErrorCode } from '../../core/errors.js';
import type { EventType } from '../events/events.model.js';
import { ONBOARDING_STATUSES, TERMINAL_STATUSES, type OnboardingStatus } from './onboardings.model.js';

/**
 * The one pure transition table of the onboarding life cycle (docs/architecture.md, "A write").
 * Every change of an onboarding, from the API, the sandbox, the control API or a scenario, is
 * one of these triggers; the events listed are emitted by the one emitter (older names are
 * added there). Guards that need more than the status (four-eyes, data_version, link validity)
 * live in the services.
 */
export type Trigger =
  | 'create'
  | 'create_and_invite'
  | 'employee_open'
  | 'employee_submit'
  | 'verify_identity'
  | 'approve'
  | 'approve_last'
  | 'return_to_employee'
  | 'return_to_manager'
  | 'manager_correct'
  | 'change_terms'
  | 'send_contract'
  | 'employee_sign'
  | 'employer_sign'
  | 'payroll_succeed'
  | 'payroll_fail'
  | 'resolve'
  | 'cancel'
  | 'new_hosted_link'
  | 'new_hosted_link_sent'
  | 'send_reminder';

interface Rule {
  from: readonly OnboardingStatus[];
  /** Undefined keeps the status. */
  to?: OnboardingStatus;
  events: readonly EventType[];
  /** The 409 code when the status does not allow the trigger (terminal statuses have their own). */
  refusal: ErrorCode;
  refusalText: string;
}

const NON_TERMINAL = ONBOARDING_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));
const EMPLOYEE_ACTS: readonly OnboardingStatus[] = ['pending_employee', 'awaiting_employee_signature'];

export const TRANSITIONS: Record<Trigger, Rule> = {
  create: { from: [], to: 'pending_employee', events: ['onboarding.created'], refusal: 'invalid_transition', refusalText: 'An onboarding is created only once' },
  create_and_invite: { from: [], to: 'pending_employee', events: ['onboarding.created', 'onboarding.invitation_sent'], refusal: 'invalid_transition', refusalText: 'An onboarding is created only once' },
  employee_open: { from: ['pending_employee'], events: ['onboarding.started'], refusal: 'employee_not_pending', refusalText: 'The employee can open the link only while the onboarding waits for the employee' },
  employee_submit: { from: ['pending_employee'], to: 'in_review', events: ['onboarding.employee_submitted', 'onboarding.approval_required'], refusal: 'employee_not_pending', refusalText: 'The employee can submit only while the onboarding waits for the employee' },
  verify_identity: { from: ['in_review'], events: [], refusal: 'not_in_review', refusalText: 'The identity check is confirmed during the review' },
  approve: { from: ['in_review'], events: ['onboarding.approval_given'], refusal: 'not_in_review', refusalText: 'Approvals are given during the review' },
  approve_last: { from: ['in_review'], to: 'contract_ready', events: ['onboarding.approval_given', 'onboarding.approved'], refusal: 'not_in_review', refusalText: 'Approvals are given during the review' },
  return_to_employee: { from: ['in_review'], to: 'pending_employee', events: ['onboarding.returned'], refusal: 'not_in_review', refusalText: 'Only an onboarding in review can be returned for correction' },
  return_to_manager: { from: ['in_review'], events: ['onboarding.returned'], refusal: 'not_in_review', refusalText: 'Only an onboarding in review can be returned for correction' },
  manager_correct: { from: ['in_review'], events: ['onboarding.approval_required'], refusal: 'not_in_review', refusalText: 'The manager corrects data returned during the review' },
  change_terms: { from: ['in_review', 'contract_ready'], to: 'in_review', events: ['onboarding.terms_changed', 'onboarding.approval_required'], refusal: 'terms_locked', refusalText: 'Employment terms can change only in review or before the contract is sent' },
  send_contract: { from: ['contract_ready'], to: 'awaiting_employee_signature', events: ['contract.sent'], refusal: 'contract_not_ready', refusalText: 'The contract can be sent once every approval is in (status contract_ready)' },
  employee_sign: { from: ['awaiting_employee_signature'], to: 'awaiting_employer_signature', events: ['contract.signed_by_employee'], refusal: 'not_awaiting_employee_signature', refusalText: 'The employee signs after the contract was sent' },
  employer_sign: { from: ['awaiting_employer_signature'], to: 'processing', events: ['onboarding.contract_signed'], refusal: 'not_awaiting_employer_signature', refusalText: 'The employer signs after the employee' },
  payroll_succeed: { from: ['processing'], to: 'completed', events: ['integration.sync_succeeded', 'onboarding.completed'], refusal: 'not_processing', refusalText: 'Payroll processing runs after both signatures' },
  payroll_fail: { from: ['processing'], to: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'], refusal: 'not_processing', refusalText: 'Payroll processing runs after both signatures' },
  resolve: { from: ['action_required'], to: 'completed', events: ['integration.sync_succeeded', 'onboarding.completed'], refusal: 'not_action_required', refusalText: 'Only an onboarding whose payroll processing needs an action can be resolved' },
  cancel: { from: NON_TERMINAL, to: 'cancelled', events: ['onboarding.cancelled'], refusal: 'invalid_transition', refusalText: 'The onboarding is finished' },
  new_hosted_link: { from: EMPLOYEE_ACTS, events: [], refusal: 'hosted_link_unavailable', refusalText: 'A new hosted link can be made only while the employee must act' },
  new_hosted_link_sent: { from: EMPLOYEE_ACTS, events: ['onboarding.invitation_sent'], refusal: 'hosted_link_unavailable', refusalText: 'A new hosted link can be made only while the employee must act' },
  send_reminder: { from: EMPLOYEE_ACTS, events: ['onboarding.invitation_sent'], refusal: 'hosted_link_unavailable', refusalText: 'A reminder can be sent only while the employee must act' },
};

export type Decision =
  | { ok: true; to: OnboardingStatus; events: readonly EventType[] }
  | { ok: false; code: ErrorCode; message: string };

export function decide(status: OnboardingStatus | null, trigger: Trigger): Decision {
  const rule = TRANSITIONS[trigger];
  if (status === null) {
    return rule.from.length === 0 ? { ok: true, to: rule.to!, events: rule.events } : { ok: false, code: 'invalid_transition', message: 'No such onboarding.' };
  }
  if (rule.from.includes(status)) return { ok: true, to: rule.to ?? status, events: rule.events };
  if (status === 'cancelled') return { ok: false, code: 'onboarding_cancelled', message: `The onboarding is cancelled. ${rule.refusalText}.` };
  if (status === 'completed') return { ok: false, code: 'onboarding_completed', message: `The onboarding is completed. ${rule.refusalText}.` };
  return { ok: false, code: rule.refusal, message: `${rule.refusalText} (status is ${status}).` };
}
