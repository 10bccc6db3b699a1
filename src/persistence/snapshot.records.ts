import { KEY_PATTERN, WEBHOOK_SECRET_PATTERN } from '../core/mask.js';
import { Type, type TSchema } from '../core/schema.js';
import { ONBOARDING_STATUSES, PAYROLL_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { CONTRACT_TYPES, ROLES, SCOPES } from '../resources/organizations/organizations.model.js';
import { InjectedAttemptSchema, InjectedFaultSchema } from '../delivery-faults/delivery-faults.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { DELIVERY_STATUSES } from '../resources/webhooks/webhooks.model.js';

/**
 * The records of a snapshot's store, field by field as the emulator reads them. A restored
 * record is used by every later request, so a field of the wrong type (a date that is no date,
 * a list that is an object) would make those requests fail long after the restore answered
 * 200; checked here, it is a 422 naming the field instead. Extra fields are let through: they
 * are never read.
 */
const Str = Type.String();
const Id = Type.String({ minLength: 1 });
/**
 * An instant as Date writes it, six-digit years included, so a snapshot written before the
 * clock's range left room below year 10000 still restores. Every string of this form reads back as a Date.
 */
const Instant = Type.String({ pattern: '^(\\d{4}|[+-]\\d{6})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$' });
const Day = Type.String({ format: 'date' });
const Count = Type.Integer({ minimum: 0 });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);
const OneOf = (values: readonly (string | null)[]) => Type.Unsafe<string>({ enum: [...values] });
const Environment = OneOf(['test', 'live']);
const Roles = Type.Array(OneOf(ROLES));
const Plain = Type.Unsafe<Record<string, unknown>>({ type: 'object' });
/** Metadata values as the API accepts them; the key rules are the API's and not needed to read. */
const Metadata = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } });

const organization = Type.Object({
  id: Id, kind: OneOf(['employer', 'partner']), name: Str, subscription: OneOf(['active', 'trial', 'none']), trial_ends_at: Nullable(Instant),
  api_approvals: Type.Boolean(), allowed_origins: Type.Array(Str),
  branding: Type.Object({ color: Nullable(Str), logo_url: Nullable(Str) }),
  locations: Type.Array(Type.Object({ id: Id, name: Str, city: Str })),
  templates: Type.Array(Type.Object({ id: Id, name: Str, contract_type: OneOf(CONTRACT_TYPES), cao: Str, version: Type.Integer({ minimum: 1 }), approval_roles: Roles })),
  payroll_connector: Str, payroll_failure: Type.Object({ enabled: Type.Boolean(), error_code: Str }),
  admitted_by: Type.Array(Type.Object({ organization_id: Id, scopes: Type.Array(OneOf(SCOPES)), active: Type.Boolean() })),
});

const user = Type.Object({ id: Id, organization_id: Id, name: Str, email: Str, roles: Roles });

/**
 * A key and a webhook secret hold only the characters the masking knows (src/core/mask.ts), so no
 * secret a workspace holds is shown in part; a masked key (with its ellipsis) is no key either.
 */
const ApiKey = Type.String({ pattern: KEY_PATTERN });
const WebhookSecret = Type.String({ pattern: WEBHOOK_SECRET_PATTERN });

const key = Type.Object({ key: ApiKey, name: Str, environment: Environment, organization_id: Id, user_id: Nullable(Id), scopes: Type.Array(OneOf(SCOPES)), api_version: Str });

const hostedLink = Type.Object({
  token: Id, code: Str, created_at: Instant, expires_at: Instant, activated_at: Nullable(Instant), revoked_at: Nullable(Instant),
  code_sent_at: Type.Optional(Nullable(Instant)), code_attempts: Type.Optional(Count), sessions: Type.Optional(Type.Array(Str)),
});

const onboarding = Type.Object({
  id: Id, seq: Count, environment: Environment, organization_id: Id, partner_id: Nullable(Id), created_by_key: Str, source: OneOf(['api', 'dashboard']),
  status: OneOf(ONBOARDING_STATUSES), returned_to: OneOf(['employee', 'manager', null]),
  employee: Type.Object({ id: Id, first_name: Str, last_name: Str, email: Str, phone: Nullable(Str) }),
  employment: Type.Object({
    position: Str, location_id: Str, start_date: Day, contract_type: OneOf(CONTRACT_TYPES),
    hours_per_week: Type.Number({ minimum: 0 }), hourly_wage_cents: Type.Integer({ minimum: 0 }),
  }),
  workflow: Type.Object({ template_id: Str, version: Type.Integer({ minimum: 1 }) }),
  required_roles: Roles, data_version: Type.Integer({ minimum: 1 }),
  started_at: Nullable(Instant), submitted_at: Nullable(Instant), identity_verified_at: Nullable(Instant),
  approvals: Type.Array(Type.Object({ role: OneOf(ROLES), user_id: Str, data_version: Type.Integer({ minimum: 1 }), at: Instant })),
  contract: Type.Object({ sent_at: Nullable(Instant), employee_signed_at: Nullable(Instant), employer_signed_at: Nullable(Instant) }),
  payroll: Nullable(Type.Object({ status: OneOf(PAYROLL_STATUSES), connector: Nullable(Str), external_id: Nullable(Str), error_code: Nullable(Str) })),
  hosted_link: Nullable(hostedLink),
  replaced_link_tokens: Type.Optional(Type.Array(Str)),
  employee_details: Type.Optional(Nullable(Plain)),
  return_reason: Type.Optional(Nullable(Str)),
  invitation_sent: Type.Boolean(), reference: Nullable(Str), metadata: Metadata, creation_metadata: Type.Optional(Metadata), return_url: Nullable(Str),
  documents: Type.Array(Type.Object({ id: Id, kind: Str, title: Nullable(Str), uploaded_at: Instant, downloadable: Type.Boolean(), file: Str })),
  cancelled_at: Nullable(Instant), completed_at: Nullable(Instant), created_at: Instant, updated_at: Instant,
});

const employee = Type.Object({
  id: Id, seq: Count, environment: Environment, organization_id: Id, partner_id: Nullable(Id), first_name: Str, last_name: Str,
  position: Str, location_id: Str, start_date: Day, onboarding_id: Nullable(Id),
});

const event = Type.Object({
  id: Id, seq: Count, type: OneOf(EVENT_TYPES), created_at: Instant, environment: Environment, organization_id: Id, partner_id: Nullable(Id),
  data: Type.Object({ onboarding_id: Str, reference: Nullable(Str), metadata: Metadata, data_version: Nullable(Type.Integer()) }),
});

/**
 * A webhook address as the API took it: read with the WHATWG URL parser, which takes what a
 * strict URI check refuses (an ellipsis a masked key left in it, say), so a workspace's own
 * snapshot always restores; an address no delivery can use fails its attempts, as it would have.
 */
const WebhookUrl = Type.String({ minLength: 1, maxLength: 2048 });

const webhook = Type.Object({
  id: Id, seq: Count, environment: Environment, organization_id: Id, url: WebhookUrl, description: Nullable(Str), events: Type.Array(Str),
  status: OneOf(['enabled', 'disabled']), api_version: Str, secret: WebhookSecret, previous_secret: Nullable(WebhookSecret), previous_secret_expires_at: Nullable(Instant),
  dead_in_a_row: Count, created_at: Instant,
});

// A trace id and a traceparent as W3C Trace Context writes them (present with tracing on; older files lack them).
const TraceId = Type.String({ pattern: '^[0-9a-f]{32}$' });
const Trace = Type.Object({ traceparent: Type.String({ pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' }), tracestate: Type.Optional(Type.String({ maxLength: 512 })) });
const attempt = Type.Object({
  at: Instant, url: Type.Optional(Str), status_code: Nullable(Type.Integer()), error: Nullable(Str), manual: Type.Boolean(), next_attempt_at: Nullable(Instant), injected: Type.Optional(InjectedAttemptSchema),
  trace_id: Type.Optional(TraceId),
});
const delivery = Type.Object({
  id: Id, seq: Count, endpoint_id: Id, event_id: Id, event_type: Str, status: OneOf(DELIVERY_STATUSES), attempts: Count,
  last_status_code: Nullable(Type.Integer()), last_error: Nullable(Str), created_at: Instant, delivered_at: Nullable(Instant), next_attempt_at: Nullable(Instant),
  body: Str, timer_seq: Nullable(Type.Integer({ minimum: 1 })), attempt_log: Type.Optional(Type.Array(attempt)),
  resume: Type.Optional(Type.Object({
    status: OneOf(DELIVERY_STATUSES), timer_seq: Nullable(Type.Integer({ minimum: 1 })),
    timer: Nullable(Type.Object({ seq: Type.Integer({ minimum: 1 }), due: Type.Number() })),
  })),
  injected: Type.Optional(InjectedFaultSchema),
  trace: Type.Optional(Trace),
});

const reviewSession = Type.Object({
  id: Id, token: Id, environment: Environment, organization_id: Id, client_id: Str, partner_id: Nullable(Id), created_by_key: Str, onboarding_id: Id,
  reviewer: Type.Object({ email: Str, external_id: Str, name: Nullable(Str) }), linked: Type.Boolean(),
  created_at: Instant, expires_at: Instant, opened_at: Nullable(Instant),
  page: Type.Optional(Nullable(Type.Object({ action_token: Id, expires_at: Instant, user_id: Nullable(Str), parent_origin: Nullable(Str) }))),
});

const reviewerLink = Type.Object({
  id: Id, environment: Environment, organization_id: Id, client_id: Str, external_id: Str, user_id: Type.Optional(Str), email: Str, linked_at: Instant, expires_at: Instant,
});

/** Per collection of the store; a collection missing here fails the snapshot schema's build (snapshot.schemas.ts). */
export const RECORD_SCHEMAS: Record<string, TSchema> = {
  organizations: organization, users: user, keys: key, onboardings: onboarding, employees: employee, events: event,
  webhooks: webhook, deliveries: delivery, reviewSessions: reviewSession, reviewerLinks: reviewerLink,
};
