import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import type { Role, User } from '../organizations/organizations.model.js';
import {
  approve, employeeOpen, employeeSign, employeeSubmit, employerSign, managerCorrect, payrollFail, payrollSucceed,
  resolveAction, sendContract, verifyIdentity,
} from '../onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';
import { payrollOutcome } from '../onboardings/onboardings.payroll.js';

/**
 * POST /v1/sandbox/onboardings/{id}/advance: plays the next step of the life cycle, one per
 * call, in the journey order of SANDBOX_STEPS (docs/decisions.md, Reviews and sandbox). Every
 * step goes through the same life-cycle function a person would trigger, so the events are the
 * real ones. The sandbox plays the service's test users, so the organization's API-approvals
 * switch does not apply.
 */

/** The documented step names (docs/decisions.md), in journey order. */
export const SANDBOX_STEPS = [
  'employee_opened',
  'employee_submitted',
  'manager_corrected',
  'identity_verified',
  'approval_given',
  'contract_sent',
  'employee_signed',
  'employer_signed',
  'payroll_completed',
  'payroll_failed',
  'payroll_resolved',
] as const;
type SandboxStep = (typeof SANDBOX_STEPS)[number];

export interface Advanced {
  step: SandboxStep;
  onboarding: OnboardingRecord;
}

export function advanceSandbox(ws: Workspace, p: Principal, id: string, baseUrl: string): Advanced {
  if (p.environment !== 'test') {
    throw fail('sandbox_test_keys_only', 'The sandbox works with test keys (hrs_test_) only.');
  }
  const r = getOnboarding(ws, p, id);
  const [step, act] = nextStep(ws, r, baseUrl);
  return { step, onboarding: act() };
}

type Planned = [SandboxStep, () => OnboardingRecord];

/** More steps than any journey without corrections has; a bound, so a loop can never run away. */
const MAX_STEPS = 50;

/**
 * Plays an onboarding through every remaining step to `completed`, payroll succeeding, as
 * staff that was on the payroll before the emulator started (fixtures).
 */
export function playToCompletion(ws: Workspace, r: OnboardingRecord, baseUrl?: string): OnboardingRecord {
  let current = r;
  for (let i = 0; i < MAX_STEPS && current.status !== 'completed'; i++) {
    current = current.status === 'processing' ? payrollSucceed(ws, current) : nextStep(ws, current, baseUrl)[1]();
  }
  if (current.status !== 'completed') throw fail('invalid_transition', `${r.id} could not be played to completed (it is ${current.status}).`);
  return current;
}

/** Which step comes next follows from the stored facts alone, so any mix of API and sandbox works. */
function nextStep(ws: Workspace, r: OnboardingRecord, baseUrl?: string): Planned {
  switch (r.status) {
    case 'pending_employee':
      // Also after a return to the employee: the link was opened before, so the data is sent again.
      return r.started_at ? ['employee_submitted', () => employeeSubmit(ws, r)] : ['employee_opened', () => employeeOpen(ws, r)];
    case 'in_review':
      return reviewStep(ws, r);
    case 'contract_ready':
      return ['contract_sent', () => sendContract(ws, r, baseUrl)];
    case 'awaiting_employee_signature':
      return ['employee_signed', () => employeeSign(ws, r)];
    case 'awaiting_employer_signature':
      return ['employer_signed', () => employerSign(ws, r)];
    case 'processing': {
      // Decided when the step is planned, which is right before it runs (advanceSandbox).
      const outcome = payrollOutcome(ws, r);
      return outcome.fail
        ? ['payroll_failed', () => payrollFail(ws, r, outcome.error_code)]
        : ['payroll_completed', () => payrollSucceed(ws, r)];
    }
    case 'action_required':
      // The simulated payroll administrator fixes the problem and processing is redone.
      return ['payroll_resolved', () => resolveAction(ws, r)];
    case 'completed':
    case 'cancelled':
      throw fail('sandbox_finished', `The onboarding is ${r.status}; the sandbox has no step left.`);
  }
}

function reviewStep(ws: Workspace, r: OnboardingRecord): Planned {
  if (r.returned_to === 'manager') return ['manager_corrected', () => managerCorrect(ws, r)];
  if (!r.identity_verified_at) return ['identity_verified', () => verifyIdentity(ws, r)];
  // Template order. In review a required role is always open (the last approval leaves the
  // review; templates need at least one role), so the refusal below is a safety net only.
  const role = r.required_roles.find((want) => !r.approvals.some((a) => a.role === want && a.data_version === r.data_version));
  if (!role) throw fail('invalid_transition', 'Every required approval is in; nothing is left to review.');
  return ['approval_given', () => approve(ws, r, testUser(ws, r, role), role, r.data_version)];
}

/**
 * A user of the organization holding the role who has not approved this data_version yet
 * (four-eyes), in fixture order; else a synthetic sandbox user that is never stored.
 */
export function testUser(ws: Workspace, r: OnboardingRecord, role: Role): User {
  const approvedBy = new Set(r.approvals.filter((a) => a.data_version === r.data_version).map((a) => a.user_id));
  const member = ws.store.users
    .values()
    .find((u) => u.organization_id === r.organization_id && u.roles.includes(role) && !approvedBy.has(u.id));
  return member ?? {
    id: `usr_sandbox_${role}`,
    organization_id: r.organization_id,
    name: `Sandbox ${role}`,
    email: `${role}@sandbox.invalid`,
    roles: [role],
  };
}
