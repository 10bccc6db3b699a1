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

export const isOnboardingId = (v: unknown): v is string => typeof v === 'string' && v.startsWith('onb_');

/** The onboarding ids an answer names: its id and its onboarding_id, at the top level. */
export function answerIds(answer: unknown): string[] {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return [];
  const { id, onboarding_id: onboardingId } = answer as Record<string, unknown>;
  const ids = isOnboardingId(id) ? [id] : [];
  if (isOnboardingId(onboardingId) && onboardingId !== id) ids.push(onboardingId);
  return ids;
}

/** The text each entry that keeps a body keeps it as: read by matching, which needs no parse (json-subset.ts). */
const BODY_TEXTS = new WeakMap<JournalEntry, string>();

/** The body of an entry as the journal keeps its text (null: none); undefined for a body held by an entry made elsewhere (read its `body`). */
export const bodyTextOf = (entry: JournalEntry): string | null | undefined => BODY_TEXTS.get(entry) ?? (entry.body === null ? null : undefined);

const maskedOrNull = (text: string | null): string | null => (text === null ? null : maskSecrets(text));

/**
 * An entry as every reader gets it (the list, a HAR, a verification, a snapshot): what was sent
 * with each key, webhook secret and link token in it masked (src/core/mask.ts). The body is
 * kept as its text and parsed again whenever `body` is read: text costs about its own size, a
 * parsed body about twenty times that, and text cannot hold anything a later serialisation
 * chokes on.
 */
function shown(entry: JournalEntry, bodyText: string | null): JournalEntry {
  const h = entry.headers;
  entry.path = maskSecrets(entry.path);
  entry.query = maskJson(entry.query);
  entry.headers = { idempotency_key: maskedOrNull(h.idempotency_key), service_version: maskedOrNull(h.service_version), service_organization: maskedOrNull(h.service_organization) };
  if (bodyText === null) return entry;
  const text = maskSecrets(bodyText);
  // Redefined in place, so `body` keeps its position among the entry's fields.
  Object.defineProperty(entry, 'body', { enumerable: true, configurable: true, get: () => JSON.parse(text) as unknown });
  BODY_TEXTS.set(entry, text);
  return entry;
}

/**
 * An entry as JSON text, its body written as the text the journal keeps rather than parsed and
 * written again: a page of 1,000 entries of 8 KB of small objects took most of a second that
 * way. Anything else (an unmatched request) is written as JSON.stringify writes it.
 */
function entryJson(entry: unknown): string {
  const text = BODY_TEXTS.get(entry as JournalEntry);
  if (text === undefined) return JSON.stringify(entry);
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

/** What its body counts against JOURNAL_BODY_BUDGET: its size as sent when known, else the size of its text; 0 for none kept. */
const bytesOf = (text: string | null, sent: number | null | undefined): number => (text === null ? 0 : sent ?? Buffer.byteLength(text, 'utf8'));

/**
 * An entry as a snapshot keeps it: durations and trace ids are measurements of one run, left out
 * so equal workspaces keep giving equal snapshots.
 */
function saved(entry: JournalEntry): JournalState['entries'][number] {
  const { trace_id: _trace, ...kept } = entry;
  return { ...kept, duration_ms: null };
}

const journalId = (seq: number): string => `jrn_${String(seq).padStart(6, '0')}`;

/** A recorded request's entry, its fields in the order every reader gets them (its body set by shown()). */
function entryOf(id: string, r: JournalInput): JournalEntry {
  const entry: JournalEntry = {
    id,
    object: 'request',
    at: r.at,
    key: r.key,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: null,
    body_bytes: r.body_bytes,
    status: r.status,
    error_code: r.error_code,
    replayed: r.replayed,
    answered: r.answered,
    duration_ms: r.duration_ms,
    onboarding_ids: r.onboarding_ids,
  };
  if (r.trace_id) entry.trace_id = r.trace_id;
  return entry;
}

/** An entry and what the journal keeps beside it. */
interface Kept {
  seq: number;
  entry: JournalEntry;
  /** Bytes its body counts against JOURNAL_BODY_BUDGET. */
  bytes: number;
  /** The answer's JSON text, for exports only; null when none is kept, or it was let go. */
  answer: string | null;
}

export class RequestJournal {
  /** Oldest first, from `head` on: the places before it held entries since dropped, cut off once they are half the list. */
  private kept: (Kept | undefined)[] = [];
  private head = 0;
  /** Bytes of the bodies the kept entries hold. */
  private bodyBytes = 0;
  /** Characters of the answers the kept entries hold. */
  private answerChars = 0;
  private nextSeq = 1;
  private droppedCount = 0;

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
      const { id, object: _object, ...rest } = e;
      const seq = Number(id.slice(4));
      const text = textOf(e);
      // Journals saved before `answered` existed hold answered requests only; before `body_bytes`, its size is unknown.
      // The fields keep the order they were saved in (those missing from an old file come last).
      const entry = shown({ id: journalId(seq), object: 'request', ...rest, body: null, answered: e.answered ?? true, body_bytes: e.body_bytes ?? null }, text);
      journal.keep({ seq, entry, bytes: bytesOf(text, entry.body_bytes), answer: null });
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

  private get size(): number {
    return this.kept.length - this.head;
  }

  /** The kept entry `i` places after the oldest. */
  private at(i: number): Kept {
    return this.kept[this.head + i]!;
  }

  /**
   * Records a request, and returns its entry as the journal shows it (the entry it would have
   * been, with the journal off). The entry holds the input's onboarding ids as they are.
   */
  record(input: JournalInput): JournalEntry {
    const text = textOf(input);
    const entry = shown(entryOf(journalId(this.nextSeq), input), text);
    if (!this.enabled) return entry;
    const answer = input.answer_text !== undefined && input.answer_text !== null && input.answer_text.length <= ANSWER_CAP ? input.answer_text : null;
    this.keep({ seq: this.nextSeq++, entry, bytes: bytesOf(text, input.body_bytes), answer });
    while (this.size > this.limit) this.dropOldest();
    this.trimToBudget();
    if (this.answerChars > ANSWER_BUDGET) this.trimAnswers();
    return entry;
  }

  private keep(k: Kept): void {
    this.kept.push(k);
    this.bodyBytes += k.bytes;
    this.answerChars += k.answer?.length ?? 0;
  }

  private dropOldest(): void {
    const oldest = this.at(0);
    this.bodyBytes -= oldest.bytes;
    this.answerChars -= oldest.answer?.length ?? 0;
    this.droppedCount++;
    this.kept[this.head++] = undefined;
    if (this.head * 2 >= this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.head = 0;
    }
  }

  /** Past the body budget, the oldest entries are dropped and counted, as past the count limit; the newest stays. */
  private trimToBudget(): void {
    while (this.bodyBytes > JOURNAL_BODY_BUDGET && this.size > 1) this.dropOldest();
  }

  /** Lets go of the oldest answers down to three quarters of the budget, so the next ones do not walk the journal again at once. */
  private trimAnswers(): void {
    for (let i = 0; i < this.size && this.answerChars > (ANSWER_BUDGET * 3) / 4; i++) {
      const k = this.at(i);
      this.answerChars -= k.answer?.length ?? 0;
      k.answer = null;
    }
  }

  /**
   * What a reader that follows the journal (a wait) reads on each look: the entries numbered
   * from `seq` on, oldest first; `next`, the number the next entry will get (where to read from
   * next time); `first`, the oldest entry's number (the ones before it were dropped or cleared).
   */
  follow(seq: number): { entries: JournalEntry[]; next: number; first: number } {
    return { entries: this.from(this.indexOf(seq)), next: this.nextSeq, first: this.size > 0 ? this.at(0).seq : this.nextSeq };
  }

  /** The kept entry numbered `seq`. */
  numbered(seq: number): JournalEntry | undefined {
    const i = this.indexOf(seq);
    return i < this.size && this.at(i).seq === seq ? this.at(i).entry : undefined;
  }

  /** The place of the first kept entry numbered `seq` or later (numbers grow from the oldest on): a binary search. */
  private indexOf(seq: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid).seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The entries kept, oldest first, from the `i`-th on. */
  private from(i: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (; i < this.size; i++) out.push(this.at(i).entry);
    return out;
  }

  /** Newest first. */
  newestFirst(): JournalEntry[] {
    return this.from(0).reverse();
  }

  /** Newest first, each entry with the answer text still held for it (exports), masked as the entry is. */
  answeredNewestFirst(): AnsweredEntry[] {
    const out: AnsweredEntry[] = [];
    for (let i = this.size - 1; i >= 0; i--) {
      const { entry, answer } = this.at(i);
      out.push({ entry, answer: answer === null ? null : maskSecrets(answer) });
    }
    return out;
  }

  clear(): void {
    this.kept = [];
    this.head = 0;
    this.bodyBytes = 0;
    this.answerChars = 0;
    this.droppedCount = 0;
  }

  /**
   * What the journal gained since the entry numbered `since` (its `next_seq` then): the entries
   * numbered from it, as save() gives them, and `kept`, how many entries it holds now, so that
   * the saved entries, these appended and the oldest dropped down to `kept`, are save()'s.
   */
  saveSince(since: number): { next_seq: number; dropped: number; kept: number; added: JournalState['entries'] } {
    let first = this.size;
    while (first > 0 && this.at(first - 1).seq >= since) first--;
    return { next_seq: this.nextSeq, dropped: this.droppedCount, kept: this.size, added: this.from(first).map(saved) };
  }

  /**
   * Durations are wall-clock measurements: left out, so equal workspaces keep giving equal
   * snapshots, and an entry read back shows null.
   */
  save(): JournalState {
    return { next_seq: this.nextSeq, dropped: this.droppedCount, entries: this.from(0).map(saved) };
  }
}
