import { Type, type Static } from '../../core/schema.js';
import { DateTime, ListOf, Literals, Nullable, pageQuery } from '../common.schemas.js';
import { DELIVERY_STATUSES } from './webhooks.model.js';

export const MAX_ADDRESSES = 20;
export const OVERLAP_HOURS = { minimum: 0, maximum: 168, default: 24 } as const;

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    events: Type.Optional(Type.Array(Type.String(), { maxItems: 50, description: 'event names; empty or omitted means all (ping excluded)' })),
  },
  { additionalProperties: false, title: 'CreateWebhookRequest', examples: [{ url: 'https://partner.example/webhooks/onboarding', description: 'Onboarding status updates' }] },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const RotateSecretBody = Type.Object(
  { overlap_hours: Type.Optional(Type.Integer({ ...OVERLAP_HOURS })) },
  { additionalProperties: false, title: 'RotateSecretRequest' },
);
export type RotateSecretBody = Static<typeof RotateSecretBody>;

export const ListDeliveriesQuery = Type.Object(
  { status: Type.Optional(Literals(DELIVERY_STATUSES)), ...pageQuery() },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const ListWebhooksQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
/** The body of the test and retry actions: nothing, and nothing else accepted. */
export const NoActionBody = Type.Object({}, { additionalProperties: false });

export const DeliveryParams = Type.Object({ id: Type.String(), deliveryId: Type.String() });

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ pattern: '^whd_' }),
    object: Type.Literal('webhook_delivery'),
    event_id: Type.String({ pattern: '^evt_' }),
    event_type: Type.String(),
    status: Literals(DELIVERY_STATUSES),
    attempts: Type.Integer(),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: DateTime,
    delivered_at: Nullable(DateTime),
    next_attempt_at: Nullable(DateTime),
  },
  { title: 'WebhookDelivery' },
);

const webhookFields = {
  id: Type.String({ pattern: '^wh_' }),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String(),
  description: Nullable(Type.String()),
  events: Type.Array(Type.String()),
  status: Literals(['enabled', 'disabled']),
  api_version: Type.String(),
  previous_secret_expires_at: Nullable(DateTime),
  recent_deliveries: Type.Array(DeliverySchema),
  created_at: DateTime,
};

/** An address as listed and read: its secret is shown only when it is made. */
export const WebhookSchema = Type.Object(webhookFields, { title: 'WebhookEndpoint' });

/** The answer of creation and rotation: the address with the secret that signs from now on. */
export const WebhookWithSecretSchema = Type.Object(
  { ...webhookFields, secret: Type.String({ pattern: '^whsec_' }) },
  { title: 'WebhookEndpointWithSecret' },
);

export const WebhookList = ListOf(WebhookSchema, 'WebhookEndpoint');
export const DeliveryList = ListOf(DeliverySchema, 'WebhookDelivery');

export const DeletedWebhook = Type.Object(
  { id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true), stopped_deliveries: Type.Integer() },
  { title: 'DeletedWebhookEndpoint' },
);

export const WebhookTestResult = Type.Object(
  {
    object: Type.Literal('webhook_test'),
    webhook_id: Type.String(),
    event_id: Type.String(),
    delivery_id: Type.String(),
    status: Literals(DELIVERY_STATUSES),
  },
  { title: 'WebhookTest' },
);
