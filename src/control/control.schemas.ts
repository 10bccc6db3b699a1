import { DEFAULT_PAYROLL_DOWN_ERROR, FAULT_KINDS, FAULT_LIMITS, FAULT_METHODS, SLOW_RESPONSE_CHUNKS } from '../core/faults.js';
import { Type } from '../core/schema.js';
import { API_VERSIONS } from '../core/versions.js';
import { Literals, Nullable, DateTime } from '../resources/common.schemas.js';
import { SCOPES, ROLES } from '../resources/organizations/organizations.model.js';


const ClockInput = Type.Object(
  {
    mode: Type.Optional(Literals(['realtime', 'frozen'])),
    start: Type.Optional(DateTime),
  },
  { additionalProperties: false },
);

export const CreateWorkspaceBody = Type.Object(
  {
    fixtures: Type.Optional(Type.Object({}, { description: 'a fixtures document (see docs/fixtures.md); default: the fixtures the emulator started with' })),
    scenario: Type.Optional(Type.Union([Type.Object({}), Type.Null()], { description: 'a scenario document (docs/scenarios.md), null for none; default: the scenario the emulator started with' })),
    seed: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Integer()])),
    clock: Type.Optional(ClockInput),
  },
  { additionalProperties: false, title: 'CreateWorkspaceRequest' },
);

const KeyInfo = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    environment: Literals(['test', 'live']),
    organization_id: Type.String(),
    partner_id: Nullable(Type.String()),
    user: Nullable(Type.Object({ id: Type.String(), email: Type.String(), name: Type.String(), roles: Type.Array(Literals(ROLES)) })),
    scopes: Type.Array(Literals(SCOPES)),
    api_version: Literals(API_VERSIONS),
  },
  { title: 'KeyInfo' },
);

export const KeyList = Type.Object({ data: Type.Array(KeyInfo) }, { title: 'KeyList' });

const ClockState = Type.Object({ now: DateTime, mode: Literals(['realtime', 'frozen']) });

export const WorkspaceInfo = Type.Object(
  {
    id: Type.String(),
    created_at: DateTime,
    seeded: Type.Boolean(),
    clock: ClockState,
    counts: Type.Object({ keys: Type.Integer(), onboardings: Type.Integer(), employees: Type.Integer() }),
    reset: Type.Optional(Type.Boolean()),
  },
  { title: 'WorkspaceInfo' },
);

export const CreatedWorkspace = Type.Object(
  { id: Type.String(), keys: Type.Array(KeyInfo), clock: ClockState },
  { title: 'CreatedWorkspace' },
);

export const WorkspaceList = Type.Object({ data: Type.Array(WorkspaceInfo) }, { title: 'WorkspaceList' });

export const Health = Type.Object(
  { status: Type.Literal('ok'), version: Type.String(), started_at: DateTime, workspaces: Type.Integer() },
  { title: 'Health' },
);

export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) }, { title: 'Deleted' });

export const WorkspaceParam = Type.Object({ workspaceId: Type.String() });
export const NoBody = Type.Object({}, { additionalProperties: false });

export const AdvanceBody = Type.Object(
  {
    by: Type.Union([Type.Number({ minimum: 0 }), Type.String({ minLength: 1 })], {
      description: 'seconds, a duration such as "90m" or "1h30m", or ISO 8601 such as "PT90M"; 0 runs what is due now',
    }),
  },
  { additionalProperties: false, title: 'AdvanceClockRequest' },
);

export const SetClockBody = Type.Object({ now: DateTime }, { additionalProperties: false, title: 'SetClockRequest' });

/** A timer as the clock reports it (the next one, and each in `fired`): kind, due time, then its payload's fields. */
const TimerEntry = Type.Object(
  {
    kind: Type.String({ description: 'scenario.step, webhook.attempt, webhook.delivery_purge, webhook.secret_expire, event.purge, review_session.expire or reviewer_link.expire' }),
    due_at: DateTime,
    onboarding_id: Type.Optional(Type.String({ description: 'scenario.step: the onboarding it moves' })),
    step: Type.Optional(Type.String({ description: 'scenario.step: the scripted step, such as employee_opened' })),
    delivery_id: Type.Optional(Type.String({ description: 'webhook.attempt, webhook.delivery_purge: the delivery' })),
    event_id: Type.Optional(Type.String({ description: 'event.purge: the event' })),
    webhook_id: Type.Optional(Type.String({ description: 'webhook.secret_expire: the address' })),
    review_session_id: Type.Optional(Type.String()),
    reviewer_link_id: Type.Optional(Type.String()),
  },
  { title: 'TimerEntry', description: "the timer's kind, due time and payload; a kind may carry other payload fields, and a fired one what it did (status, skipped, ...)" },
);

export const ClockInfo = Type.Object(
  {
    now: DateTime,
    mode: Literals(['realtime', 'frozen']),
    pending_timers: Type.Integer(),
    next_due_at: Nullable(DateTime),
    next_timer: Nullable(TimerEntry),
    fired: Type.Optional(Type.Array(TimerEntry)),
  },
  { title: 'ClockState' },
);

export const EnabledWebhook = Type.Object({ id: Type.String(), status: Literals(['enabled', 'disabled']) }, { title: 'EnabledWebhook' });

export const CreateFaultBody = Type.Object(
  {
    kind: Literals(FAULT_KINDS),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.count, description: 'how many matching requests (payroll_down: payroll runs) it applies to; default 1' })),
    method: Type.Optional(Literals(FAULT_METHODS)),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '^/[^*]*\\*?$', description: 'an exact path, or a prefix ending in * such as /v1/onboardings*' })),
    latency_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.latencyMs, description: 'latency only: the wait before the request goes on' })),
    retry_after_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.retryAfterSeconds, description: 'rate_limit only: the Retry-After header; default 1' })),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$', description: `payroll_down only: the payroll error_code of the failed runs; default ${DEFAULT_PAYROLL_DOWN_ERROR}` })),
    first_byte_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.latencyMs, description: 'slow_response only: the wait, after the request ran, before the first byte of the answer' })),
    between_bytes_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.betweenBytesMs, description: `slow_response only: the pause between the pieces of the body (at most ${SLOW_RESPONSE_CHUNKS} pieces)` })),
  },
  { additionalProperties: false, title: 'CreateFaultRequest' },
);

export const FaultInfo = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('fault'),
    kind: Literals(FAULT_KINDS),
    method: Nullable(Literals(FAULT_METHODS)),
    path: Nullable(Type.String()),
    count: Type.Integer(),
    remaining: Type.Integer(),
    latency_ms: Nullable(Type.Integer()),
    retry_after_seconds: Nullable(Type.Integer()),
    error_code: Nullable(Type.String()),
    first_byte_ms: Nullable(Type.Integer()),
    between_bytes_ms: Nullable(Type.Integer()),
    created_at: DateTime,
  },
  { title: 'Fault' },
);

export const RestoredWorkspace = Type.Object(
  {
    id: Type.String(),
    created_at: DateTime,
    seeded: Type.Boolean(),
    clock: ClockState,
    counts: Type.Object({ keys: Type.Integer(), onboardings: Type.Integer(), employees: Type.Integer() }),
    restored: Type.Literal(true),
  },
  { title: 'RestoredWorkspace' },
);

export const FaultList = Type.Object({ data: Type.Array(FaultInfo) }, { title: 'FaultList' });
export const FaultsCleared = Type.Object({ deleted: Type.Integer() }, { title: 'FaultsCleared' });
