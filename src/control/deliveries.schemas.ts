import { Type, type Static } from '../core/schema.js';
import { InspectDelivery } from './inspect.schemas.js';

/** Every webhook delivery of a workspace, whichever address: as a list, or as a HAR of its attempts. */
export const DELIVERIES_LIMIT = 100;
/** Attempts a HAR holds unless asked: the latest ones. Every attempt repeats its message's body, so a busy workspace's whole history would be hundreds of megabytes. */
export const HAR_ATTEMPTS_LIMIT = 1_000;

export const DeliveriesQuery = Type.Object(
  {
    endpoint_id: Type.Optional(Type.String({ minLength: 1, description: 'one webhook address (we_...)' })),
    event_type: Type.Optional(Type.String({ minLength: 1, description: 'one event type (onboarding.created, ping, ...)' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'json: deliveries made at or after this instant; har: attempts at or after it (workspace clock)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: `json: deliveries, default ${DELIVERIES_LIMIT}; har: the latest attempts, default ${HAR_ATTEMPTS_LIMIT}` })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('har')], {
      description: 'har: every attempt as an HTTP Archive (HAR 1.2) entry, oldest first: the signed request, the answer or the network error',
    })),
  },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const DeliveryList = Type.Object(
  {
    data: Type.Array(InspectDelivery, { description: 'newest first' }),
    total: Type.Integer({ description: 'deliveries matching the filters' }),
  },
  { title: 'WorkspaceDeliveryList' },
);
