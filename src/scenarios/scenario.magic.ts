import type { ScenarioRule } from './scenario.schemas.js';

/**
 * Magic e-mail addresses (docs/scenarios.md): the part before the @ (and before any +tag)
 * picks a ready outcome, so a test needs no scenario file. Each plays the whole journey on the
 * workspace clock with the delays of HAPPY_PATH, changed where the outcome differs.
 */

/** The journey with realistic delays: about a working day from invitation to payroll. */
const HAPPY_PATH: Omit<ScenarioRule, 'match'> = {
  employee: { opens: '1h', submits: '30m', signs: '2h' },
  review: { identity_check: '15m', approvals: '1h' },
  contract: { sent: '10m', employer_signs: '1h' },
  payroll: { outcome: 'success', after: '5m' },
};

const merge = (over: Partial<Omit<ScenarioRule, 'match'>>): Omit<ScenarioRule, 'match'> => ({
  employee: { ...HAPPY_PATH.employee, ...over.employee },
  review: { ...HAPPY_PATH.review, ...over.review },
  contract: { ...HAPPY_PATH.contract, ...over.contract },
  payroll: { ...HAPPY_PATH.payroll, ...over.payroll },
});

export const MAGIC_ADDRESSES = {
  'happy-path': { summary: 'the whole journey to completed', rule: merge({}) },
  'never-opens': { summary: 'the employee never opens the link; it expires', rule: merge({ employee: { opens: 'never' } }) },
  'never-submits': { summary: 'the employee opens the link but never submits', rule: merge({ employee: { submits: 'never' } }) },
  'returned': { summary: 'returned to the employee once, then the journey goes on', rule: merge({ review: { corrections: { to: 'employee', times: 1, after: '30m' } } }) },
  'returned-to-manager': { summary: 'returned to the manager once, corrected after 1h', rule: merge({ review: { corrections: { to: 'manager', times: 1, after: '30m' }, manager_corrects: '1h' } }) },
  'terms-changed': { summary: 'hourly wage raised after the last approval; approved again', rule: merge({ review: { terms_change: { when: 'after_approval', after: '30m', terms: { hourly_wage_cents: 2500 } } } }) },
  'never-approved': { summary: 'the review never gives its approvals', rule: merge({ review: { approvals: 'never' } }) },
  'slow-employer': { summary: 'the employer signs 3 days after the employee', rule: merge({ contract: { employer_signs: '3d' } }) },
  'payroll-fail': { summary: 'payroll fails (payroll_rejected) and stays action_required', rule: merge({ payroll: { outcome: 'failure', error_code: 'payroll_rejected' } }) },
  'payroll-fail-recover': { summary: 'payroll fails, then is resolved a day later', rule: merge({ payroll: { outcome: 'failure', error_code: 'payroll_rejected', resolved: '1d' } }) },
} satisfies Record<string, { summary: string; rule: Omit<ScenarioRule, 'match'> }>;

export type MagicName = keyof typeof MAGIC_ADDRESSES;

function magicNameOf(email: string): MagicName | null {
  const local = email.split('@')[0]!.split('+')[0]!.toLowerCase();
  return Object.hasOwn(MAGIC_ADDRESSES, local) ? (local as MagicName) : null;
}

const DRIVERS = new Map(Object.entries(MAGIC_ADDRESSES).map(([name, m]) => [name, { id: `magic:${name}`, rule: { match: { all: true as const }, ...m.rule } }]));

export function magicRuleFor(email: string): { id: string; rule: ScenarioRule } | null {
  const name = magicNameOf(email);
  return name ? DRIVERS.get(name)! : null;
}
