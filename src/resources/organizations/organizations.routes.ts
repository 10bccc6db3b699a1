import { ErrorSchema } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { listOrganizations } from './organizations.service.js';
import { NoQuery, OrganizationList, OrganizationSchema } from './organizations.schemas.js';
import { renderOrganization } from './organizations.view.js';

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
