import { wildcardMatch } from '../core/wildcard.js';
import type { Workspace } from '../core/workspace.js';
import type { ScriptedPayroll } from '../resources/onboardings/onboardings.hooks.js';
import type { OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import { magicRuleFor } from './scenario.magic.js';
import type { ScenarioMatch, ScenarioRule } from './scenario.schemas.js';

/** The rule that drives an onboarding, with a stable name for progress and reports. */
export interface Driver {
  id: string;
  rule: ScenarioRule;
}

export function matches(m: ScenarioMatch, r: OnboardingRecord): boolean {
  if (m.reference !== undefined && (r.reference === null || !wildcardMatch(m.reference, r.reference))) return false;
  if (m.email !== undefined && !wildcardMatch(m.email, r.employee.email)) return false;
  if (m.name !== undefined && !wildcardMatch(m.name, `${r.employee.first_name} ${r.employee.last_name}`)) return false;
  if (m.template !== undefined && r.workflow.template_id !== m.template) return false;
  if (m.metadata !== undefined && !Object.entries(m.metadata).every(([k, v]) => r.metadata[k] === v)) return false;
  return true;
}

/**
 * The first matching rule of the loaded scenario, else the rule of a magic e-mail address.
 * Only test onboardings are driven: live data, like the sandbox, is never played.
 */
export function driverFor(ws: Workspace, r: OnboardingRecord): Driver | null {
  if (r.environment !== 'test') return null;
  const rules = ws.scenario?.document.rules ?? [];
  const i = rules.findIndex((rule) => matches(rule.match, r));
  if (i >= 0) return { id: `rules[${i}]`, rule: rules[i]! };
  return magicRuleFor(r.employee.email);
}

/** The payroll error_code of a scripted failure that names none. */
export const DEFAULT_PAYROLL_ERROR = 'payroll_rejected';

/** The scripted payroll of an onboarding a scenario (or magic address) drives, else null. */
export function scriptedPayroll(ws: Workspace, r: OnboardingRecord): ScriptedPayroll | null {
  const payroll = driverFor(ws, r)?.rule.payroll;
  if (!payroll) return null;
  return {
    ...(payroll.connector ? { connector: payroll.connector } : {}),
    ...(payroll.outcome ? { outcome: payroll.outcome } : {}),
    error_code: payroll.error_code ?? DEFAULT_PAYROLL_ERROR,
  };
}
