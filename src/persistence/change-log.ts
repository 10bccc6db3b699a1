import { crc32 } from 'node:zlib';
import { Collection, type StoreLayout } from '../core/store.js';
import type { Timer, TimerQueue } from '../core/timers.js';
import type { IdempotencyChanges, IdempotencyRecord, IdempotencyStore } from '../core/idempotency.js';
import type { RequestJournal } from '../core/journal.js';
import type { PartField, Workspace, WorkspacePart } from '../core/workspace.js';
import { deliveryAsDue } from './in-flight.js';
import type { DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import type { WorkspaceSnapshot } from './snapshot.js';

/**
 * The state file's change log (`PATH.log`, beside the snapshot document at PATH): what changed
 * since the document was written, one record a line, so that a write costs what it changed and
 * not what the store holds. A record holds, in the document's own terms:
 *
 * - `store`: per collection the ids deleted and the records put (a put replaces a record where
 *   it is, or appends a new one), and the record sequence;
 * - `timers`: the numbers gone, the timers added, `next_seq` and the cancelled numbers;
 * - `requests`: the journal entries added, how many it keeps (the oldest dropped), `next_seq`, `dropped`;
 * - `idempotency`: the remembered responses gone, and those remembered since (each to the end);
 * - `append`: what the parts that only ever grow at their end (the outbox, the audit log) gained;
 * - `parts`: every other part that changed, whole (they are small: the clock, the random
 *   position, faults, the scenario, ...);
 * - `state_file`: the document's trailer, when it changed.
 *
 * Each record names the document it follows (`log`, the `state_file.log` of the document) and
 * its number in it (`n`, from 1); a line is the record's JSON, a tab, and the CRC-32 of the JSON
 * in hex. A line that is not whole at the end (a torn last write after a kill) is ignored, and so
 * is a log whose first record follows another document (a kill between writing the document and
 * emptying the log). Any other line that fails its check, or is not the next record of this
 * document, is damage: the reader reports where it starts and applies nothing after it.
 */

export interface LogRecord {
  log: string;
  n: number;
  store?: Record<string, { deleted: string[]; put: unknown[] } | number>;
  timers?: { next_seq: number; removed: number[]; added: Timer[]; cancelled: number[] };
  requests?: { next_seq: number; dropped: number; kept: number; added: unknown[] };
  idempotency?: IdempotencyChanges;
  append?: Record<string, unknown[]>;
  parts?: Record<string, unknown>;
  state_file?: WorkspaceSnapshot['state_file'];
}

/** The workspace fields whose parts the log records piece by piece; the others go whole. */
const PIECEWISE = new Set<PartField>(['store', 'timers', 'requests', 'idempotency']);
/**
 * Parts whose array only grows at its end (pushed to, never changed in place): a write logs
 * what was appended. An array replaced (a reset of its owner) is logged whole.
 */
const APPEND_ONLY = ['outbox', 'auditLog'] as const satisfies readonly PartField[];

/** One line of the log: the record's JSON, a tab, its CRC-32 (8 hex digits), a newline. */
export function logLine(record: LogRecord): string {
  const json = JSON.stringify(record);
  return `${json}\t${crc32(json).toString(16).padStart(8, '0')}\n`;
}

/** A part's text as compared from one write to the next: a realtime clock's `now` moves on every read, so it is left out. */
function comparable(name: string, saved: unknown): string {
  if (name === 'clock' && (saved as { mode: string }).mode === 'realtime') return JSON.stringify({ ...(saved as object), now: null });
  return JSON.stringify(saved) ?? 'undefined';
}

/**
 * Follows one workspace from a snapshot document written whole: the store's collections and
 * the timer queue remember what changes (trackChanges()), the journal is followed by entry
 * number, and every other part by its text. take() turns what changed since the last record
 * into the next one.
 */
export class ChangeTracker {
  private readonly store: Workspace['store'];
  private readonly timers: TimerQueue;
  private readonly journal: RequestJournal;
  private readonly idempotency: IdempotencyStore;
  private readonly collections: [string, Collection<unknown>][];
  private sequence: number;
  private journalNext: number;
  private journalDropped: number;
  private journalKept: number;
  private readonly texts = new Map<string, string>();
  private trailer: string;
  /** Deliveries with an attempt running, and the attempt's timer a snapshot puts back (src/delivery/in-flight.ts). */
  private readonly inFlight = new Map<string, Timer | null>();
  private n = 0;
  /** Each append-only part's array and its length at the last record. */
  private readonly appendOnly = new Map<PartField, { array: unknown[]; length: number }>();
  private timersNext: number;
  private cancelledText: string;

  /** Called right after `written` was taken from `ws`, before anything else can change it. */
  constructor(private readonly ws: Workspace, written: WorkspaceSnapshot, readonly logId: string) {
    this.store = ws.store;
    this.timers = ws.timers;
    this.journal = ws.requests;
    this.idempotency = ws.idempotency;
    this.idempotency.trackChanges();
    this.collections = (Object.entries(ws.store) as [string, unknown][]).filter((e): e is [string, Collection<unknown>] => e[1] instanceof Collection);
    for (const [, c] of this.collections) c.trackChanges();
    this.timers.trackChanges();
    this.sequence = ws.store.sequence.next;
    const journal = written.requests;
    this.journalNext = journal?.next_seq ?? 1;
    this.journalDropped = journal?.dropped ?? 0;
    this.journalKept = journal?.entries.length ?? 0;
    const doc = written as unknown as Record<string, unknown>;
    for (const [field, part] of this.wholeParts()) this.texts.set(field, comparable(part.name, doc[part.name]));
    for (const field of APPEND_ONLY) this.appendOnly.set(field, { array: ws[field], length: ws[field].length });
    this.trailer = JSON.stringify(written.state_file ?? null);
    this.timersNext = written.timers.next_seq;
    this.cancelledText = JSON.stringify(written.timers.cancelled);
    for (const d of ws.store.deliveries.values()) if (d.resume) this.inFlight.set(d.id, deliveryAsDue(d).timer);
  }

  /** Whether the workspace still holds the objects followed (a reset or a restore replaces them: write whole then). */
  follows(ws: Workspace): boolean {
    return ws === this.ws && ws.store === this.store && ws.timers === this.timers && ws.requests === this.journal && ws.idempotency === this.idempotency
      && this.collections.every(([name, c]) => (ws.store as unknown as Record<string, unknown>)[name] === c);
  }

  private wholeParts(): [PartField, WorkspacePart<PartField>][] {
    return (Object.entries(this.ws.recipe.parts) as [PartField, WorkspacePart<PartField>][]).filter(([field]) => !PIECEWISE.has(field) && !(APPEND_ONLY as readonly PartField[]).includes(field));
  }

  /**
   * The next record: what changed since the last one (or the document), and from now on what
   * changes after it; null when nothing did. `trailer`: the document's state_file now (its
   * `log` included). Turn it into a line (logLine) before anything changes the workspace again:
   * it shares the live records.
   */
  take(trailer: WorkspaceSnapshot['state_file']): LogRecord | null {
    const ws = this.ws;
    const record: LogRecord = { log: this.logId, n: this.n + 1 };
    let changed = false;

    const overlayBefore = new Map([...this.inFlight].filter((e): e is [string, Timer] => e[1] !== null).map(([, t]) => [t.seq, t]));
    const store: NonNullable<LogRecord['store']> = {};
    for (const [name, collection] of this.collections) {
      const changes = collection.takeChanges()!;
      if (!changes.deleted.length && !changes.put.length) continue;
      let put = changes.put;
      if (name === 'deliveries') {
        for (const id of changes.deleted) this.inFlight.delete(id);
        put = (put as DeliveryRecord[]).map((d) => {
          const due = deliveryAsDue(d);
          if (d.resume) this.inFlight.set(d.id, due.timer);
          else this.inFlight.delete(d.id);
          return due.record;
        });
      }
      store[name] = { deleted: changes.deleted, put };
      changed = true;
    }
    if (ws.store.sequence.next !== this.sequence) {
      store.sequence = this.sequence = ws.store.sequence.next;
      changed = true;
    }
    if (Object.keys(store).length) record.store = store;

    // The timers as a snapshot has them: the queue's, and those of running attempts put back.
    const live = this.timers.takeChanges()!;
    const overlay = new Map([...this.inFlight].filter((e): e is [string, Timer] => e[1] !== null).map(([, t]) => [t.seq, t]));
    const added = [...live.added, ...[...overlay.values()].filter((t) => !overlayBefore.has(t.seq))];
    const removed = [...live.removed, ...[...overlayBefore.keys()].filter((seq) => !overlay.has(seq))].filter((seq) => !overlay.has(seq));
    const cancelledText = JSON.stringify(live.cancelled);
    if (added.length || removed.length || live.next_seq !== this.timersNext || cancelledText !== this.cancelledText) {
      record.timers = { next_seq: live.next_seq, removed, added, cancelled: live.cancelled };
      this.timersNext = live.next_seq;
      this.cancelledText = cancelledText;
      changed = true;
    }

    const journal = this.journal.saveSince(this.journalNext);
    if (journal.added.length || journal.next_seq !== this.journalNext || journal.dropped !== this.journalDropped || journal.kept !== this.journalKept) {
      record.requests = { next_seq: journal.next_seq, dropped: journal.dropped, kept: journal.kept, added: journal.added };
      Object.assign(this, { journalNext: journal.next_seq, journalDropped: journal.dropped, journalKept: journal.kept });
      changed = true;
    }

    const idempotency = this.idempotency.takeChanges()!;
    if (idempotency.deleted.length || idempotency.put.length) {
      record.idempotency = idempotency;
      changed = true;
    }

    const parts: Record<string, unknown> = {};
    for (const field of APPEND_ONLY) {
      const part = ws.recipe.parts[field] as WorkspacePart<PartField>;
      const array: unknown[] = ws[field];
      const seen = this.appendOnly.get(field)!;
      if (array !== seen.array || array.length < seen.length) parts[part.name] = part.save(array as never, ws);
      else if (array.length > seen.length) (record.append ??= {})[part.name] = array.slice(seen.length);
      this.appendOnly.set(field, { array, length: array.length });
    }
    if (record.append) changed = true;
    for (const [field, part] of this.wholeParts()) {
      const saved = part.save(ws[field], ws);
      const text = comparable(part.name, saved);
      if (text === this.texts.get(field)) continue;
      this.texts.set(field, text);
      parts[part.name] = saved;
    }
    if (Object.keys(parts).length) changed = true;

    const trailerText = JSON.stringify(trailer ?? null);
    if (trailerText !== this.trailer) {
      this.trailer = trailerText;
      record.state_file = trailer;
      changed = true;
    }
    if (!changed) return null;
    // The clock goes with every record, as a whole write would have it (a realtime clock's now moved).
    const clock = ws.recipe.parts.clock;
    parts[clock.name] ??= clock.save(ws.clock, ws);
    record.parts = parts;
    this.n = record.n;
    return record;
  }

}

/** Where a log is damaged: the byte its first bad line starts at, that line's number (from 1), and the whole lines lost from it on. */
export interface LogDamage {
  offset: number;
  line: number;
  dropped: number;
}

/** What reading a log found: the records applied, whether a torn end or an older log was ignored, and any damage. */
export interface Replayed {
  applied: number;
  ignored: boolean;
  damage: LogDamage | null;
}

/**
 * Applies the records of a log to the snapshot document they follow (`doc`, changed in place),
 * in order, up to a torn last line or the first damaged one (`damage` says where; the caller
 * decides whether a start may go on without what follows). `layout`: each collection's id field.
 */
export function replayLog(doc: Record<string, unknown>, text: string, layout: StoreLayout): Replayed {
  const logId = (doc.state_file as { log?: string } | undefined)?.log;
  const lines = text.split('\n');
  const torn = lines.pop() !== '';
  let offset = 0;
  let damage: LogDamage | null = null;
  const store = doc.store as Record<string, unknown>;
  const collections = new Map<string, Map<string, unknown>>();
  let timers: Map<number, Timer> | null = null;
  let idempotency: Map<string, IdempotencyRecord> | null = null;
  const idOf = (r: { scope: string; key: string }): string => `${r.scope}\u0000${r.key}`;
  let applied = 0;
  let ignored = torn;
  for (const [i, line] of lines.entries()) {
    const record = logRecord(line);
    // A log left from the document before (its first record names that one) is not damage.
    if (logId === undefined || (i === 0 && record !== null && record.log !== logId)) {
      ignored = true;
      break;
    }
    if (record === null || record.log !== logId || record.n !== applied + 1) {
      damage = { offset, line: i + 1, dropped: lines.length - i };
      break;
    }
    offset += Buffer.byteLength(line) + 1;
    for (const [name, change] of Object.entries(record.store ?? {})) {
      if (typeof change === 'number') {
        store[name] = change;
        continue;
      }
      const field = (layout as Record<string, string>)[name];
      if (field === undefined || !Array.isArray(store[name])) throw new Error(`record ${record.n}: no collection ${name}`);
      let records = collections.get(name);
      if (!records) collections.set(name, (records = new Map((store[name] as Record<string, unknown>[]).map((r) => [String(r[field]), r]))));
      for (const id of change.deleted) records.delete(id);
      for (const r of change.put as Record<string, unknown>[]) records.set(String(r[field]), r);
    }
    if (record.timers) {
      const saved = doc.timers as { next_seq: number; timers: Timer[]; cancelled: number[] };
      timers ??= new Map(saved.timers.map((t) => [t.seq, t]));
      for (const seq of record.timers.removed) timers.delete(seq);
      for (const t of record.timers.added) timers.set(t.seq, t);
      saved.next_seq = record.timers.next_seq;
      saved.cancelled = record.timers.cancelled;
    }
    if (record.requests) {
      const saved = (doc.requests as { entries: unknown[] } | undefined)?.entries ?? [];
      const entries = [...saved, ...record.requests.added];
      doc.requests = { next_seq: record.requests.next_seq, dropped: record.requests.dropped, entries: entries.slice(Math.max(0, entries.length - record.requests.kept)) };
    }
    if (record.idempotency) {
      idempotency ??= new Map(((doc.idempotency ?? []) as IdempotencyRecord[]).map((r) => [idOf(r), r]));
      for (const r of record.idempotency.deleted) idempotency.delete(idOf(r));
      for (const r of record.idempotency.put) {
        idempotency.delete(idOf(r)); // remembered again: at the end, as the store keeps it
        idempotency.set(idOf(r), r);
      }
    }
    for (const [name, added] of Object.entries(record.append ?? {})) doc[name] = [...((doc[name] as unknown[] | undefined) ?? []), ...added];
    for (const [name, value] of Object.entries(record.parts ?? {})) doc[name] = value;
    if (record.state_file) doc.state_file = record.state_file;
    applied++;
  }
  if (idempotency) doc.idempotency = [...idempotency.values()];
  for (const [name, records] of collections) store[name] = [...records.values()];
  if (timers) (doc.timers as { timers: Timer[] }).timers = [...timers.values()].sort((a, b) => a.due - b.due || a.seq - b.seq);
  return { applied, ignored, damage };
}

/** A line's record, or null when the line is damaged. */
function logRecord(line: string): LogRecord | null {
  const tab = line.lastIndexOf('\t');
  if (tab < 0) return null;
  const json = line.slice(0, tab);
  if (line.slice(tab + 1) !== crc32(json).toString(16).padStart(8, '0')) return null;
  try {
    const record = JSON.parse(json) as LogRecord;
    return record !== null && typeof record === 'object' ? record : null;
  } catch {
    return null;
  }
}
