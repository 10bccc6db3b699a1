import { Clock, ClockError, instantOutOfRange } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { FaultList } from '../core/faults.js';
import { IdempotencyStore } from '../core/idempotency.js';
import { createIds, type IdFactory } from '../core/ids.js';
import { restoreRandom, type RandomSource } from '../core/random.js';
import { createStore, snapshotStore, type Store } from '../core/store.js';
import { TimerQueue } from '../core/timers.js';
import { compile } from '../core/validation.js';
import type { Workspace } from '../core/workspace.js';
import type { AuditEntry } from '../resources/documents/documents.service.js';
import type { OutboxMail } from '../resources/onboardings/outbox.js';
import type { AutopilotProgress, LoadedScenario } from '../scenarios/scenario.model.js';
import { COLLECTIONS, idFieldOf, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotSchema, type WorkspaceSnapshot } from './snapshot.schema.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotSchema, type WorkspaceSnapshot } from './snapshot.schema.js';

/**
 * Snapshots of one workspace (the control API's snapshot and restore, and the state file):
 * taken as plain JSON, read back with every mistake listed, and built into a complete new state
 * before anything of the workspace is touched, so a refused restore changes nothing. The
 * workspace's fields are replaced here rather than by a method of Workspace, which stays the
 * plain isolation unit.
 */

/** The wall time as the workspace's clock reads it (its injected wallNow in tests), through a clock at offset 0. */
function wallMs(ws: Workspace): number {
  const wallNow = ws.recipe.clock?.wallNow;
  return new Clock({ mode: 'realtime', ...(wallNow ? { wallNow } : {}) }).nowMs();
}

/** A deep copy of the workspace's whole state; equal states give byte-identical JSON. */
export function takeSnapshot(ws: Workspace): WorkspaceSnapshot {
  const { clock } = ws;
  const snapshot: WorkspaceSnapshot = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    workspace: { id: ws.id, created_at: ws.createdAt },
    clock: { mode: clock.mode, now: ws.now(), offset_ms: clock.mode === 'realtime' ? clock.nowMs() - wallMs(ws) : 0 },
    random: ws.random.state(),
    store: snapshotStore(ws.store) as WorkspaceSnapshot['store'],
    timers: ws.timers.entries(),
    idempotency: ws.idempotency.records(),
    outbox: ws.outbox,
    audit_log: ws.auditLog,
    faults: ws.faults.list(),
    scenario: ws.scenario,
    autopilot: Object.fromEntries(ws.autopilot),
  };
  return JSON.parse(JSON.stringify(snapshot)) as WorkspaceSnapshot;
}

const validate = compile<WorkspaceSnapshot>(SnapshotSchema);

export function snapshotRefusal(mistakes: ErrorDetail[]): ApiError {
  const e = new ApiError('snapshot_invalid', `The snapshot has ${mistakes.length} mistake(s); see details. Nothing was changed.`);
  e.details = mistakes;
  return e;
}

/**
 * Checks a document in full: the format and version first (another version is
 * snapshot_version_unsupported), then the shape, then what the shape cannot say (unique ids,
 * timer numbers below next_seq). `more` adds the checks of the layers above the core.
 */
export function readSnapshot(document: unknown, more: (s: WorkspaceSnapshot) => ErrorDetail[] = () => []): WorkspaceSnapshot {
  const doc = document as { format?: unknown; version?: unknown } | null;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw snapshotRefusal([{ path: '(document)', message: 'must be a JSON object' }]);
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw snapshotRefusal([{ path: 'format', message: `must be "${SNAPSHOT_FORMAT}": this is not a snapshot of this emulator (take one with GET /_emulator/snapshot)` }]);
  }
  if (typeof doc.version === 'number' && doc.version !== SNAPSHOT_VERSION) {
    throw new ApiError('snapshot_version_unsupported', `The snapshot has version ${doc.version}; this emulator reads version ${SNAPSHOT_VERSION} only. Nothing was changed.`, 'version');
  }
  const shape = validate(document);
  if (!shape.ok) throw snapshotRefusal(shape.mistakes.map((m) => ({ path: m.path || '(document)', message: m.message })));
  const snapshot = shape.value;
  const mistakes = [...meaningMistakes(snapshot), ...more(snapshot)];
  if (mistakes.length) throw snapshotRefusal(mistakes);
  return snapshot;
}

function meaningMistakes(s: WorkspaceSnapshot): ErrorDetail[] {
  const mistakes: ErrorDetail[] = [];
  for (const name of COLLECTIONS) {
    const field = idFieldOf(name);
    const seen = new Set<string>();
    (s.store[name] as unknown as Record<string, string>[]).forEach((r, i) => {
      const id = r[field]!;
      if (seen.has(id)) mistakes.push({ path: `store.${name}[${i}].${field}`, message: `${id} appears twice` });
      seen.add(id);
    });
  }
  mistakes.push(...danglingReferences(s));
  s.idempotency.forEach((r, i) => {
    if (!isJsonText(r.response.body)) mistakes.push({ path: `idempotency[${i}].response.body`, message: 'must be JSON text: a replay sends it as the answer' });
  });
  const outside = instantOutOfRange(Date.parse(s.clock.now));
  if (outside) mistakes.push({ path: 'clock.now', message: outside });
  const seqs = new Set<number>();
  s.timers.timers.forEach((t, i) => {
    if (Number.isNaN(new Date(t.due).getTime())) mistakes.push({ path: `timers.timers[${i}].due`, message: 'must be a valid instant (ms since the epoch)' });
    if (seqs.has(t.seq)) mistakes.push({ path: `timers.timers[${i}].seq`, message: `${t.seq} appears twice` });
    if (t.seq >= s.timers.next_seq) mistakes.push({ path: `timers.timers[${i}].seq`, message: `must be below timers.next_seq (${s.timers.next_seq})` });
    seqs.add(t.seq);
  });
  return mistakes;
}

/**
 * The references every request follows without a check of its own (a key to its organization
 * and user, a record to its organization): one naming nothing would fail each later request
 * that reads it, so the snapshot is refused instead.
 */
function danglingReferences(s: WorkspaceSnapshot): ErrorDetail[] {
  const mistakes: ErrorDetail[] = [];
  const orgs = new Set(s.store.organizations.map((o) => o.id));
  const users = new Set(s.store.users.map((u) => u.id));
  const expectIn = (ids: Set<string>, what: string, id: string | null, path: string) => {
    if (id !== null && !ids.has(id)) mistakes.push({ path, message: `names ${what} ${id}, which the snapshot does not hold` });
  };
  s.store.organizations.forEach((o, i) => o.admitted_by.forEach((a, j) => expectIn(orgs, 'the organization', a.organization_id, `store.organizations[${i}].admitted_by[${j}].organization_id`)));
  s.store.users.forEach((u, i) => expectIn(orgs, 'the organization', u.organization_id, `store.users[${i}].organization_id`));
  s.store.keys.forEach((k, i) => {
    expectIn(orgs, 'the organization', k.organization_id, `store.keys[${i}].organization_id`);
    expectIn(users, 'the user', k.user_id, `store.keys[${i}].user_id`);
  });
  for (const name of ['onboardings', 'employees', 'events', 'webhooks', 'reviewSessions', 'reviewerLinks'] as const) {
    (s.store[name] as { organization_id: string; partner_id?: string | null }[]).forEach((r, i) => {
      expectIn(orgs, 'the organization', r.organization_id, `store.${name}[${i}].organization_id`);
      if (r.partner_id !== undefined) expectIn(orgs, 'the partner', r.partner_id, `store.${name}[${i}].partner_id`);
    });
  }
  return mistakes;
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Everything a restore replaces, built apart from the workspace. */
export interface WorkspaceState {
  clock: Clock;
  random: RandomSource;
  ids: IdFactory;
  store: Store;
  idempotency: IdempotencyStore;
  timers: TimerQueue;
  outbox: OutboxMail[];
  auditLog: AuditEntry[];
  faults: FaultList;
  scenario: LoadedScenario | null;
  autopilot: Map<string, AutopilotProgress>;
}

/** A complete new state from a checked snapshot; the workspace is only read (its wall-clock source). */
export function buildState(checked: WorkspaceSnapshot, ws: Workspace): WorkspaceState {
  const s = JSON.parse(JSON.stringify(checked)) as WorkspaceSnapshot; // nothing shared with the caller's object
  const wallNow = ws.recipe.clock?.wallNow;
  const start = s.clock.mode === 'frozen' ? Date.parse(s.clock.now) : wallMs(ws) + s.clock.offset_ms;
  let clock: Clock;
  try {
    clock = new Clock({ mode: s.clock.mode, start, ...(wallNow ? { wallNow } : {}) });
  } catch (err) {
    // A realtime offset that puts now outside the clock's range (the shape and now were fine).
    if (!(err instanceof ClockError)) throw err;
    throw snapshotRefusal([{ path: s.clock.mode === 'frozen' ? 'clock.now' : 'clock.offset_ms', message: err.message }]);
  }
  const random = restoreRandom(s.random === null ? null : { seed: s.random.seed, words: [...s.random.words] as [number, number, number, number] });
  const store = createStore(ws.recipe.collections);
  for (const name of COLLECTIONS) {
    const collection = store[name] as unknown as { put(r: unknown): unknown };
    for (const r of s.store[name]) collection.put(r);
  }
  store.sequence.next = s.store.sequence;
  return {
    clock,
    random,
    ids: createIds(random),
    store,
    idempotency: IdempotencyStore.restore(s.idempotency),
    timers: TimerQueue.restore(s.timers),
    outbox: s.outbox,
    auditLog: s.audit_log,
    faults: FaultList.restore(s.faults),
    scenario: s.scenario,
    autopilot: new Map(Object.entries(s.autopilot)),
  };
}

/**
 * Swaps the new state in, all at once. The realtime alarm of the old timers is stopped first;
 * the caller runs what is due and re-arms (Scheduler.runDue) once the key index is updated.
 */
export function applyState(ws: Workspace, state: WorkspaceState): void {
  ws.scheduler.stop();
  ws.clock = state.clock;
  ws.random = state.random;
  ws.ids = state.ids;
  ws.store = state.store;
  ws.idempotency = state.idempotency;
  ws.timers = state.timers;
  ws.outbox = state.outbox;
  ws.auditLog = state.auditLog;
  ws.faults = state.faults;
  ws.scenario = state.scenario;
  ws.autopilot = state.autopilot;
}
