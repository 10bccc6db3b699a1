import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import { paginate, type Page } from '../../core/pagination.js';
import { DEFAULT_BASE_URL } from '../../core/product.js';
import { nextSequence } from '../../core/store.js';
import type { Workspace } from '../../core/workspace.js';
import { DEFAULT_PAGE_LIMIT, type Metadata } from '../common.schemas.js';
import type { EmployeeRecord } from '../employees/employees.model.js';
import type { HostedLinkRecord, OnboardingRecord, OnboardingStatus } from './onboardings.model.js';
import { transition } from './onboardings.transitions.js';
import { sendMail } from './onboardings.outbox.js';
import type {
  CreateOnboardingBody, HostedLinkBody, ListOnboardingsQuery, PatchOnboardingBody,
} from './onboardings.schemas.js';
import { EXPIRES_IN_HOURS } from './onboardings.schemas.js';
import { checkMetadataValues, checkReturnUrl, mergeMetadata } from './onboardings.rules.js';

const HOUR_MS = 60 * 60 * 1000;

export interface CreateOptions {
  /** Fixtures give their onboardings, and the employees they bring, well-known ids. */
  id?: string;
  employeeId?: string;
  source?: 'api' | 'dashboard';
  /** Base of the links put into mails. */
  baseUrl?: string;
}

/** POST /v1/onboardings: every check first, then one write (no partial writes). */
export function createOnboarding(
  ws: Workspace,
  p: Principal,
  body: CreateOnboardingBody,
  options: CreateOptions = {},
): OnboardingRecord {
  requireSubscription(ws, p);
  const org = p.organization;
  const { employee, employment } = body;
  if (!org.locations.some((l) => l.id === employment.location_id)) {
    throw fail('location_unknown', `employment.location_id: ${employment.location_id} is not a location of ${org.id}.`, 'employment.location_id');
  }
  const template = org.templates.find((t) => t.id === employment.template_id);
  if (!template) {
    throw fail('template_unknown', `employment.template_id: ${employment.template_id} is not a template of ${org.id}.`, 'employment.template_id');
  }
  const metadata = body.metadata ?? {};
  checkMetadataValues(metadata);
  const returnUrl = body.options?.return_url ?? null;
  if (returnUrl !== null) checkReturnUrl(returnUrl, p);
  if (options.id && ws.store.onboardings.has(options.id)) {
    throw fail('parameter_invalid', `id: ${options.id} is already taken.`, 'id');
  }
  if (options.employeeId && ws.store.employees.has(options.employeeId)) {
    throw fail('parameter_invalid', `employee_id: ${options.employeeId} is already taken.`, 'employee_id');
  }

  const now = ws.now();
  const id = options.id ?? ws.ids.id('onb');
  const employeeId = options.employeeId ?? ws.ids.id('emp');
  const seq = nextSequence(ws.store);
  const invite = body.options?.send_invitation ?? false;
  const build = (status: OnboardingStatus): OnboardingRecord => ({
    id,
    seq,
    environment: p.environment,
    organization_id: org.id,
    partner_id: p.partner?.id ?? null,
    created_by_key: p.key.key,
    source: options.source ?? 'api',
    status,
    returned_to: null,
    employee: {
      id: employeeId,
      first_name: employee.first_name,
      last_name: employee.last_name,
      email: employee.email,
      phone: employee.phone ?? null,
    },
    employment: {
      position: employment.position,
      location_id: employment.location_id,
      start_date: employment.start_date,
      contract_type: employment.contract_type ?? template.contract_type,
      hours_per_week: employment.hours_per_week,
      hourly_wage_cents: employment.hourly_wage_cents,
    },
    workflow: { template_id: template.id, version: template.version },
    required_roles: [...template.approval_roles],
    data_version: 1,
    started_at: null,
    submitted_at: null,
    identity_verified_at: null,
    approvals: [],
    contract: { sent_at: null, employee_signed_at: null, employer_signed_at: null },
    payroll: null,
    hosted_link: newHostedLink(ws, body.options?.expires_in_hours),
    invitation_sent: invite,
    reference: body.reference ?? null,
    metadata: { ...metadata },
    creation_metadata: { ...metadata },
    return_url: returnUrl,
    documents: [],
    cancelled_at: null,
    completed_at: null,
    created_at: now,
    updated_at: now,
  });
  const record = transition(ws, null, invite ? 'create_and_invite' : 'create', build, { kind: 'invitation' });
  if (invite) sendMail(ws, record, 'invitation', options.baseUrl ?? DEFAULT_BASE_URL);
  const employeeRecord: EmployeeRecord = {
    id: employeeId,
    seq,
    environment: record.environment,
    organization_id: org.id,
    partner_id: record.partner_id,
    first_name: employee.first_name,
    last_name: employee.last_name,
    position: employment.position,
    location_id: employment.location_id,
    start_date: employment.start_date,
    onboarding_id: id,
  };
  ws.store.employees.put(employeeRecord);
  return record;
}

function requireSubscription(ws: Workspace, p: Principal): void {
  const running = (org: { subscription: string; trial_ends_at: string | null }) =>
    org.subscription === 'active' ||
    (org.subscription === 'trial' && (org.trial_ends_at === null || Date.parse(org.trial_ends_at) > ws.clock.nowMs()));
  // The paying party is the employer, or the partner acting for it.
  if (running(p.organization) || (p.partner && running(p.partner))) return;
  throw fail('subscription_required', 'Creating an onboarding needs a running trial or a subscription.');
}

function newHostedLink(ws: Workspace, hours: number = EXPIRES_IN_HOURS.default): HostedLinkRecord {
  const now = ws.clock.nowMs();
  return {
    token: ws.ids.token(),
    code: ws.ids.code(6),
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + hours * HOUR_MS).toISOString(),
    activated_at: null,
    revoked_at: null,
  };
}

export function getOnboarding(ws: Workspace, p: Principal, id: string): OnboardingRecord {
  const r = ws.store.onboardings.get(id);
  if (!r || !visibleTo(r, p)) throw fail('resource_not_found', `No onboarding with id ${id}.`, 'id');
  return r;
}

/** Newest first, cancelled ones included. */
export function listOnboardings(ws: Workspace, p: Principal, q: ListOnboardingsQuery): Page<OnboardingRecord> {
  const visible = ws.store.onboardings.values().filter((r) => visibleTo(r, p)).reverse();
  const since = q.updated_since === undefined ? undefined : Date.parse(q.updated_since);
  return paginate(visible, (r) => r.id, q, {
    defaultLimit: DEFAULT_PAGE_LIMIT,
    filter: (r) =>
      (q.status === undefined || r.status === q.status) &&
      (q.reference === undefined || r.reference === q.reference) &&
      (since === undefined || Date.parse(r.updated_at) >= since),
  });
}

/** PATCH: reference and metadata only; data_version stays, so approvals stay valid. */
export function patchOnboarding(ws: Workspace, p: Principal, id: string, body: PatchOnboardingBody): OnboardingRecord {
  const r = getOnboarding(ws, p, id);
  let metadata: Metadata = r.metadata;
  if (body.metadata !== undefined) metadata = mergeMetadata(r.metadata, body.metadata);
  return ws.store.onboardings.put({
    ...r,
    reference: body.reference === undefined ? r.reference : body.reference,
    metadata,
    updated_at: ws.now(),
  });
}

/** A new link revokes the previous one (only the current link is kept). */
export function renewHostedLink(ws: Workspace, p: Principal, id: string, body: HostedLinkBody, baseUrl = DEFAULT_BASE_URL): OnboardingRecord {
  const r = getOnboarding(ws, p, id);
  const send = body.send_invitation === true;
  const next = transition(ws, r, send ? 'new_hosted_link_sent' : 'new_hosted_link', () => ({
    ...r,
    hosted_link: newHostedLink(ws, body.expires_in_hours),
    ...(r.hosted_link ? { replaced_link_tokens: [...(r.replaced_link_tokens ?? []), r.hosted_link.token] } : {}),
    invitation_sent: r.invitation_sent || send,
  }), { kind: 'new_link' });
  if (send) sendMail(ws, next, 'new_link', baseUrl);
  return next;
}

export function cancelOnboarding(ws: Workspace, p: Principal, id: string): OnboardingRecord {
  return cancelRecord(ws, getOnboarding(ws, p, id));
}

/** Cancelling revokes the open link. */
export function cancelRecord(ws: Workspace, r: OnboardingRecord): OnboardingRecord {
  const now = ws.now();
  return transition(ws, r, 'cancel', () => ({
    ...r,
    cancelled_at: now,
    hosted_link: r.hosted_link && (r.hosted_link.revoked_at ? r.hosted_link : { ...r.hosted_link, revoked_at: now }),
  }));
}
