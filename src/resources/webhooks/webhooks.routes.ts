import { mapPage } from '../../core/pagination.js';
import { ErrorSchema, IdParam } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import {
  CreateWebhookBody, DeletedWebhook, DeliveryList, DeliveryParams, DeliverySchema, ListDeliveriesQuery, ListWebhooksQuery,
  NoActionBody, RotateSecretBody, WebhookList, WebhookSchema, WebhookTestResult, WebhookWithSecretSchema,
} from './webhooks.schemas.js';
import {
  createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, retryDelivery, rotateSecret, sendTestPing,
} from './webhooks.service.js';
import { renderDelivery, renderWebhook } from './webhooks.view.js';

const errors = { description: 'Error', schema: ErrorSchema };
const id = (params: Record<string, string>) => params.id!;
/** Webhook addresses belong to the key's own organization: no Service-Organization needed. */
const base = { kind: 'api' as const, tag: 'Webhooks', scope: 'webhooks:manage' as const, acting: false };

export const webhookRoutes: ApiRoute[] = [
  defineRoute({
    ...base, method: 'GET', path: '/v1/webhooks', operationId: 'listWebhooks', summary: 'The webhook addresses of this organization',
    query: ListWebhooksQuery,
    responses: { 200: { description: 'Addresses', schema: WebhookList } },
    handle: (ctx) => ok(mapPage(listWebhooks(ctx.workspace, ctx.principal, ctx.query), (w) => renderWebhook(ctx.workspace, w))),
  }),
  defineRoute({
    ...base, method: 'POST', path: '/v1/webhooks', operationId: 'createWebhook', summary: 'Register an address; the secret is in this answer only',
    body: CreateWebhookBody,
    responses: { 201: { description: 'Registered', schema: WebhookWithSecretSchema }, 422: errors },
    handle: (ctx) => ok(renderWebhook(ctx.workspace, createWebhook(ctx.workspace, ctx.principal, ctx.body), true), 201),
  }),
  defineRoute({
    ...base, method: 'GET', path: '/v1/webhooks/:id', operationId: 'getWebhook', summary: 'One address with its recent deliveries',
    params: IdParam,
    responses: { 200: { description: 'The address', schema: WebhookSchema }, 404: errors },
    handle: (ctx) => ok(renderWebhook(ctx.workspace, getWebhook(ctx.workspace, ctx.principal, id(ctx.params)))),
  }),
  defineRoute({
    ...base, method: 'DELETE', path: '/v1/webhooks/:id', operationId: 'deleteWebhook', summary: 'Remove an address; its pending retries stop',
    params: IdParam,
    responses: { 200: { description: 'Deleted', schema: DeletedWebhook }, 404: errors },
    handle: (ctx) => ok(deleteWebhook(ctx.workspace, ctx.principal, id(ctx.params))),
  }),
  defineRoute({
    ...base, method: 'POST', path: '/v1/webhooks/:id/test', operationId: 'testWebhook', summary: 'Send a ping to this address along the normal delivery route',
    params: IdParam, body: NoActionBody,
    responses: { 200: { description: 'The ping is on its way', schema: WebhookTestResult }, 404: errors, 409: errors },
    handle: (ctx) => {
      const d = sendTestPing(ctx.workspace, ctx.principal, id(ctx.params));
      return ok({ object: 'webhook_test', webhook_id: d.endpoint_id, event_id: d.event_id, delivery_id: d.id, status: d.status });
    },
  }),
  defineRoute({
    ...base, method: 'POST', path: '/v1/webhooks/:id/rotate-secret', operationId: 'rotateWebhookSecret', summary: 'New secret now; the old one co-signs for overlap_hours',
    params: IdParam, body: RotateSecretBody,
    responses: { 200: { description: 'The address with its new secret', schema: WebhookWithSecretSchema }, 404: errors, 422: errors },
    handle: (ctx) => ok(renderWebhook(ctx.workspace, rotateSecret(ctx.workspace, ctx.principal, id(ctx.params), ctx.body), true)),
  }),
  defineRoute({
    ...base, method: 'GET', path: '/v1/webhooks/:id/deliveries', operationId: 'listWebhookDeliveries', summary: 'The delivery log, newest first (kept 30 days)',
    params: IdParam, query: ListDeliveriesQuery,
    responses: { 200: { description: 'Deliveries', schema: DeliveryList }, 404: errors },
    handle: (ctx) => ok(mapPage(listDeliveries(ctx.workspace, ctx.principal, id(ctx.params), ctx.query), renderDelivery)),
  }),
  defineRoute({
    ...base, method: 'POST', path: '/v1/webhooks/:id/deliveries/:deliveryId/retry', operationId: 'retryWebhookDelivery', summary: 'Resend a delivery with the same event id and content',
    params: DeliveryParams, body: NoActionBody,
    responses: { 200: { description: 'The delivery after this attempt', schema: DeliverySchema }, 404: errors, 409: errors },
    handle: async (ctx) => ok(renderDelivery(await retryDelivery(ctx.workspace, ctx.principal, id(ctx.params), ctx.params.deliveryId!))),
  }),
];
