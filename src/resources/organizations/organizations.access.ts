import { fail } from '../../core/errors.js';
import type { Store } from '../../core/store.js';
import { CURRENT_API_VERSION } from '../../core/versions.js';
import {
  REVIEWING_ROLES, SCOPES, type ApiKey, type Environment, type Organization, type Scope, type User,
} from './organizations.model.js';

/** Who is calling: resolved from the bearer key (spec section Authentication). */
export interface Caller {
  key: ApiKey;
  environment: Environment;
  /** The organization the key belongs to: an employer, or the partner itself. */
  home: Organization;
  partner: Organization | null;
  user: User | null;
  apiVersion: string;
}

/** A caller acting for one employer, with the scopes that hold there. */
export interface Principal extends Caller {
  organization: Organization;
  /** Key scopes, narrowed for a partner to those the employer granted. */
  scopes: Scope[];
  /** "May open the dossier": an employer key whose user holds a reviewing role. */
  mayOpenDossier: boolean;
}

export function findCaller(store: Store, token: string, apiVersion: string | undefined): Caller {
  const key = store.keys.get(token);
  if (!key) throw fail('api_key_invalid', 'The API key is not valid.');
  const home = store.organizations.get(key.organization_id)!;
  return {
    key,
    environment: key.environment,
    home,
    partner: home.kind === 'partner' ? home : null,
    user: key.user_id ? store.users.get(key.user_id) ?? null : null,
    apiVersion: apiVersion ?? key.api_version,
  };
}

function requireKeyScope(caller: Caller, scope: Scope): void {
  if (!caller.key.scopes.includes(scope)) {
    throw fail('scope_missing', `This key lacks the scope ${scope}.`);
  }
}

/** For the one route that acts for no employer (listing them): the key's own organization. */
export function asItself(caller: Caller, scope: Scope): Principal {
  requireKeyScope(caller, scope);
  return { ...caller, organization: caller.home, scopes: caller.key.scopes, mayOpenDossier: false };
}

/** The employers a partner may act for: those whose admission is still in force. */
export function admittingEmployers(store: Store, partner: Organization): { org: Organization; scopes: Scope[] }[] {
  return partner.admitted_by
    .filter((a) => a.active)
    .flatMap((a) => {
      const org = store.organizations.get(a.organization_id);
      return org ? [{ org, scopes: a.scopes }] : [];
    });
}

/**
 * Picks the employer a request acts for, from the key and the Service-Organization header,
 * and checks the scope there. An employer key acts only for itself.
 */
export function actFor(store: Store, caller: Caller, header: string | undefined, scope: Scope): Principal {
  requireKeyScope(caller, scope);
  if (!caller.partner) {
    if (header !== undefined && header !== caller.home.id) {
      throw fail('organization_forbidden', 'An employer key may act only for its own organization.');
    }
    const dossier = !!caller.user && caller.user.roles.some((r) => REVIEWING_ROLES.includes(r));
    return { ...caller, organization: caller.home, scopes: caller.key.scopes, mayOpenDossier: dossier };
  }
  const employers = admittingEmployers(store, caller.partner);
  let chosen;
  if (header === undefined) {
    if (employers.length > 1) {
      throw fail(
        'service_organization_required',
        'This partner key acts for several employers: send the header Service-Organization with the employer id from GET /v1/organizations.',
      );
    }
    chosen = employers[0];
    if (!chosen) throw fail('partner_not_admitted', 'No employer admits this partner.');
  } else {
    chosen = employers.find((e) => e.org.id === header);
    if (!chosen) throw fail('partner_not_admitted', `The organization ${header} does not admit this partner.`);
  }
  if (!chosen.scopes.includes(scope)) {
    throw fail('scope_not_granted', `The employer ${chosen.org.id} has not granted this partner the scope ${scope}.`);
  }
  const scopes = caller.key.scopes.filter((s) => chosen.scopes.includes(s));
  return { ...caller, organization: chosen.org, scopes, mayOpenDossier: false };
}

/** What an onboarding, and each record made from one (its employee, its events), is filed under. */
export interface Filed {
  environment: Environment;
  organization_id: string;
  partner_id: string | null;
}

/**
 * Whether the principal sees a record: same environment, the employer it acts for, and for a
 * partner only what its own keys made. Onboardings, employees, events, approvals and
 * integrations all ask this one rule, so none shows what another hides.
 */
export function visibleTo(r: Filed, p: Principal): boolean {
  return r.environment === p.environment && r.organization_id === p.organization.id && (p.partner === null || r.partner_id === p.partner.id);
}

/** The key id recorded as `created_by_key` for what the web dashboard creates. */
const DASHBOARD_KEY = 'dashboard';

/**
 * The employer's web dashboard acting for its own organization (control API): every scope,
 * the dossier open, no partner. Its key is a stand-in that no request can present.
 */
export function dashboardPrincipal(org: Organization, environment: Environment): Principal {
  const key: ApiKey = {
    key: DASHBOARD_KEY, name: 'Dashboard', environment, organization_id: org.id, user_id: null,
    scopes: [...SCOPES], api_version: CURRENT_API_VERSION,
  };
  return {
    key, environment, home: org, partner: null, user: null, apiVersion: CURRENT_API_VERSION,
    organization: org, scopes: key.scopes, mayOpenDossier: true,
  };
}
