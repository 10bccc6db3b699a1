import { Clock, ClockError, instantOutOfRange, type ClockMode } from '../core/clock.js';
import type { ErrorDetail } from '../core/errors.js';
import { FAULT_KINDS, FAULT_LIMITS, FAULT_METHODS, FaultList, type Fault } from '../core/faults.js';
import { IdempotencyStore } from '../core/idempotency.js';
import { JOURNAL_LIMIT, JOURNAL_MAX_LIMIT, RequestJournal, type JournalState } from '../core/journal.js';
import { createRandom, restoreRandom, type RandomState } from '../core/random.js';
import { Type, type TSchema } from '../core/schema.js';
import { TimerQueue } from '../core/timers.js';
import type { Workspace, WorkspacePart } from '../core/workspace.js';
import { snapshotRefusal } from './snapshot.js';

/**
 * The parts of the core's own state (see WorkspaceParts in src/core/workspace.ts): how each is
 * made, saved and read back, and its snapshot schema. They are written here, beside the
 * snapshot, because reading one back may refuse the document, which the core does not word.
 */

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);
const Uint32 = Type.Integer({ minimum: 0, maximum: 4_294_967_295 });

/** The wall time as the workspace's clock reads it (its injected wallNow in tests), through a clock at offset 0. */
function wallMs(ws: Workspace): number {
  const wallNow = ws.recipe.clock?.wallNow;
  return new Clock({ mode: 'realtime', ...(wallNow ? { wallNow } : {}) }).nowMs();
}

export const CLOCK_PART: WorkspacePart<'clock'> = {
  name: 'clock',
  create: (ws) => new Clock(ws.recipe.clock),
  save: (clock, ws) => ({ mode: clock.mode, now: clock.iso(), offset_ms: clock.mode === 'realtime' ? clock.nowMs() - wallMs(ws) : 0 }),
  load(saved, ws) {
    const wallNow = ws.recipe.clock?.wallNow;
    const start = saved.mode === 'frozen' ? Date.parse(saved.now) : wallMs(ws) + saved.offset_ms;
    try {
      return new Clock({ mode: saved.mode, start, ...(wallNow ? { wallNow } : {}) });
    } catch (err) {
      // A realtime offset that puts now outside the clock's range (the shape and now were fine).
      if (!(err instanceof ClockError)) throw err;
      throw snapshotRefusal([{ path: saved.mode === 'frozen' ? 'clock.now' : 'clock.offset_ms', message: err.message }]);
    }
  },
  schema: Type.Object(
    { mode: Type.Unsafe<ClockMode>({ enum: ['realtime', 'frozen'] }), now: Instant, offset_ms: Type.Number({ description: 'realtime: emulated minus wall time; frozen: 0' }) },
    { additionalProperties: false },
  ),
  check(saved) {
    const outside = instantOutOfRange(Date.parse(saved.now));
    return outside ? [{ path: 'clock.now', message: outside }] : [];
  },
};

export const RANDOM_PART: WorkspacePart<'random'> = {
  name: 'random',
  create: (ws) => createRandom(ws.recipe.seed),
  save: (random) => random.state(),
  load: (saved) => restoreRandom(saved === null ? null : { seed: saved.seed, words: [...saved.words] }),
  schema: Nullable(Type.Object({ seed: Type.String(), words: Type.Unsafe<RandomState['words']>(Type.Array(Uint32, { minItems: 4, maxItems: 4 })) }, { additionalProperties: false })),
};

const TimerSchema = Type.Object(
  { seq: Type.Integer({ minimum: 1 }), due: Type.Number({ description: 'ms since the epoch on the workspace clock' }), kind: Str, payload: Type.Object({}) },
  { additionalProperties: false },
);

export const TIMERS_PART: WorkspacePart<'timers'> = {
  name: 'timers',
  create: () => new TimerQueue(),
  save: (timers) => timers.entries(),
  load: (saved) => TimerQueue.restore(saved),
  schema: Type.Object(
    { next_seq: Type.Integer({ minimum: 1 }), timers: Type.Array(TimerSchema), cancelled: Type.Array(Type.Integer({ minimum: 1 })) },
    { additionalProperties: false },
  ),
  check(saved) {
    const mistakes: ErrorDetail[] = [];
    const seqs = new Set<number>();
    saved.timers.forEach((t, i) => {
      if (Number.isNaN(new Date(t.due).getTime())) mistakes.push({ path: `timers.timers[${i}].due`, message: 'must be a valid instant (ms since the epoch)' });
      if (seqs.has(t.seq)) mistakes.push({ path: `timers.timers[${i}].seq`, message: `${t.seq} appears twice` });
      if (t.seq >= saved.next_seq) mistakes.push({ path: `timers.timers[${i}].seq`, message: `must be below timers.next_seq (${saved.next_seq})` });
      seqs.add(t.seq);
    });
    return mistakes;
  },
};

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

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const IDEMPOTENCY_PART: WorkspacePart<'idempotency'> = {
  name: 'idempotency',
  create: () => new IdempotencyStore(),
  save: (records) => records.records(),
  load: (saved) => IdempotencyStore.restore(saved),
  schema: Type.Array(IdempotencySchema),
  check: (saved) =>
    saved.flatMap((r, i) => (isJsonText(r.response.body) ? [] : [{ path: `idempotency[${i}].response.body`, message: 'must be JSON text: a replay sends it as the answer' }])),
};

const FaultSchema = Type.Object({
  id: Str,
  object: Type.Literal('fault'),
  kind: Type.Unsafe<Fault['kind']>({ enum: [...FAULT_KINDS] }),
  method: Type.Unsafe<Fault['method']>({ enum: [...FAULT_METHODS, null] }),
  path: Nullable(Type.String()),
  count: Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.count }),
  remaining: Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.count }),
  latency_ms: Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.latencyMs })),
  retry_after_seconds: Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.retryAfterSeconds })),
  error_code: Nullable(Type.String()),
  // Optional: a snapshot written before slow_response has neither.
  first_byte_ms: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.latencyMs }))),
  between_bytes_ms: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: FAULT_LIMITS.betweenBytesMs }))),
  created_at: Instant,
});

export const FAULTS_PART: WorkspacePart<'faults'> = {
  name: 'faults',
  create: () => new FaultList(),
  save: (faults) => faults.list(),
  load: (saved) => FaultList.restore(saved),
  // The two optional fields are filled in by FaultList.restore, so what load hands on is a Fault.
  schema: Type.Array(FaultSchema) as unknown as TSchema<Fault[]>,
};

const JournalEntrySchema = Type.Object(
  {
    id: Str,
    object: Type.Literal('request'),
    at: Instant,
    key: Type.String(),
    method: Str,
    path: Str,
    query: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
    headers: Type.Object(
      { idempotency_key: Nullable(Type.String()), service_version: Nullable(Type.String()), service_organization: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    body: Type.Unknown(),
    body_bytes: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    error_code: Nullable(Type.String()),
    replayed: Type.Boolean(),
    answered: Type.Optional(Type.Boolean()),
    duration_ms: Nullable(Type.Number({ minimum: 0 })),
    onboarding_ids: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * The request journal, as long as the workspace's limit (`--journal-limit`). Optional in the
 * document, so files written before it existed still load (with an empty journal); no more
 * entries than the largest limit allows, and a journal longer than this workspace's limit is
 * trimmed to it on load (the oldest dropped and counted).
 */
export const REQUESTS_PART: WorkspacePart<'requests'> = {
  name: 'requests',
  create: (ws) => new RequestJournal(ws.recipe.journalLimit ?? JOURNAL_LIMIT),
  save: (journal) => journal.save(),
  load: (saved: JournalState | undefined, ws) => {
    const limit = ws.recipe.journalLimit ?? JOURNAL_LIMIT;
    return saved === undefined ? new RequestJournal(limit) : RequestJournal.restore(saved, limit);
  },
  schema: Type.Optional(
    Type.Object(
      {
        next_seq: Type.Integer({ minimum: 1 }),
        dropped: Type.Integer({ minimum: 0 }),
        entries: Type.Array(JournalEntrySchema, { maxItems: JOURNAL_MAX_LIMIT }),
      },
      { additionalProperties: false },
    ),
  ),
  // A cursor names one entry, and the entries to come must not reuse an id.
  check(saved: JournalState | undefined) {
    if (saved === undefined) return [];
    const mistakes: ErrorDetail[] = [];
    const ids = new Set<string>();
    saved.entries.forEach((e, i) => {
      if (ids.has(e.id)) mistakes.push({ path: `requests.entries[${i}].id`, message: `${e.id} appears twice` });
      ids.add(e.id);
      const seq = /^jrn_([0-9]+)$/.exec(e.id)?.[1];
      if (seq === undefined) mistakes.push({ path: `requests.entries[${i}].id`, message: 'must be jrn_ followed by digits' });
      else if (Number(seq) >= saved.next_seq) mistakes.push({ path: `requests.entries[${i}].id`, message: `must be below requests.next_seq (${saved.next_seq})` });
    });
    return mistakes;
  },
};
