import { Type, type Static } from '../core/schema.js';
import { DateTime, Literals } from '../resources/common.schemas.js';
import { EventInfo, InspectDelivery, OnboardingSummary } from './inspect.schemas.js';
import { filterFields, JournalEntrySchema } from './requests.schemas.js';

/** What a wait can wait for. */
export const WAIT_KINDS = ['event', 'delivery', 'request', 'status', 'settled'] as const;
export type WaitKind = (typeof WAIT_KINDS)[number];

/** Under the 5 s a test of vitest or jest is given, so the wait's own answer, naming what it saw, comes first. */
export const WAIT_DEFAULT_MS = 4_000;
export const WAIT_MAX_MS = 60_000;
/** The matches an answer lists. */
export const WAIT_LISTED = 100;

/** The fields each kind reads; the others are refused for it, so a misspelt wait fails at once instead of timing out. */
export const WAIT_FIELDS: Record<WaitKind, readonly string[]> = {
  event: ['type', 'onboarding_id', 'since', 'count'],
  delivery: ['address', 'event_type', 'status', 'onboarding_id', 'since', 'count'],
  request: [...Object.keys(filterFields), 'body_includes', 'count'],
  status: ['onboarding_id', 'status'],
  settled: [],
};

const Pattern = (what: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: what }));

export const WaitQuery = Type.Object(
  {
    for: Literals(WAIT_KINDS),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: WAIT_MAX_MS, description: `how long to wait, 0 to ${WAIT_MAX_MS}; default ${WAIT_DEFAULT_MS}` })),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'event, delivery, request: how many must match; default 1' })),
    ...filterFields,
    type: Pattern('event: the event type, or a pattern with * (onboarding.*)'),
    event_type: Pattern('delivery: the type of the event delivered, or a pattern with *'),
    address: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'delivery: the webhook address (its URL, or a pattern with *) or its id' })),
    onboarding_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'event, delivery: about this onboarding; request: naming it; status: the onboarding that must reach the status' })),
    status: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Integer()], {
      description: 'status: the onboarding status to reach; delivery: the delivery status (pending, in_progress, succeeded, failed, dead); request: the HTTP status answered',
    })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'event, delivery, request: made at or after this instant of the workspace clock' })),
    body_includes: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 8192 }), Type.Object({})], {
      description: 'request: fields the body must hold with these values, as JSON text (in process, the object itself)',
    })),
  },
  { additionalProperties: false },
);
export type WaitQuery = Static<typeof WaitQuery>;

export const WaitResult = Type.Object(
  {
    object: Type.Literal('wait'),
    for: Literals(WAIT_KINDS),
    waited_ms: Type.Number({ description: 'from the request until the condition held, in real milliseconds' }),
    clock: DateTime,
    count: Type.Integer({ description: 'how many match (event, delivery, request); 1 for status; 0 for settled' }),
    data: Type.Array(Type.Union([EventInfo, InspectDelivery, JournalEntrySchema, OnboardingSummary]), {
      description: `the matches, oldest first (at most ${WAIT_LISTED}): events, deliveries, recorded requests, or the onboarding that reached the status; empty for settled`,
    }),
  },
  { title: 'WaitResult' },
);
