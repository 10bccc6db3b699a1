import { admittingEmployers, type Caller } from './organizations.access.js';
import type { Store } from '../../core/store.js';
import { ErrorSchema } from '../common.schemas.js';
import { defineRoute, ok, type ApiRoute } from '../route.js';
import type { Organization, Scope } from './organizations.model.js';
import { NoQuery, OrganizationList, OrganizationSchema } from './organizations.schemas.js';
import { renderOrganization } from './organizations.view.js';

/** GET /v1/organizations: an employer key sees itself; a partner key every employer admitting it. */
function listOrganizations(store: Store, caller: Caller) {
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

const errors = { description: 'Error', schema: ErrorSchema };

export const organizationRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/organizations', tag: 'Organizations', scope: 'organization:read', acting: false,
    operationId: 'listOrganizations', summary: 'The organizations this key may act for, with the scopes granted',
    query: NoQuery,
    responses: { 200: { description: 'The organizations', schema: OrganizationList }, 401: errors },
    handle: (ctx) => ok(listOrganizations(ctx.workspace.store, ctx.caller)),
  }),
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/organization', tag: 'Organizations', scope: 'organization:read',
    operationId: 'getOrganization', summary: 'The organization acted for (Service-Organization for partners)',
    query: NoQuery,
    responses: { 200: { description: 'The organization', schema: OrganizationSchema }, 400: errors, 403: errors },
    handle: (ctx) => ok(renderOrganization(ctx.principal.organization)),
  }),
];
