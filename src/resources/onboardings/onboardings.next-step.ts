import type { Workspace } from '../../core/workspace.js';
import type { Role, User } from '../organizations/organizations.model.js';
import {
  approve, employeeOpen, employeeSign, employeeSubmit, employerSign, managerCorrect, payrollFail, payrollSucceed,
  resolveAction, sendContract, verifyIdentity,
} from './onboardings.lifecycle.js';
import type { OnboardingRecord } from './onboardings.model.js';
import { payrollOutcome } from './onboardings.payroll.js';

/**
 * The next step of an onboarding's journey, worked out from its stored facts alone, so any mix
 * of API calls, sandbox steps and scripted steps continues from where the onboarding really is.
 * One planner for the sandbox (which plays the step at once) and the scenario autopilot (which
 * times it and may put a correction or a change of terms before it). Each step runs through the
 * same life-cycle function a person would trigger, so the events are the real ones.
 */

/** The journey's step names, in journey order (the sandbox documents them). */
export const JOURNEY_STEPS = [
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
export type JourneyStep = (typeof JOURNEY_STEPS)[number];

export interface NextStep {
  step: JourneyStep;
  /** The onboarding's role still to approve, on an approval step. */
  role?: Role;
  run: () => OnboardingRecord;
}

export interface PlanOptions {
  /** Where the contract mail's link points. */
  baseUrl?: string | undefined;
  /**
   * How the payroll step is named when it is planned ahead of its run: the outcome is decided
   * when it runs (a payroll_down fault set in between fails it as any other run). Left out, the
   * outcome is decided now and names the step, for a step played at once.
   */
  payrollStep?: 'payroll_completed' | 'payroll_failed';
}

/** The next step, or null when nothing is left to do by itself (no approval open, or the onboarding has ended). */
export function nextJourneyStep(ws: Workspace, r: OnboardingRecord, options: PlanOptions = {}): NextStep | null {
  switch (r.status) {
    case 'pending_employee':
      // Also after a return to the employee: the link was opened before, so the data is sent again.
      return r.started_at ? { step: 'employee_submitted', run: () => employeeSubmit(ws, r) } : { step: 'employee_opened', run: () => employeeOpen(ws, r) };
    case 'in_review':
      return reviewStep(ws, r);
    case 'contract_ready':
      return { step: 'contract_sent', run: () => sendContract(ws, r, options.baseUrl) };
    case 'awaiting_employee_signature':
      return { step: 'employee_signed', run: () => employeeSign(ws, r) };
    case 'awaiting_employer_signature':
      return { step: 'employer_signed', run: () => employerSign(ws, r) };
    case 'processing': {
      if (options.payrollStep) {
        return {
          step: options.payrollStep,
          run: () => {
            const outcome = payrollOutcome(ws, r);
            return outcome.fail ? payrollFail(ws, r, outcome.error_code) : payrollSucceed(ws, r);
          },
        };
      }
      const outcome = payrollOutcome(ws, r);
      return outcome.fail
        ? { step: 'payroll_failed', run: () => payrollFail(ws, r, outcome.error_code) }
        : { step: 'payroll_completed', run: () => payrollSucceed(ws, r) };
    }
    case 'action_required':
      // The simulated payroll administrator fixes the problem and processing is redone.
      return { step: 'payroll_resolved', run: () => resolveAction(ws, r) };
    case 'completed':
    case 'cancelled':
      return null;
  }
}

function reviewStep(ws: Workspace, r: OnboardingRecord): NextStep | null {
  if (r.returned_to === 'manager') return { step: 'manager_corrected', run: () => managerCorrect(ws, r) };
  if (!r.identity_verified_at) return { step: 'identity_verified', run: () => verifyIdentity(ws, r) };
  // Template order. In review a required role is always open (the last approval leaves the
  // review; templates need at least one role), so null here is a safety net only.
  const role = r.required_roles.find((want) => !r.approvals.some((a) => a.role === want && a.data_version === r.data_version));
  if (!role) return null;
  return { step: 'approval_given', role, run: () => approve(ws, r, testUser(ws, r, role), role, r.data_version) };
}

/**
 * A user of the organization holding the role who has not approved this data_version yet
 * (four-eyes), in fixture order; else a synthetic test user that is never stored.
 */
function testUser(ws: Workspace, r: OnboardingRecord, role: Role): User {
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
