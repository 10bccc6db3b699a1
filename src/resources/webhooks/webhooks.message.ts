import { Type, type Static, type TSchema } from '../../core/schema.js';
import { DateTime, Literals } from '../common.schemas.js';
import { EVENT_TYPES, type EventRecord, type EventType } from '../events/events.model.js';
import { eventDataSchema, schemaName } from '../events/events.schemas.js';

/**
 * The webhook message (spec: Events, Message): its schema, one per event type, and the one
 * function that writes its body. The builder's type is read off the same fields, so a field
 * the dispatcher writes and the schema lacks (or the other way round) does not compile; the
 * data of each type comes from the table the emitter fills data from (events.schemas.ts).
 */

/** Ping's data holds only a message (spec: Event types). */
const PingData = Type.Object({ message: Type.String() }, { title: 'PingEventData', description: 'a test message: data holds only this text' });
export const PING_DATA: Static<typeof PingData> = { message: 'A test message from the onboarding emulator.' };

/** The fields around `data`, in the order the body writes them. */
const fields = {
  id: Type.String({ pattern: '^evt_', description: 'the event id, also in Service-Event-Id: deduplicate on it' }),
  created_at: DateTime,
  organization_id: Type.String({ description: 'the employer' }),
  api_version: Type.String({ description: 'the API version of the address the message goes to' }),
};

const dataOf = (type: EventType): TSchema => (type === 'ping' ? PingData : eventDataSchema(type));

const messageOf = (type: EventType) =>
  Type.Object(
    { id: fields.id, type: Type.Literal(type), created_at: fields.created_at, organization_id: fields.organization_id, api_version: fields.api_version, data: dataOf(type) },
    { title: schemaName(type, 'Message') },
  );

/** The body schema of each type's message, older names and ping included. */
export const WEBHOOK_MESSAGES = Object.fromEntries(EVENT_TYPES.map((t) => [t, messageOf(t)])) as Record<EventType, TSchema>;

/** Any message, for the builder's type: the same fields, the type any of them, data an object. */
const AnyMessage = Type.Object({
  id: fields.id, type: Literals(EVENT_TYPES), created_at: fields.created_at, organization_id: fields.organization_id, api_version: fields.api_version,
  data: Type.Unsafe<object>({ type: 'object' }),
});
type WebhookMessage = Static<typeof AnyMessage>;

/** The message body with the address's api_version: the exact text every attempt sends. */
export function messageBody(event: Pick<EventRecord, 'id' | 'type' | 'created_at' | 'organization_id'> & { data: object }, apiVersion: string): string {
  const message: WebhookMessage = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    organization_id: event.organization_id,
    api_version: apiVersion,
    data: event.data,
  };
  return JSON.stringify(message);
}

/** Who sends every message (spec: Message, headers). */
export const WEBHOOK_USER_AGENT = 'Service-Webhooks/1';

/** The headers of a message, in the order they are sent. */
export function messageHeaders(eventId: string, eventType: string, signature: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'Service-Event-Id': eventId,
    'Service-Event-Type': eventType,
    'Service-Signature': signature,
  };
}
