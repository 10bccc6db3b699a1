/** Organizations, their users and API keys, as the fixtures describe them. */

/** The payroll error_code an organization's payroll failure answers when its settings name none. */
export const DEFAULT_PAYROLL_FAILURE_CODE = 'connector_unavailable';

export const ROLES = ['manager', 'payroll_reviewer', 'owner'] as const;
export type Role = (typeof ROLES)[number];
/** The roles that review an onboarding (open the dossier, sign in on the review page); every role, today. */
export const REVIEWING_ROLES: readonly Role[] = [...ROLES];

/** The spec's scope table (section Authentication). */
export const SCOPES = [
  'approvals:read',
  'approvals:write',
  'contracts:write',
  'documents:read',
  'employees:read',
  'integrations:read',
  'onboardings:read',
  'onboardings:write',
  'organization:read',
  'reviews:embed',
  'webhooks:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

export const CONTRACT_TYPES = ['on_call', 'fixed_term', 'permanent'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];

export type Environment = 'test' | 'live';
type SubscriptionStatus = 'active' | 'trial' | 'none';

interface Location {
  id: string;
  name: string;
  city: string;
}

interface Template {
  id: string;
  name: string;
  contract_type: ContractType;
  cao: string;
  version: number;
  /** Roles whose approval the four-eyes review needs, in the order they are asked. */
  approval_roles: Role[];
}

export interface Admission {
  organization_id: string;
  scopes: Scope[];
  /** False once the employer ended the relationship. */
  active: boolean;
}

export interface Organization {
  id: string;
  kind: 'employer' | 'partner';
  name: string;
  subscription: SubscriptionStatus;
  trial_ends_at: string | null;
  api_approvals: boolean;
  allowed_origins: string[];
  branding: { color: string | null; logo_url: string | null };
  locations: Location[];
  templates: Template[];
  payroll_connector: string;
  /** When enabled, payroll processing fails with this code (sandbox and scenarios). */
  payroll_failure: { enabled: boolean; error_code: string };
  /** For partners: the employers that admitted them. */
  admitted_by: Admission[];
}

export interface User {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  roles: Role[];
}

export interface ApiKey {
  key: string;
  name: string;
  environment: Environment;
  organization_id: string;
  user_id: string | null;
  scopes: Scope[];
  api_version: string;
}

export function environmentOfKey(key: string): Environment {
  return key.startsWith('hrs_live_') ? 'live' : 'test';
}
