import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import { payrollSucceed } from '../onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { JOURNEY_STEPS, nextJourneyStep, type JourneyStep, type NextStep } from '../onboardings/onboardings.next-step.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';

/**
 * POST /v1/sandbox/onboardings/{id}/advance: plays the next step of the life cycle, one per
 * call, in journey order (docs/decisions.md, Reviews and sandbox), as the journey planner
 * (onboardings.next-step.ts) works it out. The sandbox plays the service's test users, so the
 * organization's API-approvals switch does not apply.
 */

/** The documented step names, in journey order. */
export const SANDBOX_STEPS = JOURNEY_STEPS;

export interface Advanced {
  step: JourneyStep;
  onboarding: OnboardingRecord;
}

export function advanceSandbox(ws: Workspace, p: Principal, id: string, baseUrl: string): Advanced {
  if (p.environment !== 'test') {
    throw fail('sandbox_test_keys_only', 'The sandbox works with test keys (hrs_test_) only.');
  }
  const next = planned(ws, getOnboarding(ws, p, id), baseUrl);
  return { step: next.step, onboarding: next.run() };
}

/** More steps than any journey without corrections has; a bound, so a loop can never run away. */
const MAX_STEPS = 50;

/**
 * Plays an onboarding through every remaining step to `completed`, payroll succeeding, as
 * staff that was on the payroll before the emulator started (fixtures).
 */
export function playToCompletion(ws: Workspace, r: OnboardingRecord, baseUrl?: string): OnboardingRecord {
  let current = r;
  for (let i = 0; i < MAX_STEPS && current.status !== 'completed'; i++) {
    current = current.status === 'processing' ? payrollSucceed(ws, current) : planned(ws, current, baseUrl).run();
  }
  if (current.status !== 'completed') throw fail('invalid_transition', `${r.id} could not be played to completed (it is ${current.status}).`);
  return current;
}

/** The next step, or the refusal of an onboarding with none left. */
function planned(ws: Workspace, r: OnboardingRecord, baseUrl?: string): NextStep {
  const next = nextJourneyStep(ws, r, { baseUrl });
  if (next) return next;
  if (r.status === 'completed' || r.status === 'cancelled') throw fail('sandbox_finished', `The onboarding is ${r.status}; the sandbox has no step left.`);
  throw fail('invalid_transition', 'Every required approval is in; nothing is left to review.');
}
