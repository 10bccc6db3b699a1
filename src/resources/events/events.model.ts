import type { Environment } from '../organizations/organizations.model.js';
import type { Metadata } from '../common.schemas.js';

/** Spec section Events: every type, the older names included (sent as separate events). */
export const EVENT_TYPES = [
  'onboarding.created',
  'onboarding.invitation_sent',
  'onboarding.started',
  'onboarding.employee_submitted',
  'onboarding.submitted',
  'onboarding.approval_required',
  'onboarding.returned',
  'onboarding.approval_given',
  'onboarding.approved',
  'onboarding.terms_changed',
  'contract.sent',
  'contract.signed_by_employee',
  'onboarding.contract_signed',
  'contract.signed',
  'integration.sync_succeeded',
  'payroll.completed',
  'integration.sync_failed',
  'onboarding.failed',
  'onboarding.completed',
  'onboarding.cancelled',
  'ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The older names, each sent right after its current name as an event of its own. */
export const OLDER_NAMES: Partial<Record<EventType, EventType>> = {
  'onboarding.employee_submitted': 'onboarding.submitted',
  'onboarding.contract_signed': 'contract.signed',
  'integration.sync_succeeded': 'payroll.completed',
};

/** Events kept this long on the workspace clock (spec: 30 days). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface EventData {
  onboarding_id: string;
  reference: string | null;
  metadata: Metadata;
  data_version: number | null;
  role?: string;
  returned_to?: string;
  kind?: string;
  connector?: string | null;
  error_code?: string | null;
}

export interface EventRecord {
  id: string;
  seq: number;
  type: EventType;
  created_at: string;
  environment: Environment;
  organization_id: string;
  /** The partner whose key created the onboarding: it may read this event. */
  partner_id: string | null;
  data: EventData;
}
