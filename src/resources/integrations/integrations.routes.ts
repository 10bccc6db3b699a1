import { paginate } from '../../core/pagination.js';
import { DEFAULT_PAGE_LIMIT, ErrorSchema, ListOf } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { IntegrationSchema, ListIntegrationsQuery } from './integrations.schemas.js';
import { integrations } from './integrations.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const integrationRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/integrations', tag: 'Integrations', scope: 'integrations:read',
    operationId: 'listIntegrations', summary: 'Integrations of the employer and their synchronization status',
    query: ListIntegrationsQuery,
    responses: { 200: { description: 'The payroll connector with its last sync', schema: ListOf(IntegrationSchema, 'Integration') }, 422: errors },
    handle: (ctx) =>
      ok(paginate(integrations(ctx.workspace, ctx.principal), (i) => i.connector, ctx.query, { defaultLimit: DEFAULT_PAGE_LIMIT })),
  }),
];
