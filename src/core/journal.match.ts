import { pathMatches } from './faults.js';
import { bodyTextOf, type JournalEntry } from './journal.js';
import { textIncludes } from './json-subset.js';
import { maskJson, maskSecret, maskSecrets } from './mask.js';
import { afterThisTurn } from './timers.js';

/**
 * Which recorded requests a filter or matcher picks, which of its fields an entry misses, and
 * how many must match (GET /_emulator/requests, POST /_emulator/requests/verify, scenario
 * expectations).
 */
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

/**
 * Bodies read by several matchers in one turn of the event loop, as every wait on a workspace
 * reads each new request: the first reading walks the text, a second parses it once for all
 * that follow. Bounded (PARSED_TEXT_MAX of text, the rest walked again), let go at the turn's end.
 */
const readThisTurn = new Map<JournalEntry, { parsed: unknown } | null>();
let parsedText = 0;
const PARSED_TEXT_MAX = 4 * 1024 * 1024;

function sharedBody(entry: JournalEntry, text: string): { parsed: unknown } | undefined {
  const read = readThisTurn.get(entry);
  if (read) return read;
  if (readThisTurn.size === 0) {
    afterThisTurn(() => {
      readThisTurn.clear();
      parsedText = 0;
    });
  }
  if (read === undefined || parsedText + text.length > PARSED_TEXT_MAX) {
    if (read === undefined) readThisTurn.set(entry, null);
    return undefined;
  }
  let parsed: { parsed: unknown };
  try {
    parsed = { parsed: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
  parsedText += text.length;
  readThisTurn.set(entry, parsed);
  return parsed;
}

/**
 * Does the entry's body hold `expected`? Read from the text the journal keeps, not parsed: a
 * wait, a verify or a report may look at every body of a full journal. `shared`: other readers
 * look at it in this turn too (sharedBody()).
 */
function bodyIncludes(entry: JournalEntry, expected: unknown, shared: boolean): boolean {
  const text = bodyTextOf(entry);
  if (text === undefined) return includes(entry.body, expected);
  if (text === null) return includes(null, expected);
  const body = shared ? sharedBody(entry, text) : undefined;
  if (body) return includes(body.parsed, expected);
  return textIncludes(text, expected) ?? includes(entry.body, expected);
}

/**
 * The matcher's fields this entry does not satisfy, in the matcher's field order. `first`: stop
 * at the first one (whether it matches is all that is asked), the body, the dearest, last. Its
 * values are masked as the entry's are (src/core/mask.ts), so a secret given whole still finds
 * its request.
 */
export function differences(entry: JournalEntry, m: RequestMatcher, first = false, shared = false): MatcherField[] {
  const out: MatcherField[] = [];
  if (m.method !== undefined && entry.method !== m.method.toUpperCase()) out.push('method');
  if (m.path !== undefined && !pathMatches(maskSecrets(m.path), entry.path)) out.push('path');
  if (m.status !== undefined && entry.status !== m.status) out.push('status');
  if (m.error_code !== undefined && entry.error_code !== m.error_code) out.push('error_code');
  if (m.key !== undefined && entry.key !== maskSecret(m.key)) out.push('key');
  if (m.since !== undefined && Date.parse(entry.at) < Date.parse(m.since)) out.push('since');
  if (m.onboarding_id !== undefined && !entry.onboarding_ids.includes(m.onboarding_id)) out.push('onboarding_id');
  if (m.idempotency_key !== undefined && entry.headers.idempotency_key !== maskSecrets(m.idempotency_key)) out.push('idempotency_key');
  if (m.has_idempotency_key !== undefined && (entry.headers.idempotency_key !== null) !== m.has_idempotency_key) out.push('has_idempotency_key');
  if (m.replayed !== undefined && entry.replayed !== m.replayed) out.push('replayed');
  if (first && out.length > 0) return out;
  if (m.body_includes !== undefined && !bodyIncludes(entry, maskJson(m.body_includes), shared)) out.push('body_includes');
  return out;
}

export const matches = (entry: JournalEntry, m: RequestMatcher): boolean => differences(entry, m, true).length === 0;

/** matches(), for a reader of each new entry among others reading it in the same turn (the waits on a workspace). */
export const matchesNew = (entry: JournalEntry, m: RequestMatcher): boolean => differences(entry, m, true, true).length === 0;

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

/** Counts the entries (newest first) the matcher picks against `expected`; when not as expected, the nearest ones. */
export function verifyEntries(newest: readonly JournalEntry[], matcher: RequestMatcher, expected: ExpectedCount): Verification {
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
