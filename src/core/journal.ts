import { pathMatches } from './faults.js';
import type { PartShape } from './workspace.js';

/**
 * The request journal (GET /_emulator/requests): what each /v1 request of a workspace asked and
 * what it was answered, so a partner's test can check what its code really sent. Data, bound,
 * matching and verification only; the HTTP edge (src/http/journal.ts) fills it in.
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
  /** The bearer key, masked (maskKey). */
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
}

export type JournalInput = Omit<JournalEntry, 'id' | 'object'> & {
  /** The body as sent, when the caller has it (the HTTP edge): kept instead of `body`. */
  body_text?: string | null;
};

export interface JournalState {
  next_seq: number;
  dropped: number;
  entries: (Omit<JournalEntry, 'answered' | 'body_bytes'> & { answered?: boolean; body_bytes?: number | null })[];
}

declare module './workspace.js' {
  interface WorkspaceParts {
    /** Every /v1 request of the workspace, bounded (its part: persistence/core.parts.ts). */
    requests: PartShape<'requests', RequestJournal, JournalState>;
  }
}

/**
 * A key shown without giving it away: its `hrs_<env>_` prefix (else its first 4 characters),
 * an ellipsis and its last 6 characters, with at least 4 characters always hidden, so a short
 * key is never written out whole.
 */
export function maskKey(key: string): string {
  if (key.includes('…')) return key;
  const prefix = /^[a-z]+_(test|live)_/.exec(key)?.[0] ?? key.slice(0, 4);
  const shown = Math.max(0, key.length - 4);
  const head = prefix.slice(0, shown);
  const tailLength = Math.min(6, shown - head.length);
  const tail = tailLength > 0 ? key.slice(key.length - tailLength) : '';
  return `${head}…${tail}`;
}

export interface RequestFilter {
  method?: string | undefined;
  /** Exact, or a prefix ending in `*` (as a fault's path). */
  path?: string | undefined;
  status?: number | undefined;
  error_code?: string | undefined;
  /** A full key (masked before comparing) or a masked one. */
  key?: string | undefined;
  /** An ISO instant on the workspace clock: requests at or after it. */
  since?: string | undefined;
  onboarding_id?: string | undefined;
  /** The Idempotency-Key sent, exactly. */
  idempotency_key?: string | undefined;
  /** Whether an Idempotency-Key was sent at all. */
  has_idempotency_key?: boolean | undefined;
  /** Whether the answer was the replay of an earlier one. */
  replayed?: boolean | undefined;
}

export interface RequestMatcher extends RequestFilter {
  /** A subset of the body: every field given must be there with this value, recursively. */
  body_includes?: unknown;
}

export type ExpectedCount = { exactly: number } | { at_least: number } | { at_most: number };

export type MatcherField = keyof RequestMatcher;

/** True when `actual` holds everything `expected` does: objects by subset, arrays item by item with equal length, the rest by equality. */
export function includes(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => includes(actual[i], e));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const a = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).every(([k, v]) => Object.hasOwn(a, k) && includes(a[k], v));
  }
  return actual === expected;
}

/** The matcher's fields this entry does not satisfy, in the matcher's field order. */
export function differences(entry: JournalEntry, m: RequestMatcher): MatcherField[] {
  const out: MatcherField[] = [];
  if (m.method !== undefined && entry.method !== m.method.toUpperCase()) out.push('method');
  if (m.path !== undefined && !pathMatches(m.path, entry.path)) out.push('path');
  if (m.status !== undefined && entry.status !== m.status) out.push('status');
  if (m.error_code !== undefined && entry.error_code !== m.error_code) out.push('error_code');
  if (m.key !== undefined && entry.key !== maskKey(m.key)) out.push('key');
  if (m.since !== undefined && Date.parse(entry.at) < Date.parse(m.since)) out.push('since');
  if (m.onboarding_id !== undefined && !entry.onboarding_ids.includes(m.onboarding_id)) out.push('onboarding_id');
  if (m.idempotency_key !== undefined && entry.headers.idempotency_key !== m.idempotency_key) out.push('idempotency_key');
  if (m.has_idempotency_key !== undefined && (entry.headers.idempotency_key !== null) !== m.has_idempotency_key) out.push('has_idempotency_key');
  if (m.replayed !== undefined && entry.replayed !== m.replayed) out.push('replayed');
  if (m.body_includes !== undefined && !includes(entry.body, m.body_includes)) out.push('body_includes');
  return out;
}

export const matches = (entry: JournalEntry, m: RequestMatcher): boolean => differences(entry, m).length === 0;

function countMeets(count: number, expected: ExpectedCount): boolean {
  if ('exactly' in expected) return count === expected.exactly;
  if ('at_least' in expected) return count >= expected.at_least;
  return count <= expected.at_most;
}

export interface Verification {
  ok: boolean;
  count: number;
  expected: ExpectedCount;
  /** When not ok: up to 3 requests, each with the matcher's fields it does not satisfy. */
  nearest: { request: JournalEntry; differs: MatcherField[] }[];
}

const NEAREST = 3;

/**
 * Onboarding ids an entry gets on first read: those of the answer, whose parsing record()'s
 * caller puts off, since most recorded requests are never read. `bytes` is what the thunk holds
 * on to (the answer's text), counted against PENDING_BYTES_MAX.
 */
export interface DeferredIds {
  bytes: number;
  ids: () => string[];
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
  return entry;
}

/** The text an entry keeps: the body as sent when the caller gave it, else its JSON. */
function textOf(input: { body: unknown; body_text?: string | null }): string | null {
  if (input.body_text !== undefined) return input.body_text;
  return input.body === null || input.body === undefined ? null : JSON.stringify(input.body);
}

/**
 * A request as the journal holds it: what the HTTP edge gave, as it gave it, made into a
 * JournalEntry only when the journal is read. Recording is on the path of every /v1 request;
 * most entries are dropped unread, so an entry read costs its making then, once.
 */
class Kept {
  entry: JournalEntry | undefined;

  constructor(
    readonly seq: number,
    readonly input: JournalInput,
    readonly text: string | null,
    /** The answer's onboarding ids, still to work out (see DeferredIds). */
    public later: DeferredIds | undefined,
  ) {}

  /** What the body counts against the budget: the size of the text the journal holds. */
  get bytes(): number {
    return this.text === null ? 0 : this.input.body_bytes ?? Buffer.byteLength(this.text, 'utf8');
  }

  /** Appends the deferred ids, once. */
  settle(): void {
    if (!this.later) return;
    const more = this.later.ids().filter((id) => !this.input.onboarding_ids.includes(id));
    this.later = undefined;
    if (more.length === 0) return;
    this.input.onboarding_ids = [...this.input.onboarding_ids, ...more];
    if (this.entry) this.entry.onboarding_ids = this.input.onboarding_ids;
  }

  toEntry(): JournalEntry {
    if (this.entry) return this.entry;
    const { body_text: _text, ...fields } = this.input;
    return (this.entry = withBodyText({ id: journalId(this.seq), object: 'request', ...fields, body: null }, this.text));
  }
}

const journalId = (seq: number): string => `jrn_${String(seq).padStart(6, '0')}`;

export class RequestJournal {
  private entries: Kept[] = [];
  /** Entries at the front of `entries` that were dropped, removed together (see record()). */
  private start = 0;
  /** Bytes of the bodies the kept entries hold. */
  private bodyBytes = 0;
  private nextSeq = 1;
  private droppedCount = 0;
  /** Kept entries whose deferred ids are still to work out, and the bytes of answer text they hold. */
  private pendingCount = 0;
  private pendingBytes = 0;

  /** Dropped entries the array may still hold, removed together: an eighth of the limit, at most 1024. */
  private readonly slack: number;

  /** Entries kept; 0 turns the journal off: the HTTP edge records nothing and every list is empty. */
  constructor(readonly limit: number = JOURNAL_LIMIT) {
    this.slack = Math.max(1, Math.min(1024, Math.ceil(limit / 8)));
  }

  /**
   * A saved journal under this limit, whatever limit it was saved with: when it holds more
   * entries, the oldest are dropped and counted, as live ones are.
   */
  static restore(state: JournalState, limit: number = JOURNAL_LIMIT): RequestJournal {
    const journal = new RequestJournal(limit);
    const over = Math.max(0, state.entries.length - limit);
    // Journals saved before `answered` existed hold answered requests only; before `body_bytes`, its size is unknown.
    journal.entries = state.entries.slice(over).map((e) => {
      const { id, object: _object, ...fields } = e;
      // The body is held as its text only, as a recorded one is.
      return new Kept(Number(id.slice(4)), { ...fields, body: null, answered: e.answered ?? true, body_bytes: e.body_bytes ?? null }, textOf(e), undefined);
    });
    journal.bodyBytes = journal.entries.reduce((sum, k) => sum + k.bytes, 0);
    journal.nextSeq = state.next_seq;
    journal.droppedCount = state.dropped + over;
    journal.trim();
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
   * that never costs the work. The input is kept as given, not copied: the caller hands it over.
   */
  append(input: JournalInput, later?: DeferredIds): void {
    if (!this.enabled) return;
    const kept = new Kept(this.nextSeq++, input, textOf(input), later);
    this.entries.push(kept);
    this.bodyBytes += kept.bytes;
    this.trim();
    if (later) {
      this.pendingCount++;
      this.pendingBytes += later.bytes;
      if (this.pendingBytes > PENDING_BYTES_MAX) this.settle();
    }
  }

  /** append(), and the entry as the journal will show it (the entry it would have been, with the journal off). */
  record(input: JournalInput, later?: DeferredIds): JournalEntry {
    if (!this.enabled) {
      const { body_text: _text, ...fields } = input;
      return { id: journalId(this.nextSeq), object: 'request', ...fields };
    }
    this.append(input, later);
    return this.entries[this.entries.length - 1]!.toEntry();
  }

  /**
   * Past the count limit or the body budget, the oldest kept entries are dropped: counted now,
   * removed from the array a batch at a time, so a full journal does not move every entry on
   * every request.
   */
  private trim(): void {
    const entries = this.entries;
    while (entries.length - this.start > this.limit || (this.bodyBytes > JOURNAL_BODY_BUDGET && entries.length - this.start > 1)) {
      const oldest = entries[this.start++]!;
      this.bodyBytes -= oldest.bytes;
      this.droppedCount++;
      if (oldest.later) {
        this.pendingCount--;
        this.pendingBytes -= oldest.later.bytes;
      }
    }
    if (this.start >= this.slack) {
      entries.splice(0, this.start);
      this.start = 0;
    }
  }

  /** Works out every deferred id still owed, so entries read are whole. */
  private settle(): void {
    if (this.pendingCount === 0) return;
    for (let i = this.start; i < this.entries.length; i++) this.entries[i]!.settle();
    this.pendingCount = 0;
    this.pendingBytes = 0;
  }

  /** The entries kept: the array may still hold up to `slack` dropped ones before them. */
  private live(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.start; i < this.entries.length; i++) out.push(this.entries[i]!.toEntry());
    return out;
  }

  /** Newest first. */
  newestFirst(): JournalEntry[] {
    this.settle();
    return this.live().reverse();
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
    this.bodyBytes = 0;
    this.droppedCount = 0;
    this.pendingCount = 0;
    this.pendingBytes = 0;
  }

  /**
   * Durations are wall-clock measurements: left out, so equal workspaces keep giving equal
   * snapshots, and an entry read back shows null.
   */
  /**
   * What the journal gained since the entry numbered `since` (its `next_seq` then): the entries
   * numbered from it, as save() gives them, and `kept`, how many entries it holds now, so that
   * the saved entries, these appended and the oldest dropped down to `kept`, are save()'s.
   */
  saveSince(since: number): { next_seq: number; dropped: number; kept: number; added: JournalState['entries'] } {
    this.settle();
    const entries = this.entries;
    let first = entries.length;
    while (first > this.start && entries[first - 1]!.seq >= since) first--;
    return { next_seq: this.nextSeq, dropped: this.droppedCount, kept: entries.length - this.start, added: entries.slice(first).map((k) => ({ ...k.toEntry(), duration_ms: null })) };
  }

  save(): JournalState {
    this.settle();
    return { next_seq: this.nextSeq, dropped: this.droppedCount, entries: this.live().map((e) => ({ ...e, duration_ms: null })) };
  }

  verify(matcher: RequestMatcher, expected: ExpectedCount): Verification {
    const newest = this.newestFirst();
    const scored = newest.map((request) => ({ request, differs: differences(request, matcher) }));
    const count = scored.filter((s) => s.differs.length === 0).length;
    const ok = countMeets(count, expected);
    if (ok) return { ok, count, expected, nearest: [] };
    // Too few: the requests that came closest to matching. Too many: the matching ones.
    const tooMany = 'at_most' in expected || ('exactly' in expected && count > expected.exactly);
    const nearest = tooMany
      ? scored.filter((s) => s.differs.length === 0)
      : scored.filter((s) => s.differs.length > 0).sort((a, b) => a.differs.length - b.differs.length);
    return { ok, count, expected, nearest: nearest.slice(0, NEAREST) };
  }
}
