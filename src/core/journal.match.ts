import { pathMatches } from './faults.js';
import type { JournalEntry } from './journal.js';
import { maskJson, maskSecret, maskSecrets } from './mask.js';

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
 * The matcher's fields this entry does not satisfy, in the matcher's field order. Its values are
 * masked as the entry's are (src/core/mask.ts), so a secret given whole still finds its request.
 */
export function differences(entry: JournalEntry, m: RequestMatcher): MatcherField[] {
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
  if (m.body_includes !== undefined && !includes(entry.body, maskJson(m.body_includes))) out.push('body_includes');
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
