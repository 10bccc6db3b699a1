import type { ContractType, Environment, Role } from '../organizations/organizations.model.js';
import type { Metadata } from '../common.schemas.js';

export const ONBOARDING_STATUSES = [
  'pending_employee',
  'in_review',
  'contract_ready',
  'awaiting_employee_signature',
  'awaiting_employer_signature',
  'processing',
  'action_required',
  'completed',
  'cancelled',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];
export const TERMINAL_STATUSES: readonly OnboardingStatus[] = ['completed', 'cancelled'];

/** Documented values for what the spec leaves "not shown" (docs/decisions.md). */
export const PAYROLL_STATUSES = ['processing', 'succeeded', 'failed', 'resolved'] as const;
type PayrollStatus = (typeof PAYROLL_STATUSES)[number];
export const STEP_PHASES = ['employee', 'review', 'contract', 'payroll'] as const;
export const STEP_KINDS = ['invitation', 'form', 'identity_check', 'approval', 'contract', 'signature', 'payroll_sync'] as const;
export type StepPhase = (typeof STEP_PHASES)[number];
export type StepKind = (typeof STEP_KINDS)[number];

export interface HostedLinkRecord {
  token: string;
  /** The one-time code the employee confirms the link with. */
  code: string;
  created_at: string;
  expires_at: string;
  activated_at: string | null;
  revoked_at: string | null;
  /**
   * The hosted pages' bookkeeping of the one-time code (docs/decisions.md "Hosted pages"),
   * absent until the page is first opened: when the current code was mailed by the page, the
   * wrong attempts at it (void at 5), and the page sessions a correct code started.
   */
  code_sent_at?: string | null;
  code_attempts?: number;
  sessions?: string[];
}

/** What the employee fills in on the hosted form (fictitious data); never in the API's rendering. */
export interface EmployeeDetails {
  street: string;
  house_number: string;
  postcode: string;
  city: string;
  birth_date: string;
  iban: string;
  bsn: string;
  /** The upload as received: only its metadata is kept; the document serves the bundled sample file. */
  identity_document: { file_name: string; content_type: string; size: number } | null;
}

interface ApprovalRecord {
  role: Role;
  user_id: string;
  data_version: number;
  at: string;
}

export interface DocumentRecord {
  id: string;
  kind: string;
  title: string | null;
  uploaded_at: string;
  downloadable: boolean;
  /** File name under fixtures/documents. */
  file: string;
}

/**
 * The one stored state of an onboarding: facts with their instants. Everything the API shows
 * (waiting_on, steps, contract.status, hosted_link.status, ...) is derived from it in the view.
 */
export interface OnboardingRecord {
  id: string;
  seq: number;
  environment: Environment;
  organization_id: string;
  partner_id: string | null;
  created_by_key: string;
  source: 'api' | 'dashboard';
  status: OnboardingStatus;
  returned_to: 'employee' | 'manager' | null;
  employee: { id: string; first_name: string; last_name: string; email: string; phone: string | null };
  employment: {
    position: string;
    location_id: string;
    start_date: string;
    contract_type: ContractType;
    hours_per_week: number;
    hourly_wage_cents: number;
  };
  workflow: { template_id: string; version: number };
  required_roles: Role[];
  data_version: number;
  started_at: string | null;
  submitted_at: string | null;
  identity_verified_at: string | null;
  approvals: ApprovalRecord[];
  contract: { sent_at: string | null; employee_signed_at: string | null; employer_signed_at: string | null };
  payroll: {
    status: PayrollStatus;
    connector: string | null;
    external_id: string | null;
    error_code: string | null;
  } | null;
  hosted_link: HostedLinkRecord | null;
  /** Tokens of links replaced by a newer one, so the hosted page can say "replaced" (410), not "unknown". */
  replaced_link_tokens?: string[];
  /** The employee's data from the hosted form (absent when submitted otherwise: sandbox, control API). */
  employee_details?: EmployeeDetails | null;
  /** The reviewer's reason when the data was returned for correction; cleared by the next submission. */
  return_reason?: string | null;
  invitation_sent: boolean;
  reference: string | null;
  metadata: Metadata;
  /**
   * The metadata as given at creation, which every event carries (the spec's message table);
   * a PATCH changes `metadata` only. Absent in snapshots taken before it was kept: then `metadata`.
   */
  creation_metadata?: Metadata;
  return_url: string | null;
  documents: DocumentRecord[];
  cancelled_at: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Longest reason a reviewer can give when returning data for correction (control API and review page). */
export const RETURN_REASON_MAX = 1000;
