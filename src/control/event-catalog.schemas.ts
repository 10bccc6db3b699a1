import { Type } from '../core/schema.js';
import { Literals, Nullable } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { ONBOARDING_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { WEBHOOK_MESSAGES } from '../resources/webhooks/webhooks.message.js';

const Status = Literals(ONBOARDING_STATUSES);
const EventTypeName = Literals(EVENT_TYPES);

/** Any webhook message, told apart by `type`: the schemas the OpenAPI document's webhooks carry. */
const WebhookMessageSchema = Type.Unsafe<Record<string, unknown>>({
  title: 'WebhookMessage',
  oneOf: EVENT_TYPES.map((t) => WEBHOOK_MESSAGES[t]),
  discriminator: { propertyName: 'type' },
});

const CatalogEntrySchema = Type.Object(
  {
    type: EventTypeName,
    older_name_of: Nullable(EventTypeName),
    also_sent_as: Nullable(EventTypeName),
    subscribable: Type.Boolean({ description: 'a webhook address may subscribe to it, and GET /v1/events lists it (all but ping)' }),
    transitions: Type.Array(
      Type.Object({ trigger: Type.String(), from: Type.Array(Status), to: Nullable(Status), chosen_when: Nullable(Type.String()) }, { title: 'EventCatalogTransition' }),
      { description: 'the triggers of the state machine that send it (GET /_emulator/state-machine); an older name is sent by those of its current name' },
    ),
    requests: Type.Array(Type.String(), { description: 'the requests that send it outside the life cycle (ping)' }),
    when: Type.String({ description: 'the same, in one sentence' }),
    schema_ref: Type.String({ description: 'its body schema in the OpenAPI document (its webhook is under webhooks, by type)' }),
    sample: Type.Object(
      {
        body: Type.String({ description: 'the exact text signed' }),
        message: WebhookMessageSchema,
        headers: Type.Object({
          'Content-Type': Type.String(), 'User-Agent': Type.String(), 'Service-Event-Id': Type.String(), 'Service-Event-Type': Type.String(), 'Service-Signature': Type.String(),
        }),
      },
      { description: 'a message as the dispatcher builds and signs it, with the example secret at sample_signed_at' },
    ),
  },
  { title: 'EventCatalogEntry' },
);

export const EventCatalogSchema = Type.Object(
  {
    object: Type.Literal('event_catalog'),
    sample_secret: Type.String({ description: 'the example secret the samples are signed with; never an address\'s' }),
    sample_signed_at: Type.Integer({ description: 'the unix seconds of every sample\'s signature (t)' }),
    data: Type.Array(CatalogEntrySchema, { description: 'every event type once, older names and ping included' }),
  },
  { title: 'EventCatalog' },
);
