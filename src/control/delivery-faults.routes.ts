import type { ControlHost } from './control.host.js';
import { CreateDeliveryFaultBody, DeliveryFaultSchema } from '../delivery-faults/delivery-faults.schemas.js';
import { Type } from '../core/schema.js';
import { ErrorSchema, IdParam } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { Deleted, FaultsCleared } from './control.schemas.js';
import { addDeliveryFault, clearDeliveryFaults, listDeliveryFaults, removeDeliveryFault } from './delivery-faults.service.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Delivery faults';
const DeliveryFaultList = Type.Object({ data: Type.Array(DeliveryFaultSchema) }, { title: 'DeliveryFaultList' });

export const deliveryFaultRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/delivery-faults',
    operationId: 'createDeliveryFault',
    summary: 'Make webhook messages misbehave: the next N (or those in a window on the workspace clock), to one address or all, are duplicated, reordered, delayed, have their acknowledgement dropped, or carry a bad signature or a stale timestamp',
    body: CreateDeliveryFaultBody,
    responses: { 201: { description: 'The fault', schema: DeliveryFaultSchema }, 404: errors, 422: errors },
    client: { name: 'deliveryFaults.add', args: 'body' },
    handle: (ctx) => ok(addDeliveryFault(ctx.workspace, ctx.body), 201),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/delivery-faults',
    operationId: 'listDeliveryFaults', summary: 'The delivery faults still to play, in the order they are matched',
    responses: { 200: { description: 'Delivery faults', schema: DeliveryFaultList } },
    client: { name: 'deliveryFaults.list', pick: 'data' },
    handle: (ctx) => ok({ data: listDeliveryFaults(ctx.workspace) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/delivery-faults',
    operationId: 'clearDeliveryFaults', summary: "Remove every delivery fault (the scenario's too)",
    responses: { 200: { description: 'How many were removed', schema: FaultsCleared } },
    client: { name: 'deliveryFaults.clear' },
    handle: (ctx) => ok(clearDeliveryFaults(ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/delivery-faults/:id',
    operationId: 'deleteDeliveryFault', summary: 'Remove one delivery fault',
    params: IdParam,
    responses: { 200: { description: 'Deleted', schema: Deleted }, 404: errors },
    client: { name: 'deliveryFaults.remove', args: ['id'] },
    handle: (ctx) => ok(removeDeliveryFault(ctx.workspace, ctx.params.id!)),
  }),
] satisfies ControlRoute<ControlHost>[];
