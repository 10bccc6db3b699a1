import type { Workspace } from '../../core/workspace.js';
import { scriptedPayroll } from './onboardings.hooks.js';
import type { OnboardingRecord } from './onboardings.model.js';

export type PayrollOutcome = { fail: false } | { fail: true; error_code: string };

/**
 * Who runs payroll: `automatic` for the runs the emulator plays (the sandbox advance, the
 * autopilot), `requested` for the control action payroll/complete, where the test asked for success.
 */
export type PayrollRun = 'automatic' | 'requested';

/** The connector value of manual entry: the employer types the employee into payroll by hand. */
export const MANUAL_CONNECTOR = 'manual';

/**
 * Manual entry has no connector that can be down or answer an error, so the spec sends no
 * integration.sync_failed for it; its runs always complete.
 */
export function isManualEntry(r: OnboardingRecord): boolean {
  return r.payroll?.connector === MANUAL_CONNECTOR;
}

/**
 * The one place that decides whether a payroll run fails (docs/decisions.md, "Fault
 * injection"). A run of manual entry never fails: nothing below applies to it, and a
 * payroll_down fault is not consumed by it. Otherwise, checked in order, the first that applies wins:
 * 1. an active `payroll_down` fault of the workspace: the connector itself is down, so every
 *    run fails, however it was started; the fault is consumed (one run per `count`);
 * 2. the scenario rule (or magic address) driving the onboarding, when it scripts an outcome;
 * 3. the organization's `payroll_failure` switch.
 * 2 and 3 steer the automatic runs only; payroll/complete completes whatever they say.
 */
export function payrollOutcome(ws: Workspace, r: OnboardingRecord, run: PayrollRun = 'automatic'): PayrollOutcome {
  if (isManualEntry(r)) return { fail: false };
  const down = ws.faults.takePayrollDown();
  if (down) return { fail: true, error_code: down.error_code! };
  if (run === 'requested') return { fail: false };
  const scripted = scriptedPayroll(ws, r);
  if (scripted?.outcome === 'failure') return { fail: true, error_code: scripted.error_code };
  if (scripted?.outcome === 'success') return { fail: false };
  const failure = ws.store.organizations.get(r.organization_id)?.payroll_failure;
  if (failure?.enabled) return { fail: true, error_code: failure.error_code };
  return { fail: false };
}
