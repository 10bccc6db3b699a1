import { fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import type { Admission, Organization } from '../resources/organizations/organizations.model.js';
import { originRule, originRules } from '../resources/organizations/organizations.origins.js';
import type { PatchOrganizationBody } from './organization-settings.schemas.js';

/**
 * Organization settings the real service keeps in its back office: API approvals, the
 * subscription, allowed origins, the payroll connector's health, a partner's admissions.
 * Records are replaced whole, so requests already under way keep the settings they read.
 */

export function findOrganization(ws: Workspace, id: string): Organization {
  const org = ws.store.organizations.get(id);
  if (!org) throw fail('resource_not_found', `No organization with id ${id} in workspace ${ws.id}.`, 'id');
  return org;
}

export function renderSettings(org: Organization) {
  return {
    id: org.id,
    kind: org.kind,
    name: org.name,
    subscription: org.subscription,
    trial_ends_at: org.trial_ends_at,
    api_approvals: org.api_approvals,
    allowed_origins: [...org.allowed_origins],
    branding: { ...org.branding },
    payroll_connector: org.payroll_connector,
    payroll_failure: { ...org.payroll_failure },
    admissions: org.admitted_by.map((a) => ({ organization_id: a.organization_id, active: a.active, scopes: [...a.scopes] })),
  };
}

/** Every check first, then one write: a refused PATCH changes nothing. */
export function patchOrganization(ws: Workspace, id: string, body: PatchOrganizationBody): Organization {
  const org = findOrganization(ws, id);
  const admitted_by = body.admissions === undefined ? org.admitted_by : admit(ws, org, body.admissions);
  const next: Organization = {
    ...org,
    ...(body.api_approvals === undefined ? {} : { api_approvals: body.api_approvals }),
    ...(body.subscription === undefined ? {} : { subscription: body.subscription }),
    ...(body.trial_ends_at === undefined ? {} : { trial_ends_at: body.trial_ends_at }),
    ...(body.allowed_origins === undefined ? {} : { allowed_origins: checkedOrigins(body.allowed_origins) }),
    branding: { ...org.branding, ...body.branding },
    payroll_failure: body.payroll_failure
      ? { enabled: body.payroll_failure.enabled, error_code: body.payroll_failure.error_code ?? org.payroll_failure.error_code }
      : org.payroll_failure,
    admitted_by,
  };
  return ws.store.organizations.put(next);
}

/**
 * allowed_origins are kept as the rules they stand for (organizations.origins.ts): what the
 * settings show is what return_url and the review frame admit. An entry naming no host is
 * refused rather than kept as a setting that silently admits nothing.
 */
function checkedOrigins(entries: string[]): string[] {
  entries.forEach((entry, i) => {
    if (originRule(entry) === null) {
      throw fail('parameter_invalid', `allowed_origins[${i}]: ${JSON.stringify(entry)} names no host; give a host name or *. and a domain.`, `allowed_origins[${i}]`);
    }
  });
  return originRules(entries);
}

type AdmissionChange = NonNullable<PatchOrganizationBody['admissions']>[number];

/** Applies admission changes in order: a new employer needs scopes; an unknown one cannot end. */
function admit(ws: Workspace, partner: Organization, changes: AdmissionChange[]): Admission[] {
  if (partner.kind !== 'partner') {
    throw fail('parameter_invalid', `admissions: ${partner.id} is an employer; only partners are admitted by employers.`, 'admissions');
  }
  const list = partner.admitted_by.map((a) => ({ ...a, scopes: [...a.scopes] }));
  changes.forEach((change, i) => {
    const at = `admissions[${i}]`;
    const employer = ws.store.organizations.get(change.organization_id);
    if (!employer || employer.kind !== 'employer') {
      throw fail('organization_unknown', `${at}.organization_id: ${change.organization_id} is not an employer.`, `${at}.organization_id`);
    }
    const index = list.findIndex((a) => a.organization_id === change.organization_id);
    const active = change.active ?? true;
    if (index >= 0) {
      const current = list[index]!;
      list[index] = { organization_id: current.organization_id, active, scopes: change.scopes ? [...change.scopes] : current.scopes };
    } else if (!active) {
      throw fail('parameter_invalid', `${at}: ${change.organization_id} never admitted ${partner.id}; there is no relationship to end.`, `${at}.active`);
    } else if (!change.scopes) {
      throw fail('parameter_missing', `${at}.scopes: a new admission needs the scopes the employer grants.`, `${at}.scopes`);
    } else {
      list.push({ organization_id: change.organization_id, active, scopes: [...change.scopes] });
    }
  });
  return list;
}
