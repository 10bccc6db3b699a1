import type { ControlHost } from './control.host.js';
import { Type } from '../core/schema.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { DeliveriesQuery, DeliveryList } from './deliveries.schemas.js';
import { harDeliveries, listWorkspaceDeliveries } from './deliveries.service.js';
import { HarSchema } from './har.schemas.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const deliveryRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag: 'Inspect', method: 'GET', path: '/_emulator/deliveries',
    operationId: 'listWorkspaceDeliveries',
    summary: "Every webhook delivery of the workspace, whichever address, newest first with its attempts; ?format=har answers every attempt as an HTTP Archive",
    description: 'With `format=har` the answer is a HAR 1.2 document (application/json): each attempt the signed POST as sent and its answer, status 0 with `_error` when none came (docs/export.md).',
    query: DeliveriesQuery,
    responses: { 200: { description: 'The deliveries, or with format=har the HAR document', schema: Type.Union([DeliveryList, HarSchema]) }, 422: errors },
    client: [{ name: 'deliveries.list', args: 'query' }, { name: 'deliveries.har', args: 'query', query: { format: 'har' } }],
    handle: (ctx) => ok(ctx.query.format === 'har' ? harDeliveries(ctx.workspace, ctx.query) : listWorkspaceDeliveries(ctx.workspace, ctx.query)),
  }),
] satisfies ControlRoute<ControlHost>[];
