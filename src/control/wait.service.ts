import { monotonicMs } from '../core/clock.js';
import { ApiError, fail, type ErrorDetail } from '../core/errors.js';
import { differences, matches, matchesNew, type RequestMatcher } from '../core/journal.match.js';
import type { JournalEntry } from '../core/journal.js';
import { describeTimer } from '../core/scheduler.js';
import { wildcardMatch } from '../core/wildcard.js';
import type { Workspace } from '../core/workspace.js';
import type { ControlHost } from './control.host.js';
import { EVENT_TYPES, type EventRecord } from '../resources/events/events.model.js';
import { ONBOARDING_STATUSES, TERMINAL_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { DELIVERY_STATUSES, type DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import { renderInspectDelivery, renderInspectEvents, summarizeOnboarding } from './inspect.service.js';
import { WAIT_DEFAULT_MS, WAIT_FIELDS, WAIT_LISTED, type WaitKind, type WaitQuery } from './wait.schemas.js';
import { DeleteWatch, KeyWatch, RecordTally, RequestTally } from './wait.tally.js';

/**
 * GET /_emulator/wait: holds the request until the workspace shows what was asked (an event, a
 * delivery, a recorded request, an onboarding's status, nothing left to run), re-checked on every
 * change the workspace announces (reading only what changed since the last look: wait.tally.ts),
 * or answers 409 wait_timeout naming the nearest candidates.
 */

/** What a kind's check finds once the condition holds: how many match, and the matches to list. */
interface Found {
  count: number;
  data: unknown[];
}

/** A condition: its check, and what to say when it does not hold. */
interface Condition {
  check(): Found | undefined;
  unmet(): { summary: string; nearest: ErrorDetail[] };
}

const NEAREST = 3;

/** The items that differ in the fewest fields, newest first among equals. */
function nearestOf<T>(newestFirst: readonly T[], differs: (item: T) => string[], describe: (item: T) => [string, string]): ErrorDetail[] {
  return newestFirst
    .map((item, order) => ({ item, order, differs: differs(item) }))
    .sort((a, b) => a.differs.length - b.differs.length || a.order - b.order)
    .slice(0, NEAREST)
    .map(({ item, differs: fields }) => {
      const [path, what] = describe(item);
      return { path, message: fields.length ? `${what}; differs in ${fields.join(', ')}` : `${what}; matches` };
    });
}

const before = (at: string, since: string | undefined) => since !== undefined && Date.parse(at) < Date.parse(since);

/** A name or a pattern with * and ?: a plain name is compared as it is (ignoring case), which is most waits and far cheaper. */
function matcherFor(pattern: string | undefined, param: string): ((value: string) => boolean) | undefined {
  if (pattern === undefined) return undefined;
  if (/[*?]/.test(pattern)) {
    if (pattern.length > 200) throw fail('parameter_invalid', `${param}: a pattern with * or ? has at most 200 characters.`, param);
    return (value) => wildcardMatch(pattern, value);
  }
  const plain = pattern.toLowerCase();
  return (value) => value.toLowerCase() === plain;
}

/** An event type, or a pattern: a plain name must be a known type, or the wait could never end. */
function checkType(value: string | undefined, param: string): void {
  if (value === undefined || /[*?]/.test(value)) return;
  if (!(EVENT_TYPES as readonly string[]).includes(value)) {
    throw fail('parameter_invalid', `${param}: ${value} is not an event type; use one of ${EVENT_TYPES.join(', ')}, or a pattern with *.`, param);
  }
}

function oneOf<T extends string>(value: string | number | undefined, values: readonly T[], param: string, what: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(String(value))) throw fail('parameter_invalid', `${param}: ${value} is not ${what}; use one of ${values.join(', ')}.`, param);
  return String(value) as T;
}

/** Met once the tally holds `need` matches: those, the newest WAIT_LISTED listed, oldest first. */
function found<T>(tally: { count: number; newest(max: number): T[] }, need: number, render: (items: T[]) => unknown[]): Found | undefined {
  return tally.count < need ? undefined : { count: tally.count, data: render(tally.newest(WAIT_LISTED)) };
}

function eventCondition(ws: Workspace, q: WaitQuery, need: number): Condition {
  checkType(q.type, 'type');
  const typeMatches = matcherFor(q.type, 'type');
  const differs = (e: EventRecord) => {
    const out: string[] = [];
    if (typeMatches && !typeMatches(e.type)) out.push('type');
    if (q.onboarding_id !== undefined && e.data.onboarding_id !== q.onboarding_id) out.push('onboarding_id');
    if (before(e.created_at, q.since)) out.push('since');
    return out;
  };
  const newest = () => ws.store.events.values().reverse();
  const tally = new RecordTally(() => ws.store.events, (e) => differs(e).length === 0);
  return {
    check: () => {
      tally.update();
      return found(tally, need, (events) => renderInspectEvents(ws, events));
    },
    unmet: () => ({
      summary: `${newest().filter((e) => differs(e).length === 0).length} of ${need} event(s) matched`,
      nearest: nearestOf(newest(), differs, (e) => [e.id, `${e.type} for ${e.data.onboarding_id} at ${e.created_at}`]),
    }),
  };
}

function deliveryCondition(ws: Workspace, q: WaitQuery, need: number): Condition {
  checkType(q.event_type, 'event_type');
  const status = oneOf(q.status, DELIVERY_STATUSES, 'status', 'a delivery status');
  const urlOf = (d: DeliveryRecord) => ws.store.webhooks.get(d.endpoint_id)?.url ?? '';
  const addressMatches = matcherFor(q.address, 'address');
  const typeMatches = matcherFor(q.event_type, 'event_type');
  const differs = (d: DeliveryRecord) => {
    const out: string[] = [];
    if (addressMatches && q.address !== d.endpoint_id && !addressMatches(urlOf(d))) out.push('address');
    if (typeMatches && !typeMatches(d.event_type)) out.push('event_type');
    if (status !== undefined && d.status !== status) out.push('status');
    if (q.onboarding_id !== undefined && ws.store.events.get(d.event_id)?.data.onboarding_id !== q.onboarding_id) out.push('onboarding_id');
    if (before(d.created_at, q.since)) out.push('since');
    return out;
  };
  const newest = () => ws.store.deliveries.values().reverse();
  const tally = new RecordTally(() => ws.store.deliveries, (d) => differs(d).length === 0);
  // A match reads two records besides the delivery: its address's URL, and its event (gone once purged).
  const urls = addressMatches ? new KeyWatch(() => ws.store.webhooks, (w) => w.url) : undefined;
  const purges = q.onboarding_id !== undefined ? new DeleteWatch(() => ws.store.events) : undefined;
  return {
    check: () => {
      tally.update(urls?.changed() ?? false);
      if (purges?.deleted()) tally.recheckMatched();
      return found(tally, need, (deliveries) => deliveries.map(renderInspectDelivery));
    },
    unmet: () => ({
      summary: `${newest().filter((d) => differs(d).length === 0).length} of ${need} delivery(ies) matched`,
      nearest: nearestOf(newest(), differs, (d) => [d.id, `${d.event_type} to ${urlOf(d) || d.endpoint_id}, ${d.status} after ${d.attempts} attempt(s)`]),
    }),
  };
}

/** The request matcher of GET /_emulator/requests and verify, from the wait's query. */
function matcherOf(q: WaitQuery): RequestMatcher {
  const { for: _for, timeout_ms: _timeout, count: _count, type: _type, event_type: _eventType, address: _address, status, body_includes: bodyIncludes, ...filter } = q;
  const matcher: RequestMatcher = { ...filter };
  if (status !== undefined) {
    const code = typeof status === 'number' ? status : /^[1-5][0-9]{2}$/.test(status) ? Number(status) : NaN;
    if (!(code >= 100 && code <= 599)) throw fail('parameter_invalid', `status: a request's status is an HTTP status, 100 to 599; got ${status}.`, 'status');
    matcher.status = code;
  }
  if (typeof bodyIncludes === 'string') {
    try {
      matcher.body_includes = JSON.parse(bodyIncludes);
    } catch {
      throw fail('parameter_invalid', 'body_includes: must be JSON text, such as {"employee":{"email":"ada@example.com"}}.', 'body_includes');
    }
  } else if (bodyIncludes !== undefined) matcher.body_includes = bodyIncludes;
  return matcher;
}

function requestCondition(ws: Workspace, q: WaitQuery, need: number): Condition {
  const matcher = matcherOf(q);
  const differs = (e: JournalEntry) => differences(e, matcher);
  const newest = () => ws.requests.newestFirst();
  const tally = new RequestTally(() => ws.requests, (e, fresh) => (fresh ? matchesNew(e, matcher) : matches(e, matcher)));
  return {
    check: () => {
      tally.update();
      return found(tally, need, (entries) => entries);
    },
    unmet: () => ({
      summary: `${newest().filter((e) => differs(e).length === 0).length} of ${need} request(s) matched${ws.requests.enabled ? '' : ' (the journal is off: --journal-limit 0)'}`,
      nearest: nearestOf(newest(), differs, (e) => [e.id, `${e.method} ${e.path} answered ${e.status} at ${e.at}`]),
    }),
  };
}

function statusCondition(ws: Workspace, q: WaitQuery): Condition {
  if (q.onboarding_id === undefined) throw fail('parameter_missing', 'onboarding_id: for=status waits on one onboarding; name it.', 'onboarding_id');
  const wanted = oneOf(q.status, ONBOARDING_STATUSES, 'status', 'an onboarding status');
  if (wanted === undefined) throw fail('parameter_missing', `status: the status to reach, one of ${ONBOARDING_STATUSES.join(', ')}.`, 'status');
  const id = q.onboarding_id;
  const record = () => {
    const r = ws.store.onboardings.get(id);
    if (!r) throw fail('resource_not_found', `No onboarding with id ${id} in workspace ${ws.id}.`, 'onboarding_id');
    return r;
  };
  return {
    check: () => {
      const r = record();
      if (r.status === wanted) return { count: 1, data: [summarizeOnboarding(ws, r)] };
      if (TERMINAL_STATUSES.includes(r.status)) {
        throw fail('wait_unreachable', `${id} is ${r.status}, a final status: it will never be ${wanted}.`, 'status');
      }
      return undefined;
    },
    unmet: () => {
      const r = record();
      return { summary: `${id} is ${r.status}, not ${wanted}`, nearest: [{ path: id, message: `status ${r.status}, waiting on ${summarizeOnboarding(ws, r).waiting_on.join(', ') || 'nobody'}` }] };
    },
  };
}

function settledCondition(ws: Workspace): Condition {
  const due = () => {
    const next = ws.timers.peek();
    return next !== undefined && next.due <= ws.clock.nowMs() ? next : undefined;
  };
  return {
    check: () => (due() === undefined && ws.scheduler.running === 0 ? { count: 0, data: [] } : undefined),
    unmet: () => {
      const next = due();
      const nearest: ErrorDetail[] = [];
      if (ws.scheduler.running > 0) nearest.push({ path: 'in_flight', message: `${ws.scheduler.running} timer(s) still running (webhook attempts waiting for their receivers)` });
      if (next) {
        const { kind, due_at: dueAt } = describeTimer(next);
        nearest.push({ path: 'due', message: `${kind} due at ${dueAt}` });
      }
      return { summary: 'work was still due or running', nearest };
    },
  };
}

function conditionOf(ws: Workspace, q: WaitQuery): Condition {
  const allowed = new Set(['for', 'timeout_ms', ...WAIT_FIELDS[q.for]]);
  const stray = Object.keys(q).filter((name) => !allowed.has(name) && q[name as keyof WaitQuery] !== undefined);
  if (stray.length) {
    const takes = WAIT_FIELDS[q.for].length ? WAIT_FIELDS[q.for].join(', ') : 'no other field';
    throw fail('parameter_unknown', `${stray.join(', ')}: not read by for=${q.for}, which takes ${takes}.`, stray[0]);
  }
  const need = q.count ?? 1;
  const make: Record<WaitKind, () => Condition> = {
    event: () => eventCondition(ws, q, need),
    delivery: () => deliveryCondition(ws, q, need),
    request: () => requestCondition(ws, q, need),
    status: () => statusCondition(ws, q),
    settled: () => settledCondition(ws),
  };
  return make[q.for]();
}

export async function waitFor(emulator: ControlHost, ws: Workspace, q: WaitQuery, signal?: AbortSignal) {
  const condition = conditionOf(ws, q);
  const timeoutMs = q.timeout_ms ?? WAIT_DEFAULT_MS;
  const started = monotonicMs();
  const check = () => {
    if (emulator.workspaces().every((w) => w !== ws)) throw fail('workspace_not_found', `Workspace ${ws.id} was deleted while waiting.`, 'workspace_id');
    return condition.check();
  };
  const outcome = await emulator.waits.until(ws.id, ws.activity, check, timeoutMs, signal);
  if (outcome.met) {
    return {
      object: 'wait' as const,
      for: q.for,
      waited_ms: Math.round((monotonicMs() - started) * 10) / 10,
      clock: ws.clock.iso(),
      count: outcome.value.count,
      data: outcome.value.data,
    };
  }
  const { summary, nearest } = condition.unmet();
  const when = outcome.why === 'stopping' ? 'the emulator is stopping' : `not met within ${timeoutMs} ms`;
  const err = new ApiError('wait_timeout', `for=${q.for}: ${when}; ${summary} (workspace clock ${ws.clock.iso()}).${nearest.length ? ' The nearest are in details.' : ''}`, 'for');
  if (nearest.length) err.details = nearest;
  return Promise.reject(err);
}
