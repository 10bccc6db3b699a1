import { fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import type { Role, User } from '../organizations/organizations.model.js';
import type { DocumentRecord, EmployeeDetails, OnboardingRecord } from './onboardings.model.js';
import type { TermsBody } from './onboardings.schemas.js';
import { DEFAULT_BASE_URL } from '../../core/product.js';
import { transition } from './onboardings.transitions.js';
import { sendMail } from './onboardings.outbox.js';
import { scriptedPayroll } from './onboardings.hooks.js';
import { isManualEntry, MANUAL_CONNECTOR } from './onboardings.payroll.js';

/**
 * What employees, reviewers, the employer and payroll do to an onboarding, one function per
 * action of the life-cycle table (onboardings.machine.ts). Each checks what the status alone
 * cannot tell, then goes through the one transition applier. The API, the sandbox, the control
 * API and the hosted pages all call these.
 */

/** Documents the emulator attaches, with the small real files shipped in fixtures/documents. */
const DOCUMENTS = {
  identity_document: { title: 'Copy of identity document', file: 'identity-document.jpg', downloadable: false },
  photo: { title: 'Photo for the staff pass', file: 'photo.jpg', downloadable: true },
  payroll_tax_form: { title: 'Payroll tax form', file: 'payroll-tax-form.pdf', downloadable: true },
  contract: { title: 'Employment contract', file: 'contract.pdf', downloadable: true },
  signature: { title: 'Signature of the employee', file: 'signature.png', downloadable: true },
} as const;
type DocumentKind = keyof typeof DOCUMENTS;

function attach(ws: Workspace, r: OnboardingRecord, kinds: DocumentKind[]): DocumentRecord[] {
  const have = new Set(r.documents.map((d) => d.kind));
  const added = kinds
    .filter((k) => !have.has(k))
    .map((kind) => ({ id: ws.ids.id('doc'), kind, ...DOCUMENTS[kind], uploaded_at: ws.now() }));
  return [...r.documents, ...added];
}

/** Wrong one-time codes a link takes before its code is void and a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

/** Why an employee's link cannot be used: the onboarding ended, or the link was replaced, revoked or expired. */
export type LinkRefusal = 'cancelled' | 'completed' | 'replaced' | 'revoked' | 'expired';

/**
 * The one reading of a hosted link's validity, for the pages and for opening through the API:
 * undefined when the link (`token`: one the employee holds, else the current one) can be used.
 */
export function linkRefusal(ws: Workspace, r: OnboardingRecord, token?: string): LinkRefusal | undefined {
  if (r.status === 'cancelled' || r.status === 'completed') return r.status;
  const link = r.hosted_link;
  if (token !== undefined && link?.token !== token) return 'replaced';
  if (!link || link.revoked_at) return 'revoked';
  if (Date.parse(link.expires_at) <= ws.clock.nowMs()) return 'expired';
  return undefined;
}

/**
 * What refuses the employee's opening of the link beyond the status: a replaced, revoked or
 * expired link. The action checks it first; the control API asks it to offer only what would
 * succeed. The one-time code is checked, and its wrong attempts counted, where it is typed
 * (onboardings.hosted-access.ts), before the opening.
 */
export function checkOpen(ws: Workspace, r: OnboardingRecord): void {
  if (r.status !== 'pending_employee') return; // the machine's refusal
  const refused = linkRefusal(ws, r);
  if (refused === 'revoked') throw fail('hosted_link_revoked', 'The hosted link was replaced or revoked; use the newest link.');
  if (refused === 'expired') throw fail('hosted_link_expired', `The hosted link expired at ${r.hosted_link!.expires_at}.`);
}

/** The link was opened already: opening it again succeeds and changes nothing. */
export const linkOpened = (r: OnboardingRecord): boolean => r.status === 'pending_employee' && !!r.hosted_link?.activated_at;

/** The employee opens the hosted link (after the one-time code, where one is typed). */
export function employeeOpen(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  checkOpen(ws, r);
  if (linkOpened(r)) return r;
  const link = r.hosted_link;
  const now = ws.now();
  return transition(ws, r, 'employee_open', () => ({
    ...r,
    started_at: r.started_at ?? now,
    hosted_link: link && { ...link, activated_at: link.activated_at ?? now },
  }));
}

/**
 * The employee sends the data: a new data version, review starts (again). The hosted form
 * passes what was filled in; a new upload replaces the identity document of an earlier round.
 */
export interface EmployeeSubmission {
  details: EmployeeDetails;
  /** A new identity document was uploaded: it replaces the one of an earlier round. */
  newDocument: boolean;
}

/** The employee submits only after opening the link. */
export function checkSubmit(r: OnboardingRecord): void {
  if (r.status === 'pending_employee' && !r.started_at) {
    throw fail('employee_not_started', 'The employee has not opened the hosted link yet.');
  }
}

export function employeeSubmit(ws: Workspace, r: OnboardingRecord, submission?: EmployeeSubmission): OnboardingRecord {
  checkSubmit(r);
  return transition(ws, r, 'employee_submit', () => ({
    ...r,
    submitted_at: ws.now(),
    data_version: r.data_version + 1,
    returned_to: null,
    return_reason: null,
    // New data means a new identity check.
    identity_verified_at: null,
    ...(submission ? { employee_details: submission.details } : {}),
    documents: attach(ws, submission?.newDocument ? withoutKind(r, 'identity_document') : r, ['identity_document', 'photo', 'payroll_tax_form']),
  }));
}

const withoutKind = (r: OnboardingRecord, kind: DocumentKind): OnboardingRecord => ({ ...r, documents: r.documents.filter((d) => d.kind !== kind) });

/** The review waits while the data is back with the manager; returning it is refused then too. */
export function requireReviewing(r: OnboardingRecord): void {
  if (r.status === 'in_review' && r.returned_to === 'manager') {
    throw fail('returned_to_manager', 'The data was returned to the manager for correction; the review waits for it.');
  }
}

export function checkVerify(r: OnboardingRecord): void {
  requireReviewing(r);
  if (r.status === 'in_review' && r.identity_verified_at) throw fail('identity_already_verified', 'The identity check is already confirmed for this data.');
}

export function verifyIdentity(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  checkVerify(r);
  return transition(ws, r, 'verify_identity', () => ({ ...r, identity_verified_at: ws.now() }));
}

/** Four-eyes approval: one role per person per data_version, the current version only. */
export function checkApprove(r: OnboardingRecord, user: User, role: Role, dataVersion: number): void {
  if (r.status === 'in_review') {
    requireReviewing(r);
    if (!r.required_roles.includes(role)) throw fail('approval_not_required', `The template does not ask for an approval as ${role}.`, 'role');
    if (dataVersion !== r.data_version) {
      throw fail('data_version_mismatch', `data_version ${dataVersion} is not the current version ${r.data_version}; review the current data.`, 'data_version');
    }
    if (!r.identity_verified_at) throw fail('identity_not_verified', 'The manager must confirm the identity check before approvals.');
    const current = r.approvals.filter((a) => a.data_version === r.data_version);
    if (current.some((a) => a.role === role)) throw fail('approval_already_given', `The ${role} approval for this data_version is already given.`, 'role');
    const other = current.find((a) => a.user_id === user.id);
    if (other) throw fail('four_eyes_violation', `This person already approved as ${other.role}; one person cannot fulfil two roles.`, 'role');
  }
}

export function approve(ws: Workspace, r: OnboardingRecord, user: User, role: Role, dataVersion: number): OnboardingRecord {
  checkApprove(r, user, role, dataVersion);
  const approvals = [...r.approvals, { role, user_id: user.id, data_version: dataVersion, at: ws.now() }];
  const done = r.required_roles.every((req) => approvals.some((a) => a.role === req && a.data_version === r.data_version));
  return transition(ws, r, done ? 'approve_last' : 'approve', () => ({ ...r, approvals }), { role });
}

/** `reason` (optional) is shown to the employee on the hosted form; it is no part of any event. */
export function returnForCorrection(ws: Workspace, r: OnboardingRecord, to: 'employee' | 'manager', reason?: string): OnboardingRecord {
  requireReviewing(r);
  return transition(ws, r, to === 'employee' ? 'return_to_employee' : 'return_to_manager', () => ({ ...r, returned_to: to, return_reason: reason ?? null }), {
    returned_to: to,
  });
}

/** The manager corrects data returned to the manager: a new data version to review. */
export function checkCorrect(r: OnboardingRecord): void {
  if (r.status === 'in_review' && r.returned_to !== 'manager') throw fail('not_returned_to_manager', 'Nothing was returned to the manager.');
}

export function managerCorrect(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  checkCorrect(r);
  return transition(ws, r, 'manager_correct', () => ({ ...r, returned_to: null, return_reason: null, data_version: r.data_version + 1 }));
}

/** Changed terms: a new data version, approvals lapse, review again. */
export function changeTerms(ws: Workspace, r: OnboardingRecord, terms: TermsBody): OnboardingRecord {
  return transition(ws, r, 'change_terms', () => ({
    ...r,
    employment: { ...r.employment, ...terms },
    data_version: r.data_version + 1,
    returned_to: null,
  }));
}

export function sendContract(ws: Workspace, r: OnboardingRecord, baseUrl = DEFAULT_BASE_URL): OnboardingRecord {
  const next = transition(ws, r, 'send_contract', () => ({
    ...r,
    contract: { ...r.contract, sent_at: ws.now() },
    documents: attach(ws, r, ['contract']),
  }));
  sendMail(ws, next, 'contract', baseUrl);
  return next;
}

export function employeeSign(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  return transition(ws, r, 'employee_sign', () => ({
    ...r,
    contract: { ...r.contract, employee_signed_at: ws.now() },
    documents: attach(ws, r, ['signature']),
  }));
}

/** The employer signs; payroll processing starts with the scenario's or the organization's connector. */
export function employerSign(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  const connector = scriptedPayroll(ws, r)?.connector ?? ws.store.organizations.get(r.organization_id)?.payroll_connector ?? MANUAL_CONNECTOR;
  return transition(ws, r, 'employer_sign', () => ({
    ...r,
    contract: { ...r.contract, employer_signed_at: ws.now() },
    payroll: { status: 'processing', connector, external_id: null, error_code: null },
  }));
}

/** Before processing there is no payroll record; the machine refuses such calls with a 409. */
const payrollOf = (r: OnboardingRecord) => r.payroll ?? { status: 'processing' as const, connector: null, external_id: null, error_code: null };

/** The employee is in the payroll administration: on the first run, or after a fix. */
function payrollDone(ws: Workspace, r: OnboardingRecord, trigger: 'payroll_succeed' | 'resolve'): OnboardingRecord {
  const payroll = payrollOf(r);
  return transition(ws, r, trigger, () => ({
    ...r,
    payroll: {
      ...payroll,
      status: trigger === 'resolve' ? 'resolved' : 'succeeded',
      error_code: trigger === 'resolve' ? payroll.error_code : null,
      external_id: payroll.external_id ?? `EXT-${r.employee.id.slice(4, 12).toUpperCase()}`,
    },
    completed_at: ws.now(),
  }), { connector: payroll.connector });
}

export function payrollSucceed(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  return payrollDone(ws, r, 'payroll_succeed');
}

/** Manual entry cannot fail (no integration.sync_failed for it): refused, whoever asks. */
export function checkPayrollFail(r: OnboardingRecord): void {
  if (isManualEntry(r) && r.status === 'processing') {
    throw fail('payroll_manual_entry', `${r.id} is entered into payroll by hand (connector manual), which cannot fail; give the organization or the scenario a payroll connector to test a failure.`);
  }
}

export function payrollFail(ws: Workspace, r: OnboardingRecord, errorCode: string): OnboardingRecord {
  checkPayrollFail(r);
  const payroll = payrollOf(r);
  return transition(ws, r, 'payroll_fail', () => ({ ...r, payroll: { ...payroll, status: 'failed', error_code: errorCode } }), {
    connector: payroll.connector,
    error_code: errorCode,
  });
}

/** action_required resolved: processing is redone and succeeds (the failure's code stays on record). */
export function resolveAction(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  return payrollDone(ws, r, 'resolve');
}

export function sendReminder(ws: Workspace, r: OnboardingRecord, baseUrl = DEFAULT_BASE_URL): OnboardingRecord {
  const next = transition(ws, r, 'send_reminder', () => ({ ...r }), { kind: 'reminder' });
  sendMail(ws, next, 'reminder', baseUrl);
  return next;
}
