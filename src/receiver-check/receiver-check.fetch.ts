import { fail } from '../core/errors.js';
import { monotonicMs } from '../core/clock.js';
import { wallDelay } from '../core/timers.js';
import { DEFAULT_FETCH_WITHIN_MS, FETCH_METHODS, FETCH_POLL_MS, MAX_FETCH_WITHIN_MS } from './receiver-check.checks.js';
import { ONBOARDING_ID_PLACEHOLDER, withOnboardingId } from '../core/placeholders.js';
import { skipped, type Outcome, type Run } from './receiver-check.run.js';

/**
 * The follow-up check (12): what the receiver did after the messages, read from the requests
 * the emulator saw (its request journal).
 */

export interface FetchExpectation {
  /** Default GET. */
  method?: string;
  /** A path holding `{onboarding_id}`, e.g. `/v1/onboardings/{onboarding_id}`. */
  path: string;
  /** How long to wait after the burst for the calls; 1 to 10000, default 2000. */
  withinMs?: number;
}

/** A request the emulator answered, as check 12 reads it. */
export interface SeenRequest {
  method: string;
  path: string;
}

/** The emulator's requests, as check 12 reads them (the service passes the workspace's journal). */
export interface RequestsSeen {
  /** False when nothing is recorded (the journal is off): check 12 is skipped. */
  enabled: boolean;
  /** Called as the run starts: answers a function giving the requests recorded since. */
  start(): () => readonly SeenRequest[];
}

export interface ResolvedFetch {
  method: string;
  path: string;
  withinMs: number;
}

/** `expect_fetch` checked and with its defaults, or parameter_invalid. */
export function fetchExpectation(e: FetchExpectation): ResolvedFetch {
  const method = (e.method ?? 'GET').toUpperCase();
  if (!(FETCH_METHODS as readonly string[]).includes(method)) {
    throw fail('parameter_invalid', `expect_fetch.method: must be one of ${FETCH_METHODS.join(', ')}.`, 'expect_fetch.method');
  }
  if (typeof e.path !== 'string' || !e.path.startsWith('/') || !e.path.includes(ONBOARDING_ID_PLACEHOLDER) || /[?#\s]/.test(e.path)) {
    throw fail('parameter_invalid', `expect_fetch.path: must be a path starting with / and holding ${ONBOARDING_ID_PLACEHOLDER}, without a query, e.g. /v1/onboardings/${ONBOARDING_ID_PLACEHOLDER}.`, 'expect_fetch.path');
  }
  const withinMs = e.withinMs ?? DEFAULT_FETCH_WITHIN_MS;
  if (!Number.isInteger(withinMs) || withinMs < 1 || withinMs > MAX_FETCH_WITHIN_MS) {
    throw fail('parameter_invalid', `expect_fetch.within_ms: must be a whole number of milliseconds from 1 to ${MAX_FETCH_WITHIN_MS}.`, 'expect_fetch.within_ms');
  }
  return { method, path: e.path, withinMs };
}

/** At most this many ids named per list in a reason; the rest are counted. */
const NAMED_IDS = 10;
const named = (ids: string[]) => (ids.length <= NAMED_IDS ? ids.join(', ') : `${ids.slice(0, NAMED_IDS).join(', ')} and ${ids.length - NAMED_IDS} more`);

/**
 * Check 12: for each new event the receiver acknowledged (check 1's, each of the burst's), exactly
 * one matching call since the run started, the repeat of check 2 adding none. Waits up to
 * `withinMs` after the burst, reading every FETCH_POLL_MS, until each expected onboarding was
 * called; any status counts (the ids are fictitious: a 404 still proves the call).
 */
export async function fetchedAfterEvent(run: Run, expect: ResolvedFetch, seen: () => readonly SeenRequest[]): Promise<Outcome> {
  const ids = run.acknowledgedNew;
  const call = `${expect.method} ${expect.path}`;
  if (ids.length === 0) return skipped(`no new event was acknowledged (checks 1 and 11), so no ${call} was due`);
  const wanted = new Map(ids.map((id) => [withOnboardingId(expect.path, id), id]));
  const began = monotonicMs();
  const deadline = began + expect.withinMs;
  let counts = new Map<string, number>();
  for (;;) {
    counts = new Map(ids.map((id) => [id, 0]));
    for (const r of seen()) {
      const id = r.method.toUpperCase() === expect.method ? wanted.get(r.path) : undefined;
      if (id !== undefined) counts.set(id, counts.get(id)! + 1);
    }
    if ([...counts.values()].every((n) => n > 0) || monotonicMs() >= deadline) break;
    await wallDelay(Math.min(FETCH_POLL_MS, Math.max(1, deadline - monotonicMs())));
  }
  const ms = Math.round(monotonicMs() - began);
  const missing = ids.filter((id) => counts.get(id) === 0);
  const twice = ids.filter((id) => counts.get(id)! > 1);
  const once = ids.length - missing.length - twice.length;
  if (missing.length === 0 && twice.length === 0) {
    return { grade: 'passed', reason: `${call}: each of the ${ids.length} new events' onboardings called once (${named(ids)})`, status: null, ms };
  }
  const parts: string[] = [];
  if (twice.length > 0) {
    const first = twice.includes(run.firstOnboardingId) ? ' (check 1\'s onboarding: the repeat of check 2 was acted on again)' : '';
    parts.push(`called more than once: ${named(twice.map((id) => `${id} ${counts.get(id)} times`))}${first}`);
  }
  if (missing.length > 0) parts.push(`never called within ${expect.withinMs} ms: ${named(missing)}`);
  return { grade: 'failed', reason: `${call}: ${parts.join('; ')}; ${once} of ${ids.length} called exactly once`, status: null, ms };
}
