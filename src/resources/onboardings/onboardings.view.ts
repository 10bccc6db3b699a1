import { ROLES, type Role } from '../organizations/organizations.model.js';
import { RawJson } from '../../operations/reply.js';
import type { OnboardingRecord, StepKind, StepPhase } from './onboardings.model.js';

/**
 * Renders the public shape of an onboarding (spec section Onboarding). Derived fields come
 * from the record's facts only, so they cannot disagree with `status`.
 */
export interface ViewOptions {
  /** List rendering leaves out steps, documents, e-mail, phone and employment terms (rule 1). */
  list: boolean;
  /** Rule 2: e-mail, phone and terms only for keys that may open the dossier. */
  dossier: boolean;
}

export function renderOnboarding(r: OnboardingRecord, options: ViewOptions) {
  const full = !options.list && options.dossier;
  return {
    id: r.id,
    object: 'onboarding' as const,
    status: r.status,
    waiting_on: waitingOn(r),
    returned: r.returned_to !== null,
    employee: {
      id: r.employee.id,
      first_name: r.employee.first_name,
      last_name: r.employee.last_name,
      ...(full ? { email: r.employee.email, phone: r.employee.phone } : {}),
    },
    employment: {
      position: r.employment.position,
      location_id: r.employment.location_id,
      start_date: r.employment.start_date,
      ...(full
        ? {
            contract_type: r.employment.contract_type,
            hours_per_week: r.employment.hours_per_week,
            hourly_wage_cents: r.employment.hourly_wage_cents,
          }
        : {}),
    },
    workflow: { ...r.workflow },
    data_version: r.data_version,
    approvals: {
      required: [...r.required_roles],
      given: r.approvals.map((a) => ({
        role: a.role,
        valid: a.data_version === r.data_version,
        data_version: a.data_version,
        at: a.at,
      })),
    },
    contract: { status: contractStatus(r) },
    payroll: r.payroll && {
      status: r.payroll.status,
      connector: r.payroll.connector,
      external_id: r.payroll.external_id,
      error_code: r.payroll.error_code,
    },
    hosted_link: r.hosted_link && {
      status: r.hosted_link.revoked_at ? 'revoked' : r.hosted_link.activated_at ? 'activated' : 'open',
      expires_at: r.hosted_link.expires_at,
      activated: r.hosted_link.activated_at !== null,
    },
    reference: r.reference,
    metadata: { ...r.metadata },
    return_url: r.return_url,
    source: r.source,
    created_at: r.created_at,
    updated_at: r.updated_at,
    ...(options.list ? {} : { steps: steps(r), documents: r.documents.map(({ file: _file, ...doc }) => doc) }),
  };
}

/**
 * Records are immutable (every change stores a new one), so a rendering can be kept with its
 * record and reused until the record is replaced: polling an onboarding costs no re-rendering.
 */
const renderings = new WeakMap<OnboardingRecord, Map<string, RawJson>>();

export function renderOnboardingJson(r: OnboardingRecord, options: ViewOptions): RawJson {
  const variant = `${options.list ? 'l' : 's'}${options.dossier ? 'd' : ''}`;
  let byVariant = renderings.get(r);
  if (!byVariant) renderings.set(r, (byVariant = new Map()));
  let raw = byVariant.get(variant);
  if (!raw) byVariant.set(variant, (raw = new RawJson(JSON.stringify(renderOnboarding(r, options)), [r.id])));
  return raw;
}

function validApproval(r: OnboardingRecord, role: Role): boolean {
  return r.approvals.some((a) => a.role === role && a.data_version === r.data_version);
}

/** Spec table "Onboarding status": who must act next. */
export function waitingOn(r: OnboardingRecord): string[] {
  switch (r.status) {
    case 'pending_employee':
    case 'awaiting_employee_signature':
      return ['employee'];
    case 'in_review': {
      if (r.returned_to === 'manager') return ['manager'];
      const open: string[] = r.required_roles.filter((role) => !validApproval(r, role));
      // The identity check is the manager's, and comes before any approval.
      if (!r.identity_verified_at && !open.includes('manager')) open.unshift('manager');
      return open;
    }
    case 'contract_ready':
    case 'awaiting_employer_signature':
      return ['manager'];
    case 'processing':
      return ['system'];
    case 'action_required':
      return ['manager', 'payroll_reviewer'];
    case 'completed':
    case 'cancelled':
      return [];
  }
}

function contractStatus(r: OnboardingRecord): 'none' | 'sent' | 'signed_by_employee' | 'signed' {
  if (r.contract.employer_signed_at) return 'signed';
  if (r.contract.employee_signed_at) return 'signed_by_employee';
  if (r.contract.sent_at) return 'sent';
  return 'none';
}

export interface Step {
  id: string;
  phase: StepPhase;
  kind: StepKind;
  title: string;
  applies: boolean;
  done: boolean;
}

const ROLE_TITLES: Record<Role, string> = {
  manager: 'Approval by the manager',
  payroll_reviewer: 'Approval by the payroll reviewer',
  owner: 'Approval by the owner',
};

/** The documented step list (docs/decisions.md): the same ids in every onboarding. */
function steps(r: OnboardingRecord): Step[] {
  const payrollDone = r.payroll?.status === 'succeeded' || r.payroll?.status === 'resolved';
  return [
    step('employee_opened', 'employee', 'invitation', 'Employee opens the link and confirms the code', true, !!r.started_at),
    step('employee_data', 'employee', 'form', 'Employee fills in and submits the data', true, !!r.submitted_at && r.returned_to !== 'employee'),
    step('identity_check', 'review', 'identity_check', 'Manager confirms the identity check', true, !!r.identity_verified_at),
    ...ROLES.map((role) =>
      step(`approval_${role}`, 'review', 'approval', ROLE_TITLES[role], r.required_roles.includes(role), validApproval(r, role)),
    ),
    step('contract_sent', 'contract', 'contract', 'Contract created and sent for signature', true, !!r.contract.sent_at),
    step('employee_signature', 'contract', 'signature', 'Employee signs the contract', true, !!r.contract.employee_signed_at),
    step('employer_signature', 'contract', 'signature', 'Employer signs the contract', true, !!r.contract.employer_signed_at),
    step('payroll', 'payroll', 'payroll_sync', 'Employee processed into the payroll administration', true, payrollDone),
  ];
}

function step(id: string, phase: StepPhase, kind: StepKind, title: string, applies: boolean, done: boolean): Step {
  return { id, phase, kind, title, applies, done };
}

export function renderCreated(r: OnboardingRecord, baseUrl: string) {
  return {
    id: r.id,
    object: 'onboarding' as const,
    status: 'pending_employee' as const,
    hosted_url: hostedUrl(r, baseUrl),
    expires_at: r.hosted_link!.expires_at,
    invitation_sent: r.invitation_sent,
    reference: r.reference,
    metadata: { ...r.metadata },
  };
}

export function renderHostedLink(r: OnboardingRecord, baseUrl: string, invitationSent: boolean) {
  return {
    onboarding_id: r.id,
    hosted_url: hostedUrl(r, baseUrl),
    expires_at: r.hosted_link!.expires_at,
    invitation_sent: invitationSent,
  };
}

export function hostedUrl(r: OnboardingRecord, baseUrl: string): string {
  return `${baseUrl}/hosted/${r.hosted_link!.token}`;
}
