import type { ControlHost } from './control.host.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { eventCatalog } from '../resources/events/events.catalog.js';
import { EventCatalogSchema } from './event-catalog.schemas.js';

export const eventCatalogRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'State machine', method: 'GET', path: '/_emulator/events/catalog',
    operationId: 'getEventCatalog', summary: 'Every event type the emulator sends: when, its schema and a signed sample message',
    description: 'The same for every workspace. When comes from the transition table; each sample is built and signed as the dispatcher does, with the example secret at a fixed time.',
    responses: { 200: { description: 'Every event type once', schema: EventCatalogSchema } },
    client: { name: 'eventCatalog' },
    handle: () => ok(eventCatalog()),
  }),
] satisfies ControlRoute<ControlHost>[];
