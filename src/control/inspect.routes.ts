import type { ControlHost } from './control.host.js';
import { ErrorSchema, IdParam } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { NoBody } from './control.schemas.js';
import {
  DeliveryIdParam, InspectDeliveriesQuery, InspectDelivery, InspectDeliveryList, InspectEventList, InspectEventsQuery, InspectListQuery, InspectOnboarding, InspectOnboardingList,
  InspectWebhookList, InspectWebhooksQuery,
} from './inspect.schemas.js';
import { inspectOnboarding, listDeliveries, listEvents, listOnboardings, listWebhooks, retryDelivery } from './inspect.service.js';
import { OnboardingIdParam } from './onboarding-actions.schemas.js';

/**
 * What the inspector page reads (src/pages/inspector), as control endpoints any client may use:
 * the whole workspace, whichever key or environment made each record. Per workspace, so also
 * under /_emulator/workspaces/{id}/...
 */
const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Inspect';

export const inspectRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/onboardings',
    operationId: 'inspectOnboardings',
    summary: 'Every onboarding of the workspace (whatever key or environment made it), newest first, with status, waiting_on, data_version and the allowed control actions',
    query: InspectListQuery,
    responses: { 200: { description: 'The onboardings', schema: InspectOnboardingList }, 422: errors },
    client: { name: 'onboardings.list', args: 'query' },
    handle: (ctx) => ok(listOnboardings(ctx.workspace, ctx.query)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/onboardings/:id',
    operationId: 'inspectOnboarding',
    summary: "One onboarding in full, with its timeline (transitions and their events in order), approvals, the organization's people and the allowed control actions",
    description: 'allowed_actions are the actions that would succeed now: the state machine table admits them in the current status and the checks beyond it pass (link opened, expired or revoked; identity check; four-eyes; data returned to the manager; manual payroll entry). Only what the request brings (a wrong one-time code, a missing body field) may still refuse one.',
    params: OnboardingIdParam,
    responses: { 200: { description: 'The onboarding and its timeline', schema: InspectOnboarding }, 404: errors },
    client: { name: 'onboardings.inspect', args: ['id'] },
    handle: (ctx) => ok(inspectOnboarding(ctx.workspace, ctx.params.id!)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/events',
    operationId: 'inspectEvents', summary: 'Every event of the workspace (every environment and organization), newest first, with how many deliveries each made; paged with limit and starting_after (older) or ending_before (newer)',
    description: 'newer counts the matching events above the page, so a client can tell whether there are newer (newer > 0) or older (newer + data.length < total) ones. A page held by a cursor stays the same while new events arrive. An unknown or purged cursor is 422 cursor_invalid.',
    query: InspectEventsQuery,
    responses: { 200: { description: 'The events', schema: InspectEventList }, 422: errors },
    handle: (ctx) => ok(listEvents(ctx.workspace, ctx.query)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/webhooks',
    operationId: 'inspectWebhooks', summary: 'Every webhook address of the workspace with its latest deliveries and each attempt (time, status code, error, next attempt)',
    query: InspectWebhooksQuery,
    responses: { 200: { description: 'The addresses', schema: InspectWebhookList }, 422: errors },
    client: { name: 'webhooks.list', pick: 'data' },
    handle: (ctx) => ok(listWebhooks(ctx.workspace, ctx.query)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/webhooks/:id/deliveries',
    operationId: 'inspectWebhookDeliveries',
    summary: "All of one address's deliveries, newest first, each with every attempt; paged with limit and starting_after (next_cursor)",
    params: IdParam, query: InspectDeliveriesQuery,
    responses: { 200: { description: 'A page of deliveries', schema: InspectDeliveryList }, 404: errors, 422: errors },
    client: { name: 'webhooks.deliveries', args: ['id', 'limit', 'starting_after'] },
    handle: (ctx) => ok(listDeliveries(ctx.workspace, ctx.params.id!, ctx.query)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/deliveries/:id/retry',
    operationId: 'inspectRetryDelivery',
    summary: 'Resend a delivery now with the same event id and bytes (as POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry); answers after the attempt',
    params: DeliveryIdParam, body: NoBody,
    responses: { 200: { description: 'The delivery after this attempt', schema: InspectDelivery }, 404: errors, 409: errors },
    client: { name: 'deliveries.retry', args: ['id'] },
    handle: async (ctx) => ok(await retryDelivery(ctx.workspace, ctx.params.id!)),
  }),
] satisfies ControlRoute<ControlHost>[];
