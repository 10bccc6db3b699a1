import { pathMatches } from './faults.js';
import type { PartShape } from './workspace.js';

/**
 * The request journal (GET /_emulator/requests): what each /v1 request of a workspace asked and
 * what it was answered, so a partner's test can check what its code really sent. Data, bound,
 * matching and verification only; the HTTP edge (src/http/journal.ts) fills it in.
 */

/** Entries kept per workspace; older ones are dropped and counted. */
export const JOURNAL_LIMIT = 1000;

export interface JournalHeaders {
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
  /** The body as parsed JSON, kept as sent; null when none was read. */
  body: unknown;
  status: number;
  /** The envelope's code when the answer is an error. */
  error_code: string | null;
  replayed: boolean;
  /** False when an injected fault dropped the answer after the request ran: `status` is what it would have been. */
  answered: boolean;
  /** Measured at the HTTP edge; null for an entry read back from a snapshot (see save()). */
  duration_ms: number | null;
  /** Onboarding ids named by the path, the body's onboarding_id or the answer's id/onboarding_id. */
  onboarding_ids: string[];
}

export type JournalInput = Omit<JournalEntry, 'id' | 'object'>;

export interface JournalState {
  next_seq: number;
  dropped: number;
  entries: (Omit<JournalEntry, 'answered'> & { answered?: boolean })[];
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

export function countMeets(count: number, expected: ExpectedCount): boolean {
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

export class RequestJournal {
  private entries: JournalEntry[] = [];
  private nextSeq = 1;
  private droppedCount = 0;

  constructor(private readonly limit: number = JOURNAL_LIMIT) {}

  static restore(state: JournalState, limit: number = JOURNAL_LIMIT): RequestJournal {
    const journal = new RequestJournal(limit);
    // Journals saved before `answered` existed hold answered requests only.
    journal.entries = state.entries.map((e) => ({ ...e, answered: e.answered ?? true }));
    journal.nextSeq = state.next_seq;
    journal.droppedCount = state.dropped;
    return journal;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  record(input: JournalInput): JournalEntry {
    const entry: JournalEntry = { id: `jrn_${String(this.nextSeq++).padStart(6, '0')}`, object: 'request', ...input };
    this.entries.push(entry);
    const over = this.entries.length - this.limit;
    if (over > 0) {
      this.entries.splice(0, over);
      this.droppedCount += over;
    }
    return entry;
  }

  /** Newest first. */
  newestFirst(): JournalEntry[] {
    return [...this.entries].reverse();
  }

  clear(): void {
    this.entries = [];
    this.droppedCount = 0;
  }

  /**
   * Durations are wall-clock measurements: left out, so equal workspaces keep giving equal
   * snapshots, and an entry read back shows null.
   */
  save(): JournalState {
    return { next_seq: this.nextSeq, dropped: this.droppedCount, entries: this.entries.map((e) => ({ ...e, duration_ms: null })) };
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
