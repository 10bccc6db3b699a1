import type { Workspace } from '../../src/core/workspace.js';
import {
  approve, employeeOpen, employeeSign, employeeSubmit, employerSign, payrollFail, payrollSucceed, sendContract, verifyIdentity,
} from '../../src/resources/onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../../src/resources/onboardings/onboardings.model.js';
import type { Role } from '../../src/resources/organizations/organizations.model.js';

/**
 * Drives an onboarding through the life cycle directly on a workspace (what the employee,
 * the reviewers and payroll do), for tests of what depends on its state.
 */
const get = (ws: Workspace, id: string): OnboardingRecord => {
  const r = ws.store.onboardings.get(id);
  if (!r) throw new Error(`no onboarding ${id}`);
  return r;
};

/** One fixture user per role of org_acme, so four-eyes holds. */
const ACME_REVIEWERS: Record<Role, string> = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' };

/** The employee opens the link and submits: in_review, with identity document, photo and tax form. */
export function submitted(ws: Workspace, id: string): OnboardingRecord {
  return employeeSubmit(ws, employeeOpen(ws, get(ws, id)));
}

/** Identity confirmed and every required approval given: contract_ready. */
export function approved(ws: Workspace, id: string): OnboardingRecord {
  let r = verifyIdentity(ws, submitted(ws, id));
  for (const role of r.required_roles) r = approve(ws, r, ws.store.users.get(ACME_REVIEWERS[role])!, role, r.data_version);
  return r;
}

/** Contract sent and signed by both: processing, with contract and signature attached. */
export function signed(ws: Workspace, id: string): OnboardingRecord {
  return employerSign(ws, employeeSign(ws, sendContract(ws, approved(ws, id))));
}

export function payrollDone(ws: Workspace, id: string): OnboardingRecord {
  return payrollSucceed(ws, signed(ws, id));
}

export function payrollFailed(ws: Workspace, id: string, code = 'connector_unavailable'): OnboardingRecord {
  return payrollFail(ws, signed(ws, id), code);
}
