import { ErrorSchema, ListOf } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { EventSchema, ListEventsQuery } from './events.schemas.js';
import { listEvents } from './events.service.js';

export const eventRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/events', tag: 'Events', scope: 'onboardings:read',
    operationId: 'listEvents', summary: 'Events, oldest first (kept 30 days)',
    query: ListEventsQuery,
    responses: { 200: { description: 'A page of events', schema: ListOf(EventSchema, 'Event') }, 422: { description: 'Error', schema: ErrorSchema } },
    handle: (ctx) => ok(listEvents(ctx.workspace, ctx.principal, ctx.query)),
  }),
];
