import { parseDuration } from '../core/durations.js';
import { ctrfReport, type CtrfReport } from '../core/ctrf.js';
import { junitXml } from '../core/junit.js';
import type { TestSuite } from '../core/test-report.js';
import { reportedAt } from '../core/validation.js';
import { ONBOARDING_ID_PLACEHOLDER, withOnboardingId } from '../core/placeholders.js';
import type { JournalEntry } from '../core/journal.js';
import { pathMatches } from '../core/faults.js';
import { matches as requestMatches, type RequestMatcher } from '../core/journal.match.js';
import type { Workspace } from '../core/workspace.js';
import type { EventRecord } from '../resources/events/events.model.js';
import type { DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import { TERMINAL_STATUSES, type OnboardingRecord, type OnboardingStatus } from '../resources/onboardings/onboardings.model.js';
import { timeline } from '../resources/onboardings/onboardings.timeline.js';
import { matches } from './scenario.rules.js';
import { EXPECT_MAX, EXPECTATION_KINDS, type ExpectationKind, type ExpectRequest, type ScenarioDocument, type ScenarioExpectation } from './scenario.schemas.js';

/**
 * A scenario's `expect:` entries (docs/scenarios.md "Expectations"): what should happen, each
 * worked out again on every read from the store, the request journal and the workspace clock,
 * so "checked as the clock moves" needs no timer of its own. Only what happened since the
 * scenario was loaded (or its workspace reset) counts: onboardings created, events made and
 * requests recorded from then on, not the fixtures' data already there.
 */

type ExpectationStatus = 'passed' | 'failed' | 'pending';

/** One onboarding, event or request an expectation looked at, and what it found. */
interface ExpectationItem {
  /** The onboarding, event or request id. */
  subject: string;
  status: ExpectationStatus;
  /** The deadline on the workspace clock; null for never. */
  due_at: string | null;
  /** When what was expected (or, for never, what was not) was seen; null when it was not. */
  seen_at: string | null;
  reason: string;
}

interface ExpectationResult {
  name: string;
  kind: ExpectationKind;
  status: ExpectationStatus;
  reason: string;
  details: ExpectationItem[];
}

export interface ExpectationReport {
  /** The scenario's name; null when it has none or none is loaded. */
  scenario: string | null;
  now: string;
  /** The verdict at the end of a run: nothing is pending, what was still pending failed. */
  final: boolean;
  passed: number;
  failed: number;
  pending: number;
  expectations: ExpectationResult[];
}


/** Items a result's reason names at most; the details list them all. */
const NAMED = 3;

const kindOf = (e: ScenarioExpectation): ExpectationKind | undefined => EXPECTATION_KINDS.find((k) => e[k] !== undefined);

/** What the schema cannot say: exactly one kind per entry, and {onboarding_id} only where an event names one. */
export function expectMistakes(doc: unknown, reported: readonly { path: string }[]): { path: string; message: string; hint?: string }[] {
  const declared = (doc as Partial<ScenarioDocument> | null)?.expect;
  if (!Array.isArray(declared)) return [];
  const mistakes: { path: string; message: string; hint?: string }[] = [];
  const isReported = reportedAt(reported);
  // Past the schema's limit the list is refused as it is: its entries need no more reading.
  declared.slice(0, EXPECT_MAX).forEach((entry: unknown, i) => {
    const at = `expect[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || isReported(at)) return;
    const kinds = EXPECTATION_KINDS.filter((k) => (entry as Record<string, unknown>)[k] !== undefined);
    if (kinds.length !== 1) {
      mistakes.push({
        path: at,
        message: kinds.length === 0 ? 'says nothing to expect' : `has ${kinds.join(' and ')}; an expectation is one of them`,
        hint: 'give exactly one of onboarding, delivered, after and never (write several expectations for several checks)',
      });
      return;
    }
    const e = entry as ScenarioExpectation;
    const paths: [string, unknown][] = [[`${at}.never.path`, e.never?.path], [`${at}.after.request.path`, e.after?.request?.path]];
    for (const [path, value] of paths) {
      if (typeof value !== 'string' || isReported(path)) continue;
      const placeholders = value.match(/\{[^}]*\}/g) ?? [];
      const wrong = placeholders.find((p) => p !== ONBOARDING_ID_PLACEHOLDER);
      if (wrong) mistakes.push({ path, message: `${wrong} is not a placeholder`, hint: `${ONBOARDING_ID_PLACEHOLDER} is the only one: the onboarding of the event` });
      else if (placeholders.length > 0 && path.endsWith('never.path')) {
        mistakes.push({ path, message: `${ONBOARDING_ID_PLACEHOLDER} names the onboarding of an event, and never has none`, hint: 'write the path with * for any onboarding (/v1/onboardings/*)' });
      }
    }
  });
  return mistakes;
}

/** A length of time as people write it: "1d 2h", "45m", "30s". */
function span(ms: number): string {
  let rest = Math.round(Math.abs(ms) / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.length ? parts.join(' ') : '0s';
}

/** ISO instants already written: a report writes the same deadlines for each expectation on the same events. */
const isoWritten = new Map<number, string>();
function iso(ms: number): string {
  let text = isoWritten.get(ms);
  if (text === undefined) {
    if (isoWritten.size >= 10_000) isoWritten.clear();
    isoWritten.set(ms, (text = new Date(ms).toISOString()));
  }
  return text;
}
const written = (delay: number | string) => (typeof delay === 'number' ? `${delay}s` : delay);

/** A request as a sentence names it: the method, the path (`path`, when given, instead of the request's), the other fields. */
const describeRequest = (req: ExpectRequest, path = req.path) =>
  [req.method ?? 'any method', path ?? 'any path', ...Object.entries(req).filter(([k]) => k !== 'method' && k !== 'path').map(([k, v]) => `${k}=${String(v)}`)].join(' ');

function defaultName(e: ScenarioExpectation): string {
  if (e.onboarding) return `${e.onboarding.match ? `onboardings matching ${JSON.stringify(e.onboarding.match)}` : 'every onboarding'} reaches ${e.onboarding.reaches} within ${written(e.onboarding.within)}`;
  if (e.delivered) return `every ${e.delivered.event} is delivered within ${written(e.delivered.within)}`;
  if (e.after) return `after ${e.after.event}: ${describeRequest(e.after.request)} within ${written(e.after.within)}`;
  return `never ${describeRequest(e.never!)}`;
}

/** Failed if any item failed, else pending if any is, else passed; no items: `empty`. */
function overall(items: ExpectationItem[], empty: ExpectationStatus): ExpectationStatus {
  if (items.length === 0) return empty;
  if (items.some((i) => i.status === 'failed')) return 'failed';
  return items.some((i) => i.status === 'pending') ? 'pending' : 'passed';
}

/** The reason of the whole: the items of its status, the first few named. */
function summary(status: ExpectationStatus, items: ExpectationItem[], noun: string): string {
  const of = items.filter((i) => i.status === status);
  const named = of.slice(0, NAMED).map((i) => `${i.subject}: ${i.reason}`).join('; ');
  const more = of.length > NAMED ? `; and ${of.length - NAMED} more` : '';
  const head = status === 'passed' ? `all ${items.length} ${noun}(s) passed` : `${of.length} of ${items.length} ${noun}(s) ${status}`;
  return `${head}: ${named}${more}`;
}

/** When the onboarding first reached the status (its events rebuilt into transitions), else null. */
function reachedAt(c: Context, r: OnboardingRecord, status: OnboardingStatus): number | null {
  const key = `${r.id} ${status}`;
  if (c.reached.has(key)) return c.reached.get(key)!;
  const entry = timeline(r, c.eventsOf.get(r.id) ?? []).find((t) => t.to === status && t.from !== status);
  // Its events are gone (kept 30 days): the record's own instants.
  const at = entry ? Date.parse(entry.at)
    : r.status !== status ? null
    : Date.parse(status === 'completed' ? (r.completed_at ?? r.updated_at) : status === 'cancelled' ? (r.cancelled_at ?? r.updated_at) : r.updated_at);
  c.reached.set(key, at);
  return at;
}

interface Context {
  ws: Workspace;
  now: number;
  /** Journal entries at or after this instant count. */
  since: number;
  /** Onboardings and events made since the loading. */
  isNew: (record: { seq: number; created_at: string }) => boolean;
  events: EventRecord[];
  journal: JournalEntry[];
  /** The journal entries' instants, in the same (chronological) order. */
  journalAt: number[];
  /** An event's created_at in milliseconds, read once per report. */
  createdAt: (e: EventRecord) => number;
  /** Read once per report, so no expectation scans the whole store per item. */
  eventsOf: Map<string, EventRecord[]>;
  deliveriesOf: Map<string, DeliveryRecord[]>;
  reached: Map<string, number | null>;
}

function onboardingItems(c: Context, spec: NonNullable<ScenarioExpectation['onboarding']>): ExpectationItem[] {
  const within = parseDuration(spec.within) ?? 0;
  const chosen = c.ws.store.onboardings.values()
    .filter((r) => r.environment === 'test' && c.isNew(r) && (!spec.match || matches(spec.match, r)))
    .sort((a, b) => a.seq - b.seq);
  return chosen.map((r): ExpectationItem => {
    const due = Date.parse(r.created_at) + within;
    const at = reachedAt(c, r, spec.reaches);
    const base = { subject: r.id, due_at: iso(due), seen_at: at === null ? null : iso(at) };
    if (at !== null && at <= due) return { ...base, status: 'passed', reason: `reached ${spec.reaches} at ${iso(at)}, ${span(at - Date.parse(r.created_at))} after its creation` };
    if (at !== null) return { ...base, status: 'failed', reason: `reached ${spec.reaches} at ${iso(at)}, ${span(at - due)} after the deadline ${iso(due)}` };
    if (TERMINAL_STATUSES.includes(r.status)) return { ...base, status: 'failed', reason: `it is ${r.status} and can no longer reach ${spec.reaches}` };
    if (c.now > due) return { ...base, status: 'failed', reason: `not ${spec.reaches} by ${iso(due)}; it is ${r.status}` };
    return { ...base, status: 'pending', reason: `${r.status}, due ${spec.reaches} by ${iso(due)} (${span(due - c.now)} left)` };
  });
}

function deliveredItems(c: Context, spec: NonNullable<ScenarioExpectation['delivered']>): ExpectationItem[] {
  const within = parseDuration(spec.within) ?? 0;
  return c.events.filter((e) => e.type === spec.event).map((e): ExpectationItem => {
    const due = c.createdAt(e) + within;
    const mine = c.deliveriesOf.get(e.id) ?? [];
    const succeeded = mine.filter((d) => d.status === 'succeeded' && d.delivered_at !== null).map((d) => Date.parse(d.delivered_at!)).sort((a, b) => a - b);
    const first = succeeded[0];
    const base = { subject: e.id, due_at: iso(due), seen_at: first === undefined ? null : iso(first) };
    if (first !== undefined && first <= due) return { ...base, status: 'passed', reason: `delivered at ${iso(first)}, ${span(first - Date.parse(e.created_at))} after the event` };
    if (first !== undefined) return { ...base, status: 'failed', reason: `delivered at ${iso(first)}, ${span(first - due)} after the deadline ${iso(due)}` };
    const seen = mine.length === 0
      ? 'no delivery was made (no enabled webhook endpoint takes this event)'
      : mine.map((d) => `${d.id} ${d.status} after ${d.attempts} attempt(s)${d.last_status_code !== null ? `, last answer ${d.last_status_code}` : d.last_error ? `, ${d.last_error}` : ''}`).join('; ');
    if (c.now > due) return { ...base, status: 'failed', reason: `not delivered by ${iso(due)}: ${seen}` };
    return { ...base, status: 'pending', reason: `due by ${iso(due)} (${span(due - c.now)} left): ${seen}` };
  });
}

const journalNote = (ws: Workspace) => (ws.requests.dropped > 0 ? ` (the journal dropped its ${ws.requests.dropped} oldest request(s); raise --journal-limit)` : '');

/**
 * The journal entries (their positions in `c.journal`, ascending) an `after` expectation's
 * request matches for each event, worked out in one pass over the journal rather than one
 * per event: the entries that match all but the path, then, when the path names
 * `{onboarding_id}`, grouped by the onboarding whose id the path holds there.
 */
function afterCandidates(c: Context, request: ExpectRequest, events: readonly EventRecord[]): (e: EventRecord) => readonly number[] {
  const { path, ...rest } = request;
  const others: RequestMatcher = rest;
  const candidates: number[] = [];
  for (let i = 0; i < c.journal.length; i++) if (requestMatches(c.journal[i]!, others)) candidates.push(i);
  const onPath = (pattern: string | undefined) => (pattern === undefined ? candidates : candidates.filter((i) => pathMatches(pattern, c.journal[i]!.path)));
  if (path === undefined || !path.includes(ONBOARDING_ID_PLACEHOLDER)) {
    const all = onPath(path);
    return () => all;
  }
  // An event naming no onboarding leaves the placeholder as it is written.
  let literal: number[] | undefined;
  const ids = new Set(events.flatMap((e) => (e.data.onboarding_id === undefined ? [] : [e.data.onboarding_id])));
  const lengths = new Set([...ids].map((id) => id.length));
  const head = path.slice(0, path.indexOf(ONBOARDING_ID_PLACEHOLDER));
  const byOnboarding = new Map<string, number[]>();
  for (const i of candidates) {
    const sent = c.journal[i]!.path;
    if (!sent.startsWith(head)) continue;
    for (const length of lengths) {
      const id = sent.slice(head.length, head.length + length);
      if (!ids.has(id) || !pathMatches(withOnboardingId(path, id), sent)) continue;
      const list = byOnboarding.get(id);
      if (list) list.push(i);
      else byOnboarding.set(id, [i]);
    }
  }
  return (e) => (e.data.onboarding_id === undefined ? (literal ??= onPath(path)) : byOnboarding.get(e.data.onboarding_id) ?? []);
}

function afterItems(c: Context, spec: NonNullable<ScenarioExpectation['after']>): ExpectationItem[] {
  const within = parseDuration(spec.within) ?? 0;
  const events = c.events.filter((e) => e.type === spec.event);
  const candidatesFor = afterCandidates(c, spec.request, events);
  const path = spec.request.path;
  const note = journalNote(c.ws);
  return events.map((e): ExpectationItem => {
    const from = c.createdAt(e);
    const due = from + within;
    // The journal is in time order: the first candidate at or after the event, if it is before the deadline.
    const candidates = candidatesFor(e);
    const first = candidates[firstFrom(candidates, firstAtOrAfter(c.journalAt, from))];
    const hit = first !== undefined && c.journalAt[first]! <= due ? c.journal[first] : undefined;
    const dueAt = iso(due);
    if (hit) return { subject: e.id, due_at: dueAt, seen_at: hit.at, status: 'passed', reason: `${hit.id} ${hit.method} ${hit.path} at ${hit.at}, ${span(c.journalAt[first!]! - from)} after the event` };
    const wanted = describeRequest(spec.request, path === undefined || e.data.onboarding_id === undefined ? path : withOnboardingId(path, e.data.onboarding_id));
    if (c.now > due) return { subject: e.id, due_at: dueAt, seen_at: null, status: 'failed', reason: `no ${wanted} between ${e.created_at} and ${dueAt}${note}` };
    return { subject: e.id, due_at: dueAt, seen_at: null, status: 'pending', reason: `waiting for ${wanted} until ${dueAt} (${span(due - c.now)} left)` };
  });
}

/** The first place in ascending `positions` holding `start` or more. */
function firstFrom(positions: readonly number[], start: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (positions[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose instant is at or after `t` (binary search over sorted instants). */
function firstAtOrAfter(instants: readonly number[], t: number): number {
  let lo = 0;
  let hi = instants.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (instants[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function neverItems(c: Context, spec: ExpectRequest): ExpectationItem[] {
  const matcher: RequestMatcher = spec;
  return c.journal.filter((j) => requestMatches(j, matcher)).map((j) => ({
    subject: j.id, status: 'failed' as const, due_at: null, seen_at: j.at,
    reason: `${j.method} ${j.path} at ${j.at} answered ${j.status}${j.headers.idempotency_key === null ? ' (no Idempotency-Key)' : ''}`,
  }));
}

/** An expectation worked out, but for its name. */
type Outcome = Omit<ExpectationResult, 'name'>;

function evaluate(c: Context, e: ScenarioExpectation): Outcome {
  const kind = kindOf(e)!;
  const result = (status: ExpectationStatus, reason: string, details: ExpectationItem[]): Outcome => ({ kind, status, reason, details });
  if (kind === 'never') {
    const found = neverItems(c, e.never!);
    if (!c.ws.requests.enabled) return result('pending', 'the request journal is off (--journal-limit 0): requests cannot be checked', []);
    return found.length === 0
      ? result('passed', `no matching request among the ${c.journal.length} recorded since the scenario was loaded${journalNote(c.ws)}`, [])
      : result('failed', summary('failed', found, 'request'), found);
  }
  if (kind === 'onboarding') {
    const items = onboardingItems(c, e.onboarding!);
    const status = overall(items, 'pending');
    return result(status, items.length === 0 ? `no ${e.onboarding!.match ? 'matching ' : ''}test onboarding was created since the scenario was loaded` : summary(status, items, 'onboarding'), items);
  }
  const spec = (kind === 'delivered' ? e.delivered : e.after)!;
  if (kind === 'after' && !c.ws.requests.enabled) return result('pending', 'the request journal is off (--journal-limit 0): requests cannot be checked', []);
  const items = kind === 'delivered' ? deliveredItems(c, e.delivered!) : afterItems(c, e.after!);
  const status = overall(items, 'pending');
  return result(status, items.length === 0 ? `no ${spec.event} event since the scenario was loaded` : summary(status, items, 'event'), items);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Every expectation of the workspace's scenario, worked out now. */
export function evaluateExpectations(ws: Workspace): ExpectationReport {
  const scenario = ws.scenario;
  const now = ws.clock.nowMs();
  const since = scenario ? Date.parse(scenario.loaded_at) : now;
  const fromSeq = scenario?.from_seq;
  const isNew = (r: { seq: number; created_at: string }) => (fromSeq === undefined ? Date.parse(r.created_at) >= since : r.seq >= fromSeq);
  const expectations = scenario?.document.expect ?? [];
  const journal = expectations.length ? ws.requests.newestFirst().reverse().filter((j) => Date.parse(j.at) >= since) : [];
  const createdMs = new Map<EventRecord, number>();
  const c: Context = {
    ws,
    now,
    since,
    isNew,
    events: expectations.length ? ws.store.events.values().filter(isNew).sort((a, b) => a.seq - b.seq) : [],
    journal,
    journalAt: journal.map((j) => Date.parse(j.at)),
    createdAt: (e) => {
      let ms = createdMs.get(e);
      if (ms === undefined) createdMs.set(e, (ms = Date.parse(e.created_at)));
      return ms;
    },
    eventsOf: expectations.length ? groupBy(ws.store.events.values().sort((a, b) => a.seq - b.seq), (e) => e.data.onboarding_id) : new Map(),
    deliveriesOf: expectations.length ? groupBy(ws.store.deliveries.values(), (d) => d.event_id) : new Map(),
    reached: new Map(),
  };
  // Expectations that differ in their names only are worked out once (their items shared).
  const outcomes = new Map<string, Outcome>();
  const results = expectations.map((e): ExpectationResult => {
    const key = JSON.stringify({ ...e, name: null });
    let outcome = outcomes.get(key);
    if (!outcome) outcomes.set(key, (outcome = evaluate(c, e)));
    return { name: e.name ?? defaultName(e), ...outcome };
  });
  return tally(scenario?.document.name ?? null, iso(now), false, results);
}

function tally(scenario: string | null, now: string, final: boolean, expectations: ExpectationResult[]): ExpectationReport {
  const count = (s: ExpectationStatus) => expectations.filter((r) => r.status === s).length;
  return { scenario, now, final, passed: count('passed'), failed: count('failed'), pending: count('pending'), expectations };
}

const NOT_REACHED = 'not reached by the end of the run';

/**
 * The report at the end of a run: what is still pending can no longer happen, so it failed. A
 * CI gate on it cannot pass on a run that did nothing (no onboarding created, no event made).
 */
export function finalReport(report: ExpectationReport): ExpectationReport {
  const ended = <T extends { status: ExpectationStatus; reason: string }>(x: T): T =>
    x.status === 'pending' ? { ...x, status: 'failed', reason: `${NOT_REACHED}: ${x.reason}` } : x;
  return tally(report.scenario, report.now, true, report.expectations.map((e) => ({ ...ended(e), details: e.details.map(ended) })));
}

/** The report as test cases: one suite, a case per expectation, the reasons of its subjects as its detail. */
function expectationSuite(report: ExpectationReport): TestSuite {
  const suite = report.scenario ?? 'scenario';
  return {
    name: suite,
    timestamp: report.now,
    cases: report.expectations.map((e) => ({
      name: e.name,
      classname: `${suite}.${e.kind}`,
      outcome: e.status,
      ...(e.status === 'passed' ? {} : { message: e.reason }),
      ...(e.details.length > 0 && e.status !== 'passed' ? { detail: e.details.map((d) => `${d.subject} ${d.status}: ${d.reason}`).join('\n') } : {}),
    })),
  };
}

/** The report as JUnit XML: one suite, a test case per expectation, pending ones skipped. */
export function expectationsJunit(report: ExpectationReport): string {
  return junitXml([expectationSuite(report)], 'onboarding-emulator scenario report');
}

/**
 * The report as CTRF: a test per expectation, a pending one pending. The report is a verdict at
 * one instant of the workspace clock, its `now`: the run's start and stop both.
 */
export function expectationsCtrf(report: ExpectationReport): CtrfReport {
  const now = Date.parse(report.now);
  return ctrfReport([expectationSuite(report)], { start: now, stop: now });
}
