import type { Store } from '../../core/store.js';
import { admittingEmployers, type Caller } from './organizations.access.js';
import type { Organization, Scope } from './organizations.model.js';

/** GET /v1/organizations: an employer key sees itself; a partner key every employer admitting it. */
export function listOrganizations(store: Store, caller: Caller) {
  const entries: { org: Organization; scopes: Scope[] }[] = caller.partner
    ? admittingEmployers(store, caller.partner)
    : [{ org: caller.home, scopes: caller.key.scopes }];
  return {
    object: 'list' as const,
    data: entries.map(({ org, scopes }) => ({ id: org.id, object: 'organization' as const, name: org.name, permissions: [...scopes] })),
    has_more: false,
    next_cursor: null,
  };
}
