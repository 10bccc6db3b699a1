import { Type, type Static } from '../core/schema.js';
import { Literals, Nullable } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';

/** Request and answer of POST /_emulator/trigger: one event of a given type, made to happen. */
export const TriggerBody = Type.Object(
  {
    event_type: Type.Unsafe<(typeof EVENT_TYPES)[number]>({
      ...Literals(EVENT_TYPES),
      description: 'the event type to make happen: a type of GET /v1/events, the older names included, or ping',
    }),
    onboarding_id: Type.Optional(Type.String({
      minLength: 1,
      description: 'an existing onboarding to act on (played forward as far as needed); left out, a new one is created',
    })),
    organization_id: Type.Optional(Type.String({
      minLength: 1,
      description: 'the employer the onboarding is created for (default: the first whose own test webhook address, or an admitted partner\'s, would get the events, else the first employer); for ping, whose addresses get it (default: every address)',
    })),
  },
  { additionalProperties: false, title: 'TriggerRequest', examples: [{ event_type: 'onboarding.completed' }] },
);
export type TriggerBody = Static<typeof TriggerBody>;

const EventRef = Type.Object({ id: Type.String(), type: Type.String() });

export const Triggered = Type.Object(
  {
    object: Type.Literal('triggered_event'),
    event_id: Type.String({ description: 'the event of the type asked for' }),
    event_type: Type.String(),
    onboarding_id: Nullable(Type.String({ description: 'null for ping' })),
    organization_id: Nullable(Type.String({ description: 'null for a ping sent to the addresses of several organizations' })),
    partner_id: Nullable(Type.String({ description: 'the partner whose key created the onboarding (its addresses get the events too); null when the dashboard did, and for ping' })),
    onboarding_created: Type.Boolean({ description: 'whether this call created the onboarding' }),
    events: Type.Array(EventRef, { description: 'every event this call made, in order: the steps before the one asked for, and any older name after it' }),
    deliveries: Type.Integer({ description: 'the webhook deliveries made for the event asked for, one per address it goes to' }),
  },
  { title: 'TriggeredEvent' },
);
export type Triggered = Static<typeof Triggered>;
