import type { ClockMode } from '../core/clock.js';
import { FAULT_KINDS, FAULT_LIMITS, FAULT_METHODS, type Fault } from '../core/faults.js';
import type { IdempotencyRecord } from '../core/idempotency.js';
import type { RandomState } from '../core/random.js';
import { Type, type TSchema } from '../core/schema.js';
import { collectionNames, type Collection, type Store } from '../core/store.js';
import type { TimerQueueState } from '../core/timers.js';
import type { AuditEntry } from '../resources/documents/documents.service.js';
import type { OutboxMail } from '../resources/onboardings/outbox.js';
import { RECORD_SCHEMAS } from './snapshot.records.js';
import type { AutopilotProgress, LoadedScenario } from '../scenarios/scenario.model.js';
import { STORE_LAYOUT } from '../resources/collections.js';

/**
 * The snapshot document (`GET/PUT /_emulator/snapshot`, and the `--state-file`):
 * one workspace's whole state as plain JSON. `format` and `version` come first, so a reader
 * knows at once whether it can read the rest; a change of shape gets a new version.
 */
export const SNAPSHOT_FORMAT = 'onboarding-emulator-snapshot';
export const SNAPSHOT_VERSION = 1;

/** Every collection of the store, each as an array of its records, oldest first. */
export type SnapshotStore = { [K in keyof Store]: Store[K] extends Collection<infer T> ? T[] : number };

export interface WorkspaceSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** Where the snapshot was taken; informative: it may be restored into another workspace. */
  workspace: { id: string; created_at: string };
  /**
   * `now` is the emulated time when taken. A realtime clock is restored with its `offset_ms`
   * (emulated minus wall time), so it keeps following the wall clock; a frozen one at `now`.
   */
  clock: { mode: ClockMode; now: string; offset_ms: number };
  /** A seeded source's position, so ids after a restore continue the same sequence; null: OS random. */
  random: RandomState | null;
  store: SnapshotStore;
  timers: TimerQueueState;
  idempotency: IdempotencyRecord[];
  outbox: OutboxMail[];
  audit_log: AuditEntry[];
  faults: Fault[];
  scenario: LoadedScenario | null;
  /** Per onboarding id, the autopilot's progress. */
  autopilot: Record<string, AutopilotProgress>;
  /**
   * Only in a --state-file: the digest of the start scenario (--scenario) in force when it was
   * written, null for none, so a restart tells a changed flag from a scenario changed through the
   * API. A restore ignores it.
   */
  state_file?: {
    start_scenario: string | null;
    /**
     * True from the start of a process on the file until its clean stop writes false: a start on
     * a file still open follows a kill, whose last answers may have handed out ids the file
     * does not hold. Absent in older files and saved snapshots: taken as closed.
     */
    open?: boolean;
    /** How many starts followed such a kill; each draws ids from a stream of its own. */
    restarts?: number;
  };
}

/** The store's collections, as the resources declare them. */
export const COLLECTIONS = collectionNames(STORE_LAYOUT);

/** The field a collection is indexed by. */
export const idFieldOf = (collection: keyof typeof STORE_LAYOUT): string => STORE_LAYOUT[collection];

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);
const record = (idField: string, more: Record<string, TSchema> = {}) => Type.Object({ [idField]: Str, ...more });
/** Every field later requests read is checked (snapshot.records.ts): a restore cannot leave a record that breaks them. */
function recordSchema(name: string): TSchema {
  const schema = RECORD_SCHEMAS[name];
  if (!schema) throw new Error(`no snapshot schema for the store collection ${name}`);
  return schema;
}
const Uint32 = Type.Integer({ minimum: 0, maximum: 4_294_967_295 });

const StoreSchema = Type.Object(
  {
    ...Object.fromEntries(COLLECTIONS.map((name) => [name, Type.Array(recordSchema(name))])),
    sequence: Type.Integer({ minimum: 1, description: 'the next record position' }),
  },
  { additionalProperties: false },
);

const TimerSchema = Type.Object(
  { seq: Type.Integer({ minimum: 1 }), due: Type.Number({ description: 'ms since the epoch on the workspace clock' }), kind: Str, payload: Type.Object({}) },
  { additionalProperties: false },
);

const IdempotencySchema = Type.Object(
  {
    scope: Str,
    key: Str,
    fingerprint: Type.String(),
    response: Type.Object(
      {
        // A replay writes these as they are: only what a succeeded request records (a 2xx, header names
        // and values node can send) may be restored, or the replay itself would answer 500.
        status: Type.Integer({ minimum: 200, maximum: 299 }),
        body: Type.String(),
        headers: Type.Unsafe<Record<string, string>>({
          type: 'object',
          propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
          additionalProperties: { type: 'string', pattern: '^[\\t\\u0020-\\u007e\\u0080-\\u00ff]*$' },
        }),
      },
      { additionalProperties: false },
    ),
    expires_at: Type.Number(),
  },
  { additionalProperties: false },
);

const FaultSchema = Type.Object({
  id: Str,
  object: Type.Literal('fault'),
  kind: Type.Unsafe<string>({ enum: [...FAULT_KINDS] }),
  method: Type.Unsafe<string | null>({ enum: [...FAULT_METHODS, null] }),
  path: Nullable(Type.String()),
  count: Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.count }),
  remaining: Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.count }),
  latency_ms: Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.latencyMs })),
  retry_after_seconds: Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.retryAfterSeconds })),
  error_code: Nullable(Type.String()),
  created_at: Instant,
});

const AutopilotSchema = Type.Object({
  rule: Str,
  step: Nullable(Type.String()),
  timer: Nullable(Type.Integer()),
  due_at: Nullable(Instant),
  corrections: Type.Integer({ minimum: 0 }),
  terms_changed: Type.Boolean(),
});

export const SnapshotSchema = Type.Unsafe<WorkspaceSnapshot>(
  Type.Object(
    {
      format: Type.Literal(SNAPSHOT_FORMAT),
      version: Type.Literal(SNAPSHOT_VERSION),
      workspace: Type.Object({ id: Str, created_at: Instant }),
      clock: Type.Object(
        { mode: Type.Unsafe<ClockMode>({ enum: ['realtime', 'frozen'] }), now: Instant, offset_ms: Type.Number({ description: 'realtime: emulated minus wall time; frozen: 0' }) },
        { additionalProperties: false },
      ),
      random: Nullable(Type.Object({ seed: Type.String(), words: Type.Array(Uint32, { minItems: 4, maxItems: 4 }) }, { additionalProperties: false })),
      store: StoreSchema,
      timers: Type.Object(
        { next_seq: Type.Integer({ minimum: 1 }), timers: Type.Array(TimerSchema), cancelled: Type.Array(Type.Integer({ minimum: 1 })) },
        { additionalProperties: false },
      ),
      idempotency: Type.Array(IdempotencySchema),
      outbox: Type.Array(record('id', { to: Type.String(), onboarding_id: Str, sent_at: Instant })),
      audit_log: Type.Array(Type.Object({ at: Instant, action: Str, document_id: Str })),
      faults: Type.Array(FaultSchema),
      scenario: Nullable(Type.Object({ document: Type.Object({}), source: Type.String(), loaded_at: Instant })),
      autopilot: Type.Unsafe<Record<string, AutopilotProgress>>({ type: 'object', additionalProperties: AutopilotSchema }),
      state_file: Type.Optional(
        Type.Object(
          { start_scenario: Nullable(Str), open: Type.Optional(Type.Boolean()), restarts: Type.Optional(Type.Integer({ minimum: 0 })) },
          { additionalProperties: false, description: 'written by --state-file; ignored by a restore' },
        ),
      ),
    },
    {
      additionalProperties: false,
      title: 'WorkspaceSnapshot',
      description: 'A whole workspace as one JSON document: store, clock, timers, random position, idempotency records, outbox, audit log, faults and scenario state. Take it with GET, give it back with PUT.',
    },
  ),
);
