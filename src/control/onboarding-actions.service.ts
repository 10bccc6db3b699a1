import { dashboardPrincipal } from '../resources/organizations/organizations.access.js';
import { ApiError, fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import { DEFAULT_PAYROLL_FAILURE_CODE, type Role, type User } from '../resources/organizations/organizations.model.js';
import * as life from '../resources/onboardings/onboardings.lifecycle.js';
import { decide, type Trigger } from '../resources/onboardings/onboardings.machine.js';
import type { OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import { cancelRecord, createOnboarding } from '../resources/onboardings/onboardings.service.js';
import { payrollOutcome } from '../resources/onboardings/onboardings.payroll.js';
import { hostedUrl, renderOnboarding } from '../resources/onboardings/onboardings.view.js';
import {
  TermsBody, type ApproveBody, type DashboardCreateBody, type PayrollFailBody, type ReturnBody, type VerifyBody,
} from './onboarding-actions.schemas.js';
import type { ActionName } from './inspect.schemas.js';

/**
 * What people do outside the API (the web dashboard, the employee on the hosted pages, the
 * back office, payroll), for tests to drive. Every action goes through the same life-cycle
 * functions as the API, so refusals are the state machine's 409s.
 */

/** The control API sees every onboarding of its workspace, whoever created it. */
export function findOnboarding(ws: Workspace, id: string): OnboardingRecord {
  const r = ws.store.onboardings.get(id);
  if (!r) throw fail('resource_not_found', `No onboarding with id ${id} in workspace ${ws.id}.`, 'id');
  return r;
}

type FullOnboarding = ReturnType<typeof renderOnboarding>;

/** The full rendering: the dashboard shows the dossier. */
export const renderFull = (r: OnboardingRecord): FullOnboarding => renderOnboarding(r, { list: false, dossier: true });

export function dashboardCreate(ws: Workspace, body: DashboardCreateBody, baseUrl: string): FullOnboarding & { hosted_url: string } {
  const { organization_id, environment = 'test', ...request } = body;
  const org = ws.store.organizations.get(organization_id);
  if (!org || org.kind !== 'employer') {
    throw fail('organization_unknown', `organization_id: ${organization_id} is not an employer in workspace ${ws.id}.`, 'organization_id');
  }
  const r = createOnboarding(ws, dashboardPrincipal(org, environment), request, { source: 'dashboard', baseUrl });
  return { ...renderFull(r), hosted_url: hostedUrl(r, baseUrl) };
}

/** A person of the onboarding's organization holding the role they act in. */
function memberWithRole(ws: Workspace, r: OnboardingRecord, userId: string, role: Role): User {
  const user = ws.store.users.get(userId);
  if (!user || user.organization_id !== r.organization_id) {
    throw fail('user_unknown', `user_id: ${userId} is not a user of ${r.organization_id}.`, 'user_id');
  }
  if (!user.roles.includes(role)) {
    throw fail('user_lacks_role', `user_id: ${userId} does not hold the role ${role} (roles: ${user.roles.join(', ') || 'none'}).`, 'user_id');
  }
  return user;
}

/**
 * Asks the machine before a life-cycle function that reads state only some statuses have
 * (payroll facts exist from the employer's signature on), so a refusal is its 409.
 */
export function requireAllowed(r: OnboardingRecord, trigger: Trigger): void {
  const decision = decide(r.status, trigger);
  if (!decision.ok) throw fail(decision.code, decision.message);
}

export type Action<B> = (ws: Workspace, r: OnboardingRecord, body: B, baseUrl: string) => OnboardingRecord;

export const sendContract: Action<unknown> = (ws, r, _body, baseUrl) => life.sendContract(ws, r, baseUrl);
export const employeeSign: Action<unknown> = (ws, r) => life.employeeSign(ws, r);
export const managerCorrect: Action<unknown> = (ws, r) => life.managerCorrect(ws, r);
export const returnForCorrection: Action<ReturnBody> = (ws, r, body) => life.returnForCorrection(ws, r, body.to, body.reason);
export const employerSign: Action<unknown> = (ws, r) => life.employerSign(ws, r);
export const resolveAction: Action<unknown> = (ws, r) => life.resolveAction(ws, r);
export const sendReminder: Action<unknown> = (ws, r, _body, baseUrl) => life.sendReminder(ws, r, baseUrl);
export const cancel: Action<unknown> = (ws, r) => cancelRecord(ws, r);

export const changeTerms: Action<TermsBody> = (ws, r, body) => life.changeTerms(ws, r, body);

/**
 * change-terms changes at least one term: the row's guard, so it is checked with the body,
 * before the onboarding is looked up, on every way in (an empty change would still lapse the
 * approvals and send the onboarding back to review).
 */
export function requireTerms(body: unknown): void {
  if (body !== null && typeof body === 'object' && Object.keys(body).length === 0) {
    throw fail('parameter_missing', `Give at least one of ${Object.keys(TermsBody.properties as object).join(', ')}.`);
  }
}

/** The identity check is the manager's; a named user must be one. */
export const verifyIdentity: Action<VerifyBody> = (ws, r, body) => {
  if (body.user_id !== undefined) memberWithRole(ws, r, body.user_id, 'manager');
  return life.verifyIdentity(ws, r);
};

/** An approval in the dashboard: four-eyes and data_version rules as for the API. */
export const approve: Action<ApproveBody> = (ws, r, body) => {
  const user = memberWithRole(ws, r, body.user_id, body.role);
  return life.approve(ws, r, user, body.role, body.data_version ?? r.data_version);
};

/**
 * Completes payroll processing whatever the organization's payroll_failure switch says, but
 * not while a payroll_down fault has the connector down: then this run fails with its code.
 */
export const payrollComplete: Action<unknown> = (ws, r) => {
  requireAllowed(r, 'payroll_succeed');
  const outcome = payrollOutcome(ws, r, 'requested');
  return outcome.fail ? life.payrollFail(ws, r, outcome.error_code) : life.payrollSucceed(ws, r);
};

export const payrollFail: Action<PayrollFailBody> = (ws, r, body) => {
  requireAllowed(r, 'payroll_fail');
  const org = ws.store.organizations.get(r.organization_id);
  return life.payrollFail(ws, r, body.error_code ?? org?.payroll_failure.error_code ?? DEFAULT_PAYROLL_FAILURE_CODE);
};

/** False when `check` refuses (throws the action's own error); other failures are bugs and propagate. */
function passes(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
}

/** Someone of the organization could give a required approval still missing, four-eyes kept. */
function someoneMayApprove(ws: Workspace, r: OnboardingRecord): boolean {
  const people = ws.store.users.values().filter((u) => u.organization_id === r.organization_id);
  return r.required_roles.some((role) => people.some((u) => u.roles.includes(role) && passes(() => life.checkApprove(r, u, role, r.data_version))));
}

/**
 * What each action checks beyond the machine's table, as far as the record tells: the same
 * check functions the life cycle's actions call first. An action that takes a body is asked for
 * the body that could succeed (no code, the current data_version, any member in any role). No
 * entry: the status decides alone. Opening a link already opened is left out too: it succeeds
 * but changes nothing.
 */
const GUARDS: Partial<Record<ActionName, (ws: Workspace, r: OnboardingRecord) => boolean>> = {
  'employee/open': (ws, r) => passes(() => life.checkOpen(ws, r)) && !life.linkOpened(r),
  'employee/submit': (_ws, r) => passes(() => life.checkSubmit(r)),
  'verify-identity': (_ws, r) => passes(() => life.checkVerify(r)),
  approve: someoneMayApprove,
  return: (_ws, r) => passes(() => life.requireReviewing(r)),
  'manager/correct': (_ws, r) => passes(() => life.checkCorrect(r)),
  'payroll/fail': (_ws, r) => passes(() => life.checkPayrollFail(r)),
};

/**
 * Whether the action would be taken, once the machine's table admits its trigger in the
 * onboarding's status (the caller asks decide() first).
 */
export function guardsPass(ws: Workspace, r: OnboardingRecord, action: ActionName): boolean {
  return GUARDS[action]?.(ws, r) ?? true;
}
