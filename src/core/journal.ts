import { maskJson, maskSecrets } from './mask.js';
import type { PartShape } from './workspace.js';

/**
 * The request journal (GET /_emulator/requests): what each /v1 request of a workspace asked and
 * what it was answered, so a partner's test can check what its code really sent. Data and bound
 * only (matching and verification: journal.match.ts); the HTTP edge (src/http/journal.ts) fills it in.
 */

/** Entries kept per workspace by default (`--journal-limit`); older ones are dropped and counted. */
export const JOURNAL_LIMIT = 1000;

/**
 * A body larger than this as sent (64 KB) is journaled without its content, its size kept in
 * `body_bytes`: a parsed 1 MB body costs about 20 MB of memory, and a journal of them would
 * outgrow the process. The API's own bodies are a few KB.
 */
export const JOURNAL_BODY_CAP = 64 * 1024;

/**
 * The bodies a workspace's journal keeps add up to at most this (8 MB as sent): past it the
 * oldest entries are dropped and counted, as past the count limit, so a journal, and the
 * snapshots and state file that carry it, stays a few MB whatever the requests were.
 */
export const JOURNAL_BODY_BUDGET = 8 * 1024 * 1024;

/** The largest `--journal-limit`: a full journal is held in memory and travels in every snapshot. */
export const JOURNAL_MAX_LIMIT = 100_000;

/** Why a journal limit cannot be used (an integer from 0, the journal off, to JOURNAL_MAX_LIMIT); undefined when it can. */
export function journalLimitProblem(limit: number): string | undefined {
  return Number.isInteger(limit) && limit >= 0 && limit <= JOURNAL_MAX_LIMIT ? undefined : `not a valid journal limit (0 to ${JOURNAL_MAX_LIMIT}): ${limit}`;
}

interface JournalHeaders {
  idempotency_key: string | null;
  service_version: string | null;
  service_organization: string | null;
}

export interface JournalEntry {
  id: string;
  object: 'request';
  /** When the request arrived, on the workspace clock. */
  at: string;
  /** The bearer key, masked (maskSecret). */
  key: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: JournalHeaders;
  /** The body as parsed JSON, kept as sent; null when none was read, or when it was larger than JOURNAL_BODY_CAP. */
  body: unknown;
  /** The body's size as sent, in bytes; null when none was read. */
  body_bytes: number | null;
  status: number;
  /** The envelope's code when the answer is an error. */
  error_code: string | null;
  replayed: boolean;
  /** False when the request ran but its answer never reached the client whole (a fault dropped it, or the client gave up on a slow one): `status` is what it would have been. */
  answered: boolean;
  /** Measured at the HTTP edge; null for an entry read back from a snapshot (see save()). */
  duration_ms: number | null;
  /** Onboarding ids named by the path, the body's onboarding_id or the answer's id/onboarding_id. */
  onboarding_ids: string[];
  /**
   * The trace of the request's span, with tracing on (docs/tracing.md); left out otherwise,
   * and from an entry read back from a snapshot (see save()).
   */
  trace_id?: string;
}

export type JournalInput = Omit<JournalEntry, 'id' | 'object' | 'trace_id'> & {
  trace_id?: string | null;
  /** The body as sent, when the caller has it (the HTTP edge): kept instead of `body`. */
  body_text?: string | null;
  /** The JSON text answered, when the writer kept it: held in memory for exports (HAR), never listed or saved. */
  answer_text?: string | null;
};

/**
 * Answers longer than this (64 KB) are not kept for exports; the API's are a few KB, so the 4 MB
 * of ANSWER_BUDGET (per journal, apart from the bodies' budget) holds a full journal's. Past it
 * the oldest answers are let go (their entries stay), so keeping them never drops a request.
 */
const ANSWER_CAP = 64 * 1024;
const ANSWER_BUDGET = 4 * 1024 * 1024;

/** An entry with the answer text the journal still holds for it (null: none kept, or let go). */
export interface AnsweredEntry {
  entry: JournalEntry;
  answer: string | null;
}

/** An input whose arrival is given in epoch milliseconds, made into an ISO instant only when read. */
export type JournalInputAtMs = Omit<JournalInput, 'at'> & { at: number };

export interface JournalState {
  next_seq: number;
  dropped: number;
  entries: (Omit<JournalEntry, 'answered' | 'body_bytes' | 'trace_id'> & { answered?: boolean; body_bytes?: number | null })[];
}

declare module './workspace.js' {
  interface WorkspaceParts {
    /** Every /v1 request of the workspace, bounded (its part: persistence/core.parts.ts). */
    requests: PartShape<'requests', RequestJournal, JournalState>;
  }
}

/**
 * Onboarding ids an entry gets on first read: those of the answer, whose parsing record()'s
 * caller puts off, since most recorded requests are never read. `bytes` is what the thunk holds
 * on to (the answer's text), counted against PENDING_BYTES_MAX.
 */
interface DeferredIds {
  bytes: number;
  ids: () => string[];
}

/**
 * Ids still to work out: a thunk, or the answer's JSON text itself (its id and onboarding_id),
 * which costs the HTTP edge nothing to hand over: the text was made for the answer anyway.
 */
export type LaterIds = DeferredIds | string;

export const isOnboardingId = (v: unknown): v is string => typeof v === 'string' && v.startsWith('onb_');

/** The onboarding ids an answer names: its id and its onboarding_id, at the top level. */
export function answerIds(answer: unknown): string[] {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return [];
  const { id, onboarding_id: onboardingId } = answer as Record<string, unknown>;
  const ids = isOnboardingId(id) ? [id] : [];
  if (isOnboardingId(onboardingId) && onboardingId !== id) ids.push(onboardingId);
  return ids;
}

/** The ids an answer's JSON text names; none when it is not JSON. */
function textIds(text: string): string[] {
  try {
    return answerIds(JSON.parse(text));
  } catch {
    return [];
  }
}

const laterBytes = (later: LaterIds): number => (typeof later === 'string' ? later.length : later.bytes);
const laterIds = (later: LaterIds): string[] => (typeof later === 'string' ? textIds(later) : later.ids());

/** Above this much text held by deferred ids, they are all worked out at once. */
const PENDING_BYTES_MAX = 16 * 1024 * 1024;

/**
 * Each entry keeps its body as text, parsed again whenever it is read (the list, a verify, a
 * snapshot): text costs about its own size, a parsed body about twenty times that, and text
 * cannot hold anything a later serialisation chokes on.
 */
function withBodyText(entry: JournalEntry, text: string | null): JournalEntry {
  // Redefined in place, so `body` keeps its position among the entry's fields.
  Object.defineProperty(entry, 'body', { enumerable: true, configurable: true, get: () => (text === null ? null : (JSON.parse(text) as unknown)) });
  BODY_TEXTS.set(entry, text);
  return entry;
}

/**
 * An entry as every reader gets it (the list, a HAR, a verification, a snapshot): what was sent
 * with each key, webhook secret and link token in it masked (src/core/mask.ts). Done on the
 * first read of an entry, off the path of every request: most entries are dropped unread.
 */
function shown(entry: JournalEntry, text: string | null): JournalEntry {
  entry.path = maskSecrets(entry.path);
  entry.query = maskJson(entry.query);
  entry.headers = maskJson(entry.headers);
  return withBodyText(entry, text === null ? null : maskSecrets(text));
}

/** The text each entry the journal handed out keeps its body as: read by matching, which needs no parse (json-subset.ts). */
const BODY_TEXTS = new WeakMap<JournalEntry, string | null>();

/** The body of an entry of a journal as its text (null: none kept); undefined for an entry made elsewhere (read its `body`). */
export const bodyTextOf = (entry: JournalEntry): string | null | undefined => BODY_TEXTS.get(entry);

/**
 * An entry as JSON text, its body written as the text the journal keeps rather than parsed and
 * written again: a page of 1,000 entries of 8 KB of small objects took most of a second that
 * way. Anything else (an unmatched request) is written as JSON.stringify writes it.
 */
function entryJson(entry: unknown): string {
  const text = BODY_TEXTS.get(entry as JournalEntry);
  if (text === undefined || text === null) return JSON.stringify(entry);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let past = false;
  for (const key of Object.keys(entry as object)) {
    if (key === 'body') past = true;
    else (past ? after : before)[key] = (entry as Record<string, unknown>)[key];
  }
  const head = JSON.stringify(before).slice(0, -1);
  const tail = JSON.stringify(after).slice(1);
  return `${head}${head.length > 1 ? ',' : ''}"body":${text}${tail.length > 1 ? ',' : ''}${tail}`;
}

/** An object whose `data` lists entries (a page of the journal, a wait's answer) as JSON text, each entry by entryJson(). */
export function withEntriesJson(value: { data: readonly unknown[] }): string {
  const skeleton = JSON.stringify({ ...value, data: [] });
  // The first "data":[] is the object's own: one inside a string would have its quotes escaped.
  const at = skeleton.indexOf('"data":[]');
  return `${skeleton.slice(0, at)}"data":[${value.data.map(entryJson).join(',')}]${skeleton.slice(at + '"data":[]'.length)}`;
}

/** The text an entry keeps: the body as sent when the caller gave it, else its JSON. */
function textOf(input: { body: unknown; body_text?: string | null }): string | null {
  if (input.body_text !== undefined) return input.body_text;
  return input.body === null || input.body === undefined ? null : JSON.stringify(input.body);
}

/** Shared by the slots that hold nothing yet, never handed out as an entry's own. */
const NO_QUERY: Record<string, unknown> = Object.freeze({});
const NO_IDS: string[] = [];

/**
 * One entry as the journal holds it, made into a JournalEntry only when the journal is read.
 * Recording is on the path of every /v1 request and most entries are dropped unread, so the
 * slots form a ring reused in place: a full journal records a request into the slot of the
 * entry it drops, and what an entry keeps is its strings, not objects of its own that would
 * outlive the young generation.
 */
class Slot {
  seq = 0;
  /** When the request arrived: its ISO text, or '' while `atMs` holds it (see isoOf()). */
  atText = '';
  atMs = Number.NaN;
  key = '';
  method = '';
  path = '';
  query: Record<string, unknown> = NO_QUERY;
  idempotencyKey: string | null = null;
  serviceVersion: string | null = null;
  serviceOrganization: string | null = null;
  /** The body as text (withBodyText), null when none is kept. */
  text: string | null = null;
  /** The answer's JSON text, for exports only; null when none is kept. */
  answer: string | null = null;
  bodyBytes: number | null = null;
  /** What the body counts against the budget: the size of the text held. */
  bytes = 0;
  status = 0;
  errorCode: string | null = null;
  replayed = false;
  answered = false;
  /** NaN for none: a field that only ever holds numbers is written in place. */
  durationMs = Number.NaN;
  onboardingIds: string[] = NO_IDS;
  /** '' for none: the slot's field keeps holding strings. */
  traceId = '';
  later: LaterIds | undefined = undefined;
  /** The entry made on the first read, handed out again on later ones. */
  entry: JournalEntry | undefined = undefined;

  /** Copies what the input says; its query and onboarding ids are kept as they are (never changed). */
  fill(seq: number, input: JournalInput | JournalInputAtMs, later: LaterIds | undefined): void {
    const text = textOf(input);
    this.seq = seq;
    this.atText = typeof input.at === 'string' ? input.at : '';
    this.atMs = typeof input.at === 'number' ? input.at : Number.NaN;
    this.key = input.key;
    this.method = input.method;
    this.path = input.path;
    this.query = input.query;
    this.idempotencyKey = input.headers.idempotency_key;
    this.serviceVersion = input.headers.service_version;
    this.serviceOrganization = input.headers.service_organization;
    this.text = text;
    const answer = input.answer_text;
    this.answer = answer !== undefined && answer !== null && answer.length <= ANSWER_CAP ? answer : null;
    this.bodyBytes = input.body_bytes;
    this.bytes = text === null ? 0 : input.body_bytes ?? Buffer.byteLength(text, 'utf8');
    this.status = input.status;
    this.errorCode = input.error_code;
    this.replayed = input.replayed;
    this.answered = input.answered;
    this.durationMs = input.duration_ms ?? Number.NaN;
    this.onboardingIds = input.onboarding_ids;
    this.traceId = input.trace_id ?? '';
    this.later = later;
    this.entry = undefined;
  }

  /** Lets go of what a dropped entry held, so a slot waiting for reuse keeps no body alive. */
  release(): void {
    this.query = NO_QUERY;
    this.text = null;
    this.answer = null;
    this.onboardingIds = NO_IDS;
    this.later = undefined;
    this.entry = undefined;
  }

  /** Appends the deferred ids, once. */
  settle(): void {
    if (this.later === undefined) return;
    const more = laterIds(this.later).filter((id) => !this.onboardingIds.includes(id));
    this.later = undefined;
    if (more.length === 0) return;
    this.onboardingIds = [...this.onboardingIds, ...more];
    if (this.entry) this.entry.onboarding_ids = [...this.onboardingIds];
  }

  toEntry(): JournalEntry {
    if (this.entry) return this.entry;
    const entry: JournalEntry = {
      id: journalId(this.seq),
      object: 'request',
      at: this.atText || isoOf(this.atMs),
      key: this.key,
      method: this.method,
      path: this.path,
      query: this.query,
      headers: { idempotency_key: this.idempotencyKey, service_version: this.serviceVersion, service_organization: this.serviceOrganization },
      body: null,
      body_bytes: this.bodyBytes,
      status: this.status,
      error_code: this.errorCode,
      replayed: this.replayed,
      answered: this.answered,
      duration_ms: Number.isNaN(this.durationMs) ? null : this.durationMs,
      // A copy: the journal's callers may share one array among the entries they record.
      onboarding_ids: [...this.onboardingIds],
      ...(this.traceId ? { trace_id: this.traceId } : {}),
    };
    return (this.entry = shown(entry, this.text));
  }
}

/**
 * An entry as a snapshot keeps it: durations and trace ids are measurements of one run, left out
 * so equal workspaces keep giving equal snapshots.
 */
function saved(entry: JournalEntry): JournalState['entries'][number] {
  const { trace_id: _trace, ...kept } = entry;
  return { ...kept, duration_ms: null };
}

const journalId = (seq: number): string => `jrn_${String(seq).padStart(6, '0')}`;

/** An arrival time given in epoch milliseconds, as an entry shows it. */
const isoOf = (at: string | number): string => (typeof at === 'string' ? at : new Date(at).toISOString());

export class RequestJournal {
  /** A ring: the oldest kept entry at `head`, `size` of them from there on, wrapping around. */
  private slots: Slot[] = [];
  private head = 0;
  private size = 0;
  /** Bytes of the bodies the kept entries hold. */
  private bodyBytes = 0;
  /** Characters of the answers the kept entries hold. */
  private answerChars = 0;
  private nextSeq = 1;
  private droppedCount = 0;
  /** Kept entries whose deferred ids are still to work out, and the bytes of answer text they hold. */
  private pendingCount = 0;
  private pendingBytes = 0;

  /** Entries kept; 0 turns the journal off: the HTTP edge records nothing and every list is empty. */
  constructor(readonly limit: number = JOURNAL_LIMIT) {}

  /**
   * A saved journal under this limit, whatever limit it was saved with: when it holds more
   * entries, the oldest are dropped and counted, as live ones are.
   */
  static restore(state: JournalState, limit: number = JOURNAL_LIMIT): RequestJournal {
    const journal = new RequestJournal(limit);
    const over = Math.max(0, state.entries.length - limit);
    for (const e of state.entries.slice(over)) {
      const { id, object: _object, ...saved } = e;
      // Journals saved before `answered` existed hold answered requests only; before `body_bytes`, its size is unknown.
      const fields = { ...saved, body: null, answered: e.answered ?? true, body_bytes: e.body_bytes ?? null };
      const seq = Number(id.slice(4));
      const slot = journal.claim();
      // The body is held as its text only, as a recorded one is.
      slot.fill(seq, { ...fields, body_text: textOf(e) }, undefined);
      // Made now, so its fields keep the order they were saved in (those missing from an old file come last).
      slot.entry = shown({ id: journalId(seq), object: 'request', ...fields }, slot.text);
      journal.bodyBytes += slot.bytes;
    }
    journal.nextSeq = state.next_seq;
    journal.droppedCount = state.dropped + over;
    journal.trimToBudget();
    return journal;
  }

  /** False with a limit of 0: nothing is recorded (the HTTP edge does not even gather it). */
  get enabled(): boolean {
    return this.limit > 0;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /**
   * Records a request. `later`: more onboarding ids, worked out when the journal is first read
   * (newestFirst(), save(), verify()) and appended to `onboarding_ids`; an entry dropped before
   * that never costs the work. The input is copied, not kept (its query and onboarding_ids
   * are, as they are), so a caller may fill the same one for every request.
   */
  append(input: JournalInput | JournalInputAtMs, later?: LaterIds): void {
    if (!this.enabled) return;
    const slot = this.claim();
    slot.fill(this.nextSeq++, input, later);
    this.bodyBytes += slot.bytes;
    this.trimToBudget();
    if (slot.answer !== null) {
      this.answerChars += slot.answer.length;
      if (this.answerChars > ANSWER_BUDGET) this.trimAnswers();
    }
    if (later !== undefined) {
      this.pendingCount++;
      this.pendingBytes += laterBytes(later);
      if (this.pendingBytes > PENDING_BYTES_MAX) this.settle();
    }
  }

  /** append(), and the entry as the journal will show it (the entry it would have been, with the journal off). */
  record(input: JournalInput | JournalInputAtMs, later?: LaterIds): JournalEntry {
    if (!this.enabled) {
      const { body_text: text, answer_text: _answer, trace_id: traceId, ...fields } = input;
      const entry: JournalEntry = { id: journalId(this.nextSeq), object: 'request', ...fields, body: null, at: isoOf(input.at), ...(traceId ? { trace_id: traceId } : {}) };
      return shown(entry, textOf({ body: input.body, body_text: text }));
    }
    this.append(input, later);
    return this.slotAt(this.size - 1).toEntry();
  }

  /** The kept entry `i` places after the oldest. */
  private slotAt(i: number): Slot {
    return this.slots[(this.head + i) % this.slots.length]!;
  }

  /**
   * The slot the next entry goes in: with the journal full, the oldest entry's, dropped and
   * counted; else a free one, the ring growing (up to the limit) only when none is.
   */
  private claim(): Slot {
    if (this.size >= this.limit) this.dropOldest();
    if (this.size === this.slots.length) {
      // Entries dropped for the body budget leave the ring wrapped: straighten it out to grow it.
      if (this.head !== 0) this.slots = [...this.slots.slice(this.head), ...this.slots.slice(0, this.head)];
      this.head = 0;
      this.slots.push(new Slot());
    }
    this.size++;
    return this.slotAt(this.size - 1);
  }

  private dropOldest(): void {
    const oldest = this.slots[this.head]!;
    this.bodyBytes -= oldest.bytes;
    this.answerChars -= oldest.answer?.length ?? 0;
    this.droppedCount++;
    if (oldest.later !== undefined) {
      this.pendingCount--;
      this.pendingBytes -= laterBytes(oldest.later);
    }
    oldest.release();
    this.head = (this.head + 1) % this.slots.length;
    this.size--;
  }

  /** Past the body budget, the oldest entries are dropped and counted, as past the count limit; the newest stays. */
  private trimToBudget(): void {
    while (this.bodyBytes > JOURNAL_BODY_BUDGET && this.size > 1) this.dropOldest();
  }

  /** Lets go of the oldest answers down to three quarters of the budget, so the next ones do not walk the ring again at once. */
  private trimAnswers(): void {
    for (let i = 0; i < this.size && this.answerChars > (ANSWER_BUDGET * 3) / 4; i++) {
      const slot = this.slotAt(i);
      this.answerChars -= slot.answer?.length ?? 0;
      slot.answer = null;
    }
  }

  /** Works out every deferred id still owed, so entries read are whole. */
  private settle(): void {
    if (this.pendingCount === 0) return;
    for (let i = 0; i < this.size; i++) this.slotAt(i).settle();
    this.pendingCount = 0;
    this.pendingBytes = 0;
  }

  /**
   * What a reader that follows the journal (a wait) reads on each look: the entries numbered
   * from `seq` on, oldest first, with their deferred ids worked out; `next`, the number the next
   * entry will get (where to read from next time); `first`, the oldest entry's number (the ones
   * before it were dropped or cleared).
   */
  follow(seq: number): { entries: JournalEntry[]; next: number; first: number } {
    const entries: JournalEntry[] = [];
    for (let i = this.indexOf(seq); i < this.size; i++) {
      const slot = this.slotAt(i);
      this.settleSlot(slot);
      entries.push(slot.toEntry());
    }
    return { entries, next: this.nextSeq, first: this.size > 0 ? this.slotAt(0).seq : this.nextSeq };
  }

  /** The kept entry numbered `seq`, with its ids worked out. */
  numbered(seq: number): JournalEntry | undefined {
    const i = this.indexOf(seq);
    if (i >= this.size || this.slotAt(i).seq !== seq) return undefined;
    const slot = this.slotAt(i);
    this.settleSlot(slot);
    return slot.toEntry();
  }

  /** The place of the first kept entry numbered `seq` or later (numbers grow from the oldest on): a binary search. */
  private indexOf(seq: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.slotAt(mid).seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One slot's deferred ids, worked out and no longer counted as owed. */
  private settleSlot(slot: Slot): void {
    if (slot.later === undefined) return;
    this.pendingCount--;
    this.pendingBytes -= laterBytes(slot.later);
    slot.settle();
  }

  /** The entries kept, oldest first, from the `from`-th on. */
  private live(from = 0): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = from; i < this.size; i++) out.push(this.slotAt(i).toEntry());
    return out;
  }

  /** Newest first. */
  newestFirst(): JournalEntry[] {
    this.settle();
    return this.live().reverse();
  }

  /** Newest first, each entry with the answer text still held for it (exports), masked as the entry is. */
  answeredNewestFirst(): AnsweredEntry[] {
    this.settle();
    const out: AnsweredEntry[] = [];
    for (let i = this.size - 1; i >= 0; i--) {
      const slot = this.slotAt(i);
      out.push({ entry: slot.toEntry(), answer: slot.answer === null ? null : maskSecrets(slot.answer) });
    }
    return out;
  }

  clear(): void {
    this.slots = [];
    this.head = 0;
    this.size = 0;
    this.bodyBytes = 0;
    this.answerChars = 0;
    this.droppedCount = 0;
    this.pendingCount = 0;
    this.pendingBytes = 0;
  }

  /**
   * What the journal gained since the entry numbered `since` (its `next_seq` then): the entries
   * numbered from it, as save() gives them, and `kept`, how many entries it holds now, so that
   * the saved entries, these appended and the oldest dropped down to `kept`, are save()'s.
   */
  saveSince(since: number): { next_seq: number; dropped: number; kept: number; added: JournalState['entries'] } {
    this.settle();
    let first = this.size;
    while (first > 0 && this.slotAt(first - 1).seq >= since) first--;
    return { next_seq: this.nextSeq, dropped: this.droppedCount, kept: this.size, added: this.live(first).map(saved) };
  }

  /**
   * Durations are wall-clock measurements: left out, so equal workspaces keep giving equal
   * snapshots, and an entry read back shows null.
   */
  save(): JournalState {
    this.settle();
    return { next_seq: this.nextSeq, dropped: this.droppedCount, entries: this.live().map(saved) };
  }


}
