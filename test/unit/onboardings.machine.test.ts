import { describe, expect, it } from 'vitest';
import { decide, TRANSITIONS, type Trigger } from '../../src/resources/onboardings/onboardings.machine.js';
import { ONBOARDING_STATUSES } from '../../src/resources/onboardings/onboardings.model.js';

/** Every (status, trigger) pair of the table built so far, refusals and their codes included. */
const EXPECTED: Record<Trigger, Partial<Record<(typeof ONBOARDING_STATUSES)[number], string>>> = {
  cancel: {
    pending_employee: 'cancelled',
    in_review: 'cancelled',
    contract_ready: 'cancelled',
    awaiting_employee_signature: 'cancelled',
    awaiting_employer_signature: 'cancelled',
    processing: 'cancelled',
    action_required: 'cancelled',
    completed: 'refused:onboarding_completed',
    cancelled: 'refused:onboarding_cancelled',
  },
  new_hosted_link: {
    pending_employee: 'pending_employee',
    awaiting_employee_signature: 'awaiting_employee_signature',
    in_review: 'refused:hosted_link_unavailable',
    contract_ready: 'refused:hosted_link_unavailable',
    awaiting_employer_signature: 'refused:hosted_link_unavailable',
    processing: 'refused:hosted_link_unavailable',
    action_required: 'refused:hosted_link_unavailable',
    completed: 'refused:onboarding_completed',
    cancelled: 'refused:onboarding_cancelled',
  },
};

const pairs = (Object.keys(TRANSITIONS) as Trigger[]).flatMap((trigger) => ONBOARDING_STATUSES.map((status) => ({ trigger, status })));

describe('the onboarding transition table', () => {
  it.each(pairs)('$trigger from $status', ({ trigger, status }) => {
    const d = decide(status, trigger);
    const got = d.ok ? d.to : `refused:${d.code}`;
    expect(got).toBe(EXPECTED[trigger][status]);
    if (!d.ok) expect(d.message.length).toBeGreaterThan(10);
  });
});
