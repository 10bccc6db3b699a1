import { parseDuration } from '../core/durations.js';
import { installScenarioFaults } from './scenario.faults.js';
import { ApiError } from '../core/errors.js';
import type { Facts } from '../core/scheduler.js';
import type { Timer } from '../core/timers.js';
import type { Workspace } from '../core/workspace.js';
import { inSpan } from '../core/tracing.js';
import { changeTerms, returnForCorrection } from '../resources/onboardings/onboardings.lifecycle.js';
import { nextJourneyStep, type JourneyStep, type NextStep } from '../resources/onboardings/onboardings.next-step.js';
import { TERMINAL_STATUSES, type OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import { DEFAULT_BASE_URL } from '../core/product.js';
import { isManualEntry } from '../resources/onboardings/onboardings.payroll.js';
import type { Role } from '../resources/organizations/organizations.model.js';
import type { AutopilotProgress } from './scenario.model.js';
import { driverFor, type Driver } from './scenario.rules.js';
import type { DelayValue, ScenarioDocument, ScenarioRule } from './scenario.schemas.js';

/**
 * The autopilot (docs/scenarios.md): after every change of an onboarding a scenario drives, it
 * works out the next scripted step from the stored facts and schedules it as one timer, that
 * many milliseconds later on the workspace clock. When the timer fires the step goes through
 * the same life-cycle function a person would trigger, whose transition plans the step after.
 * A change made by anyone else (API, sandbox, control API) replans, so the script always
 * continues from where the onboarding really is.
 */
export const SCENARIO_STEP = 'scenario.step';

/** The journey's steps, and the two only a script adds: a return for correction and a change of terms. */
type ScriptedStep = JourneyStep | 'returned' | 'terms_changed';

interface Planned {
  step: ScriptedStep;
  /** Milliseconds from now; null: never. */
  delay: number | null;
  /** Counts the step in the progress, before it runs, so the replan it causes sees it. */
  count?: (p: AutopilotProgress) => void;
  run: () => OnboardingRecord;
}

const delayOf = (value: DelayValue | undefined): number | null => (value === undefined || value === 'never' ? null : parseDuration(value));

function approvalDelay(approvals: NonNullable<ScenarioRule['review']>['approvals'], role: Role): number | null {
  if (approvals === undefined || typeof approvals !== 'object') return delayOf(approvals);
  return delayOf(approvals[role]);
}

/**
 * Where the employee's mails point when no request gives a base: --public-url, else the base of
 * the onboarding's last mail with a link (path prefix included), else the default address.
 */
function baseUrlOf(ws: Workspace, r: OnboardingRecord): string {
  if (ws.recipe.publicUrl) return ws.recipe.publicUrl;
  for (let i = ws.outbox.length - 1; i >= 0; i--) {
    const m = ws.outbox[i]!;
    const base = m.onboarding_id === r.id && m.link ? /^(.*)\/hosted\/[^/]+$/.exec(m.link)?.[1] : undefined;
    if (base) return base;
  }
  return DEFAULT_BASE_URL;
}

/** The next step the rule scripts for the onboarding as it is now, or null when the rule is silent. */
function nextScripted(ws: Workspace, r: OnboardingRecord, rule: ScenarioRule, p: AutopilotProgress): Planned | null {
  const terms = rule.review?.terms_change;
  const termsNow = (when: 'in_review' | 'after_approval'): Planned | null =>
    terms && !p.terms_changed && (terms.when ?? 'in_review') === when
      ? { step: 'terms_changed', delay: delayOf(terms.after), count: (q) => void (q.terms_changed = true), run: () => changeTerms(ws, r, terms.terms) }
      : null;
  // What only a script does comes before the journey's own step: in review, once the manager's
  // correction and the identity check are done and before the approvals; after approval, before the contract.
  if (r.status === 'in_review' && r.returned_to !== 'manager' && r.identity_verified_at) {
    const c = rule.review?.corrections;
    if (c && p.corrections < (c.times ?? 1)) {
      return { step: 'returned', delay: delayOf(c.after), count: (q) => void q.corrections++, run: () => returnForCorrection(ws, r, c.to) };
    }
    const change = termsNow('in_review');
    if (change) return change;
  }
  if (r.status === 'contract_ready') {
    const change = termsNow('after_approval');
    if (change) return change;
  }
  const next = nextJourneyStep(ws, r, {
    // Only the contract step mails a link; the outbox is read for it alone.
    baseUrl: r.status === 'contract_ready' ? baseUrlOf(ws, r) : undefined,
    // Named by the script; the outcome is decided when the run happens.
    payrollStep: rule.payroll?.outcome === 'failure' && !isManualEntry(r) ? 'payroll_failed' : 'payroll_completed',
  });
  return next && { step: next.step, delay: scriptedDelay(rule, next), run: next.run };
}

/** How long the rule lets a journey step wait; null: it never happens by itself. */
function scriptedDelay(rule: ScenarioRule, next: NextStep): number | null {
  const { employee, review, contract, payroll } = rule;
  switch (next.step) {
    case 'employee_opened':
      return delayOf(employee?.opens);
    case 'employee_submitted':
      return delayOf(employee?.submits);
    case 'manager_corrected':
      return delayOf(review?.manager_corrects);
    case 'identity_verified':
      return delayOf(review?.identity_check);
    case 'approval_given':
      return approvalDelay(review?.approvals, next.role!);
    case 'contract_sent':
      return delayOf(contract?.sent);
    case 'employee_signed':
      return delayOf(employee?.signs);
    case 'employer_signed':
      return delayOf(contract?.employer_signs);
    case 'payroll_completed':
    case 'payroll_failed':
      return delayOf(payroll?.after);
    case 'payroll_resolved':
      return delayOf(payroll?.resolved);
  }
}

const IDLE = { step: null, timer: null, due_at: null } as const;

function progressFor(ws: Workspace, r: OnboardingRecord, driver: Driver): AutopilotProgress {
  const known = ws.autopilot.get(r.id);
  if (known && known.rule === driver.id) return known;
  const fresh: AutopilotProgress = { rule: driver.id, ...IDLE, corrections: 0, terms_changed: false };
  ws.autopilot.set(r.id, fresh);
  return fresh;
}

/** Called after every transition (and for every onboarding when a scenario is loaded). */
export function plan(ws: Workspace, r: OnboardingRecord): void {
  const known = ws.autopilot.get(r.id);
  if (known?.timer != null) {
    ws.timers.cancel(known.timer);
    Object.assign(known, IDLE);
  }
  const driver = TERMINAL_STATUSES.includes(r.status) ? null : driverFor(ws, r);
  if (!driver) return;
  const p = progressFor(ws, r, driver);
  const next = nextScripted(ws, r, driver.rule, p);
  if (!next || next.delay === null) return;
  const timer = ws.scheduler.schedule(SCENARIO_STEP, ws.clock.nowMs() + next.delay, { onboarding_id: r.id, step: next.step });
  Object.assign(p, { step: next.step, timer: timer.seq, due_at: new Date(timer.due).toISOString() });
}

/** Replaces the workspace's scenario (null removes it) and plans every onboarding again from now. */
export function setScenario(ws: Workspace, document: ScenarioDocument | null, source: string): void {
  ws.scenario = document ? { document, source, loaded_at: ws.now(), from_seq: ws.store.sequence.next } : null;
  installScenarioFaults(ws);
  replanAll(ws);
}

function replanAll(ws: Workspace): void {
  for (const p of ws.autopilot.values()) if (p.timer != null) ws.timers.cancel(p.timer);
  ws.autopilot.clear();
  for (const r of ws.store.onboardings.values()) plan(ws, r);
}

/** The `scenario.step` timer: plays the planned step; a refusal is reported, never thrown. */
export function playStep(ws: Workspace, timer: Timer): Facts {
  const id = String(timer.payload.onboarding_id);
  const r = ws.store.onboardings.get(id);
  const p = ws.autopilot.get(id);
  if (!r || !p || p.timer !== timer.seq) return { skipped: 'replanned' };
  Object.assign(p, IDLE);
  const driver = driverFor(ws, r);
  const next = driver && driver.id === p.rule ? nextScripted(ws, r, driver.rule, p) : null;
  if (!next || next.step !== timer.payload.step) {
    plan(ws, r);
    return { skipped: 'state_changed' };
  }
  const before = { ...p };
  next.count?.(p);
  try {
    // With tracing on, a span of its own: the events the step emits join its trace.
    const attributes = { 'emulator.workspace.id': ws.id, 'onboarding.id': id, 'scenario.step': String(timer.payload.step), 'scenario.rule': String(driver!.id) };
    const after = inSpan(SCENARIO_STEP, { attributes }, (span) => {
      const status = next.run().status;
      span.set({ 'onboarding.status': status });
      return status;
    });
    return { status: after };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    Object.assign(p, before, IDLE);
    // The person could not act (an expired link, say): the onboarding waits for someone else.
    return { skipped: err.code };
  }
}
