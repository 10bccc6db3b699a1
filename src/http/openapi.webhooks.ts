import { EVENT_TYPES, type EventType } from '../resources/events/events.model.js';
import { catalogEntry } from '../resources/events/events.catalog.js';
import { schemaName } from '../resources/events/events.schemas.js';
import { WEBHOOK_MESSAGES, WEBHOOK_USER_AGENT } from '../resources/webhooks/webhooks.message.js';
import { SAMPLE_SECRET, SAMPLE_SIGNED_AT } from '../resources/webhooks/webhooks.samples.js';
import type { TSchema } from '../core/schema.js';

/**
 * The document's `webhooks`: one POST per event type the emulator sends, older names and ping
 * included, each with the body schema its messages are checked against in the tests, the
 * headers it is sent with, and a sample signed with the example secret at a fixed time (the
 * event catalog's, GET /_emulator/events/catalog).
 */
type Json = Record<string, unknown>;
/** How the document refers to a schema: its `$ref` once published under components.schemas (SchemaPublisher.ref). */
type Publish = (schema: TSchema) => Json;

const SIGNATURE = 't=<unix>,v1=<hex>: each v1 is the hex HMAC-SHA256, keyed with the address\'s secret, over `<t>.<raw body>` (the exact bytes received). '
  + 'During a secret rotation one v1 per secret, new first; the message is genuine if any matches. Refuse a t more than 5 minutes from now.';

function header(name: string, description: string, schema: Json, example: string): Json {
  return { name, in: 'header', required: true, description, schema, example };
}

function webhook(type: EventType, publish: Publish): Json {
  const entry = catalogEntry(type);
  const { headers, message } = entry.sample;
  return {
    post: {
      operationId: `webhook${schemaName(type, '')}`,
      summary: `${type} message`,
      description: [
        entry.when,
        'Headers: Content-Type application/json, User-Agent, Service-Event-Id, Service-Event-Type and Service-Signature. '
          + 'A message may come more than once (deduplicate on id) and in any order (use data_version).',
      ].join('\n\n'),
      tags: ['Webhooks'],
      security: [{}],
      parameters: [
        header('User-Agent', 'who sends it', { type: 'string', const: WEBHOOK_USER_AGENT }, headers['User-Agent']!),
        header('Service-Event-Id', 'the event id, the body\'s id', { type: 'string', pattern: '^evt_' }, headers['Service-Event-Id']!),
        header('Service-Event-Type', 'the event type, the body\'s type', { type: 'string', const: type }, headers['Service-Event-Type']!),
        header('Service-Signature', SIGNATURE, { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' }, headers['Service-Signature']!),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: publish(WEBHOOK_MESSAGES[type]),
            examples: {
              signed: {
                summary: 'A signed sample',
                description: `Sent as this value in compact JSON (JSON.stringify), with the Service-Signature of the parameters' examples: `
                  + `signed with the example secret ${SAMPLE_SECRET} at t=${SAMPLE_SIGNED_AT}.`,
                value: message,
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received: a 2xx answer acknowledges the message (within 10 seconds; redirects are not followed)' },
        '4XX': { description: 'Refused, as a receiver refuses a message whose signature does not verify: retried on the schedule like any failure' },
      },
    },
  };
}

/** Every event type once, in the order of the spec's table. */
export function webhooks(publish: Publish): Record<string, Json> {
  return Object.fromEntries(EVENT_TYPES.map((type) => [type, webhook(type, publish)]));
}
