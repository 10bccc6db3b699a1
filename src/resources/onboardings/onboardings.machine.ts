import type { ErrorCode } from '../../core/errors.js';
import { ONBOARDING_STATUSES, TERMINAL_STATUSES, type OnboardingStatus } from './onboardings.model.js';

/**
 * The pure transition table. Each trigger names the statuses it is allowed from and where it
 * leads; everything else is refused with a specific code. The life-cycle triggers of the
 * design's section 7 join this table as they are built.
 */
export type Trigger = 'cancel' | 'new_hosted_link';

interface Rule {
  from: readonly OnboardingStatus[];
  /** Undefined keeps the status. */
  to?: OnboardingStatus;
}

const NON_TERMINAL = ONBOARDING_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s));

export const TRANSITIONS: Record<Trigger, Rule> = {
  cancel: { from: NON_TERMINAL, to: 'cancelled' },
  // The employee needs a link while filling in and while signing.
  new_hosted_link: { from: ['pending_employee', 'awaiting_employee_signature'] },
};

export type Decision =
  | { ok: true; to: OnboardingStatus }
  | { ok: false; code: ErrorCode; message: string };

export function decide(status: OnboardingStatus, trigger: Trigger): Decision {
  const rule = TRANSITIONS[trigger];
  if (rule.from.includes(status)) return { ok: true, to: rule.to ?? status };
  return { ok: false, ...refusal(status, trigger) };
}

function refusal(status: OnboardingStatus, trigger: Trigger): { code: ErrorCode; message: string } {
  if (status === 'cancelled') return { code: 'onboarding_cancelled', message: `The onboarding is cancelled; ${describe(trigger)} is no longer possible.` };
  if (status === 'completed') return { code: 'onboarding_completed', message: `The onboarding is completed; ${describe(trigger)} is no longer possible.` };
  return {
    code: 'hosted_link_unavailable',
    message: `A new hosted link can only be made while the employee must act (status ${status}).`,
  };
}

function describe(trigger: Trigger): string {
  return trigger === 'cancel' ? 'cancelling' : 'a new hosted link';
}
