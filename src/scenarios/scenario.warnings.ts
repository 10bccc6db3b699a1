import type { ScenarioDocument, ScenarioMatch, ScenarioRule } from './scenario.schemas.js';

/**
 * Parts of a valid scenario that can do nothing as written. The document still loads: each is
 * most likely a slip (a rule below a catch-all, a step scripted after one written as never),
 * but it costs nothing to leave in, so it is reported beside the answer instead of refused.
 */
export interface ScenarioWarning {
  path: string;
  message: string;
}

export function scenarioWarnings(doc: ScenarioDocument): ScenarioWarning[] {
  if (doc.rules.length === 0) {
    return [{ path: 'rules', message: 'there are no rules: nothing is driven but the onboardings of magic e-mail addresses' }];
  }
  return doc.rules.flatMap((rule, i) => {
    const shadow = doc.rules.slice(0, i).findIndex((earlier) => covers(earlier.match, rule.match));
    if (shadow >= 0) {
      return [{ path: `rules[${i}]`, message: `never drives an onboarding: rules[${shadow}] matches every onboarding this rule matches, and the first rule that matches wins` }];
    }
    return [...afterNever(rule, `rules[${i}]`), ...unusedErrorCode(rule, `rules[${i}]`)];
  });
}

/** The conditions of a match, compared as the matcher reads them: patterns ignore case. */
function conditions(m: ScenarioMatch): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const key of ['reference', 'email', 'name'] as const) if (m[key] !== undefined) out.set(key, m[key].toLowerCase());
  if (m.template !== undefined) out.set('template', m.template);
  for (const [k, v] of Object.entries(m.metadata ?? {})) out.set(`metadata.${k}`, v);
  return out;
}

/** Every condition of `earlier` is one of `later`'s, so whatever `later` matches, `earlier` matched first. */
function covers(earlier: ScenarioMatch, later: ScenarioMatch): boolean {
  const theirs = conditions(later);
  return [...conditions(earlier)].every(([k, v]) => theirs.has(k) && theirs.get(k) === v);
}

/**
 * The steps of one run in the order they happen, each with its path in the rule. A later step
 * only ever plays once the onboarding got past the earlier ones.
 */
function stepsOf(rule: ScenarioRule): { path: string; value: unknown }[] {
  const { employee, review, contract, payroll } = rule;
  const termsWhen = review?.terms_change ? (review.terms_change.when ?? 'in_review') : undefined;
  const approvals = typeof review?.approvals === 'object' ? undefined : review?.approvals;
  return [
    { path: 'employee.opens', value: employee?.opens },
    { path: 'employee.submits', value: employee?.submits },
    { path: 'review.identity_check', value: review?.identity_check },
    { path: 'review.corrections.after', value: review?.corrections?.after },
    ...(review?.corrections?.to === 'manager' ? [{ path: 'review.manager_corrects', value: review.manager_corrects }] : []),
    ...(termsWhen === 'in_review' ? [{ path: 'review.terms_change.after', value: review?.terms_change?.after }] : []),
    // A delay per role depends on the roles a template requires: only one delay for all is known to be never.
    { path: 'review.approvals', value: approvals },
    ...(termsWhen === 'after_approval' ? [{ path: 'review.terms_change.after', value: review?.terms_change?.after }] : []),
    { path: 'contract.sent', value: contract?.sent },
    { path: 'employee.signs', value: employee?.signs },
    { path: 'contract.employer_signs', value: contract?.employer_signs },
    { path: 'payroll.after', value: payroll?.after },
    { path: 'payroll.resolved', value: payroll?.resolved },
  ];
}

/**
 * A step written as `never` stops the script there: the steps scripted after it play only if
 * someone else (a test, the sandbox, a page) takes that step. Only an explicit `never` counts:
 * leaving a step out is the documented way to leave it to the test and script the ones after.
 */
function afterNever(rule: ScenarioRule, at: string): ScenarioWarning[] {
  const steps = stepsOf(rule);
  const stop = steps.findIndex((s) => s.value === 'never');
  if (stop < 0) return [];
  const later = steps.slice(stop + 1).filter((s) => s.value !== undefined && s.value !== 'never').map((s) => s.path);
  if (later.length === 0) return [];
  return [{
    path: `${at}.${steps[stop]!.path}`,
    message: `is never, so what is scripted after it (${later.join(', ')}) plays only if something else takes this step; leave it out instead of never if your test takes it`,
  }];
}

/** The scripted error code is given only to a failure the script asks for. */
function unusedErrorCode(rule: ScenarioRule, at: string): ScenarioWarning[] {
  const payroll = rule.payroll;
  if (payroll?.error_code === undefined || payroll.outcome === 'failure') return [];
  return [{ path: `${at}.payroll.error_code`, message: 'is used only with outcome: failure; another failure (the payroll_failure switch, a payroll_down fault) has its own code' }];
}
