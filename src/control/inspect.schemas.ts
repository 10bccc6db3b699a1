import { Type, type Static } from '../core/schema.js';
import { InjectedAttemptSchema, InjectedFaultSchema } from '../delivery-faults/delivery-faults.schemas.js';
import { DateTime, ListOf, Literals, Nullable } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { ONBOARDING_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { OnboardingSchema } from '../resources/onboardings/onboardings.schemas.js';
import { ROLES } from '../resources/organizations/organizations.model.js';
import { DELIVERY_STATUSES } from '../resources/webhooks/webhooks.model.js';

/**
 * The control API's read side for the inspector page (and any other client): every onboarding,
 * event, webhook address and delivery of the workspace, whatever key or environment made it.
 */
const Strict = { additionalProperties: false } as const;
const Environment = Literals(['test', 'live']);
const Limit = (max: number, dflt: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `1 to ${max}; default ${dflt}` }));

/** The control actions of POST /_emulator/onboardings/{id}/{action}. */
export const ACTION_NAMES = [
  'employee/open', 'employee/submit', 'verify-identity', 'approve', 'return', 'manager/correct', 'change-terms',
  'send-contract', 'employee/sign', 'employer-sign', 'payroll/complete', 'payroll/fail', 'resolve', 'send-reminder', 'cancel',
] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** How many records a page of the inspector lists, and deliveries per address, unless asked. */
export const INSPECT_LIMIT = 100;
export const INSPECT_DELIVERIES = 25;

export const InspectListQuery = Type.Object({ limit: Limit(1000, INSPECT_LIMIT) }, Strict);
export type InspectListQuery = Static<typeof InspectListQuery>;

export const InspectEventsQuery = Type.Object(
  {
    limit: Limit(1000, INSPECT_LIMIT),
    onboarding_id: Type.Optional(Type.String({ minLength: 1 })),
    starting_after: Type.Optional(Type.String({ minLength: 1, description: 'an event id: the page of events just older than it' })),
    ending_before: Type.Optional(Type.String({ minLength: 1, description: 'an event id: the page of events just newer than it' })),
  },
  Strict,
);
export type InspectEventsQuery = Static<typeof InspectEventsQuery>;

export const InspectWebhooksQuery = Type.Object({ deliveries: Limit(200, INSPECT_DELIVERIES) }, Strict);
export type InspectWebhooksQuery = Static<typeof InspectWebhooksQuery>;

/** The same cursor paging and status filter as GET /v1/webhooks/{id}/deliveries. */
export { ListDeliveriesQuery as InspectDeliveriesQuery } from '../resources/webhooks/webhooks.schemas.js';

export const OnboardingSummary = Type.Object(
  {
    id: Type.String(),
    status: Literals(ONBOARDING_STATUSES),
    waiting_on: Type.Array(Type.String()),
    data_version: Type.Integer(),
    environment: Environment,
    organization_id: Type.String(),
    partner_id: Nullable(Type.String()),
    source: Literals(['api', 'dashboard']),
    reference: Nullable(Type.String()),
    employee: Type.Object({ first_name: Type.String(), last_name: Type.String() }),
    created_at: DateTime,
    updated_at: DateTime,
    allowed_actions: Type.Array(Literals(ACTION_NAMES), { description: 'the control actions that would succeed now (the status and the record\'s state)' }),
  },
  { title: 'InspectOnboardingSummary' },
);

export const InspectOnboardingList = Type.Object(
  { data: Type.Array(OnboardingSummary, { description: 'newest first' }), total: Type.Integer({ description: 'onboardings in the workspace' }) },
  { title: 'InspectOnboardingList' },
);

const AllowedAction = Type.Object(
  {
    action: Literals(ACTION_NAMES),
    method: Type.Literal('POST'),
    path: Type.String({ description: 'relative to the workspace: /_emulator/onboardings/{id}/{action}' }),
    trigger: Type.String({ description: 'the state-machine trigger it fires' }),
    body: Literals(['none', 'optional', 'required']),
    summary: Type.String(),
  },
  { title: 'InspectAllowedAction' },
);

export const EventInfo = Type.Object(
  {
    id: Type.String({ pattern: '^evt_' }),
    type: Literals(EVENT_TYPES),
    created_at: DateTime,
    environment: Environment,
    organization_id: Type.String(),
    partner_id: Nullable(Type.String()),
    data: Type.Object({ onboarding_id: Type.String(), data_version: Nullable(Type.Integer()) }),
    deliveries: Type.Integer({ description: 'webhook deliveries made for it' }),
  },
  { title: 'InspectEvent' },
);

const TimelineEntry = Type.Object(
  {
    at: DateTime,
    trigger: Nullable(Type.String({ description: 'the state-machine trigger; null when the events match none' })),
    from: Nullable(Literals(ONBOARDING_STATUSES)),
    to: Literals(ONBOARDING_STATUSES),
    data_version: Nullable(Type.Integer()),
    events: Type.Array(Type.Object({ id: Type.String(), type: Literals(EVENT_TYPES), data_version: Nullable(Type.Integer()) })),
    detail: Nullable(Type.String()),
  },
  { title: 'InspectTimelineEntry' },
);

const Approval = Type.Object(
  {
    role: Literals(ROLES),
    user_id: Type.String(),
    user_name: Nullable(Type.String()),
    data_version: Type.Integer(),
    valid: Type.Boolean(),
    at: DateTime,
  },
  { title: 'InspectApproval' },
);

export const InspectOnboarding = Type.Object(
  {
    onboarding: OnboardingSchema,
    environment: Environment,
    organization_id: Type.String(),
    partner_id: Nullable(Type.String()),
    allowed_actions: Type.Array(AllowedAction),
    timeline: Type.Array(TimelineEntry, { description: 'transitions in order, each with the events it made' }),
    approvals: Type.Array(Approval),
    people: Type.Array(
      Type.Object({ id: Type.String(), name: Type.String(), roles: Type.Array(Literals(ROLES)) }),
      { description: 'users of the organization, for the approve and verify-identity actions' },
    ),
  },
  { title: 'InspectOnboarding' },
);

export const InspectEventList = Type.Object(
  {
    data: Type.Array(EventInfo, { description: 'newest first' }),
    total: Type.Integer({ description: 'events matching the filter' }),
    newer: Type.Integer({ description: 'events matching the filter that are newer than this page (0 for the latest page); older ones are left when newer + data.length < total' }),
  },
  { title: 'InspectEventList' },
);

const Attempt = Type.Object(
  {
    at: DateTime,
    url: Type.Optional(Type.String({ description: "the address's URL the attempt was sent to (absent in attempts read back from older snapshots)" })),
    status_code: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    manual: Type.Boolean(),
    next_attempt_at: Nullable(DateTime),
    injected: Type.Optional(InjectedAttemptSchema),
    trace_id: Type.Optional(Type.String({ description: "with tracing on (docs/tracing.md): the trace of the attempt's span" })),
  },
  { title: 'InspectAttempt' },
);

export const InspectDelivery = Type.Object(
  {
    id: Type.String(),
    endpoint_id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    status: Literals(DELIVERY_STATUSES),
    attempts: Type.Integer(),
    last_status_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    created_at: DateTime,
    delivered_at: Nullable(DateTime),
    next_attempt_at: Nullable(DateTime),
    attempt_log: Type.Array(Attempt, { description: 'oldest first' }),
    injected: Type.Optional(InjectedFaultSchema),
    trace_id: Type.Optional(Type.String({ description: 'with tracing on (docs/tracing.md): the trace of the span that made the event, which every attempt joins' })),
  },
  { title: 'InspectDelivery' },
);

const WebhookInfo = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    description: Nullable(Type.String()),
    organization_id: Type.String(),
    environment: Environment,
    status: Literals(['enabled', 'disabled']),
    events: Type.Array(Type.String()),
    dead_in_a_row: Type.Integer(),
    created_at: DateTime,
    deliveries_total: Type.Integer(),
    deliveries: Type.Array(InspectDelivery, { description: 'newest first' }),
  },
  { title: 'InspectWebhook' },
);

export const InspectWebhookList = Type.Object({ data: Type.Array(WebhookInfo, { description: 'oldest first' }) }, { title: 'InspectWebhookList' });

export const InspectDeliveryList = ListOf(InspectDelivery, 'InspectDelivery');

export const DeliveryIdParam = Type.Object({ id: Type.String() });
