import { monotonicMs } from '../core/clock.js';
import { wallDelay } from '../core/timers.js';
import { bindAnswer, fill, namesUsed } from './bind.js';
import { compareAnswer, compareValue, type Bindings, type Drift } from './compare.js';
import { isSetUp, type CorpusStep, type Flow } from './corpus.js';
import { HEADERS_BY_SHAPE, HEADERS_BY_VALUE } from './volatile.js';

/**
 * A flow replayed against a target: each request sent with the ids bound so far and the key of
 * its role, its answer held to the recording, then the events the flow's onboardings caused.
 * A step is a match, drift (each difference at its path) or could not be checked (and why):
 * never waited on for longer than its timeout.
 */
export interface ParityTarget {
  /** The base URL: `https://sandbox.example.com`, `http://127.0.0.1:4010`. */
  url: string;
  /** The key of each role a flow names (`owner`, `readonly`, ...). */
  keys: Readonly<Record<string, string>>;
}

export interface ReplayOptions {
  /**
   * Whether the target is an emulator (it answers GET /_emulator/health): a flow's set-up steps
   * on the emulator's control API (`/_emulator/...`) are replayed only there.
   */
  emulator?: boolean;
  /** How long a request may take before its step is reported unanswered (ms). */
  stepTimeoutMs?: number;
  /** How long the flow's events may take to be listed (ms). */
  eventsWaitMs?: number;
}

export type Verdict = { kind: 'match' } | { kind: 'drift'; drifts: Drift[] } | { kind: 'unchecked'; why: string };

export interface StepResult {
  /** `1 create an onboarding`, or `events`. */
  name: string;
  /** The request as sent: `POST /v1/onboardings`. */
  request: string;
  verdict: Verdict;
  ms: number;
}

export interface FlowResult {
  flow: string;
  steps: StepResult[];
}

/** The key the `invalid` role sends: one that exists nowhere, so no secret. */
const INVALID_KEY = 'hrs_test_parity_no_such_key';

export const REPLAY_DEFAULTS = { stepTimeoutMs: 10_000, eventsWaitMs: 5_000 } as const;

const KEPT_HEADERS: readonly string[] = [...HEADERS_BY_VALUE, ...HEADERS_BY_SHAPE];

interface Sent {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function send(target: ParityTarget, method: string, path: string, headers: Record<string, string>, body: unknown, role: string, timeoutMs: number): Promise<Sent> {
  const h: Record<string, string> = { ...headers };
  if (role !== 'none') h.authorization = `Bearer ${role === 'invalid' ? INVALID_KEY : target.keys[role]}`;
  if (body !== undefined && h['content-type'] === undefined) h['content-type'] = 'application/json';
  const res = await fetch(new URL(path, target.url), {
    method,
    headers: h,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = res.headers.get(name);
    if (v !== null) kept[name] = v;
  }
  let parsed: unknown = text === '' ? undefined : text;
  if (text !== '' && /json/.test(res.headers.get('content-type') ?? '')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: kept, body: parsed };
}

const unchecked = (why: string): Verdict => ({ kind: 'unchecked', why });
const verdictOf = (drifts: Drift[]): Verdict => (drifts.length ? { kind: 'drift', drifts } : { kind: 'match' });

function stepLabel(step: CorpusStep, i: number): string {
  return `${i + 1}${step.name ? ` ${step.name}` : ''}`;
}

export async function replayFlow(flow: Flow, target: ParityTarget, options: ReplayOptions = {}): Promise<FlowResult> {
  const stepTimeoutMs = options.stepTimeoutMs ?? REPLAY_DEFAULTS.stepTimeoutMs;
  const bindings: Bindings = { recorded: new Map(), replayed: new Map() };
  const results: StepResult[] = [];
  const onboardingCreated: string[] = [];
  let skippedSetUp: string | undefined;
  for (const [i, step] of flow.steps.entries()) {
    for (const [name, value] of bindAnswer(step.bind, step.response.body)) bindings.recorded.set(name, value);
    const began = monotonicMs();
    const label = stepLabel(step, i);
    const missing = [...namesUsed([step.request.path, step.request.headers, step.request.body])].filter((n) => !bindings.replayed.has(n));
    const role = step.request.key ?? 'owner';
    const shown = `${step.request.method} ${step.request.path}`;
    if (missing.length) {
      results.push({ name: label, request: shown, verdict: unchecked(`needs ${missing.map((n) => `{{${n}}}`).join(', ')}, bound by an earlier step that did not answer as recorded`), ms: 0 });
      continue;
    }
    if (isSetUp(step.request.path) && !options.emulator) {
      skippedSetUp ??= label;
      results.push({ name: label, request: shown, verdict: unchecked('a set-up step on the emulator\'s control API, which the target does not have'), ms: 0 });
      continue;
    }
    if (skippedSetUp !== undefined) {
      // What follows a set-up the target could not take may depend on it: not held to the recording.
      results.push({ name: label, request: shown, verdict: unchecked(`it follows set-up step ${skippedSetUp}, which needs an emulator`), ms: 0 });
      continue;
    }
    if (role !== 'none' && role !== 'invalid' && target.keys[role] === undefined) {
      results.push({ name: label, request: shown, verdict: unchecked(`no key for the role ${role}: pass --key ${role}=hrs_test_...`), ms: 0 });
      continue;
    }
    const path = fill(step.request.path, bindings.replayed);
    let answer: Sent;
    try {
      const abandoned = step.response.abandoned_after_ms;
      answer = await send(target, step.request.method, path, fill(step.request.headers ?? {}, bindings.replayed), fill(step.request.body, bindings.replayed), role, abandoned ?? stepTimeoutMs);
    } catch (err) {
      const e = err as Error;
      // No answer, as recorded: the connection closed, or the client stopped waiting as long as it did then.
      if (step.response.status === 0 && (e.name !== 'TimeoutError' || step.response.abandoned_after_ms !== undefined)) {
        // The connection closed without an answer, as recorded.
        results.push({ name: label, request: `${step.request.method} ${path}`, verdict: { kind: 'match' }, ms: monotonicMs() - began });
        continue;
      }
      const why = e.name === 'TimeoutError' ? `no answer within ${stepTimeoutMs / 1000} s` : `the target did not answer: ${e.message}`;
      results.push({ name: label, request: `${step.request.method} ${path}`, verdict: unchecked(why), ms: monotonicMs() - began });
      continue;
    }
    for (const [name, value] of bindAnswer(step.bind, answer.body)) bindings.replayed.set(name, value);
    const created = (answer.body as { created_at?: unknown } | undefined)?.created_at;
    if (typeof created === 'string' && path.startsWith('/v1/onboardings')) onboardingCreated.push(created);
    // A set-up step is there to put the target where the recording was: held to its status alone.
    const drifts = isSetUp(step.request.path)
      ? step.response.status === answer.status ? [] : [{ path: 'status', recorded: step.response.status, actual: answer.status, why: 'the status differs' }]
      : compareAnswer(step.response, answer, bindings);
    results.push({ name: label, request: `${step.request.method} ${path}`, verdict: verdictOf(drifts), ms: monotonicMs() - began });
  }
  if (flow.events) {
    results.push(skippedSetUp === undefined
      ? await replayEvents(flow, target, bindings, onboardingCreated, options)
      : { name: 'events', request: 'GET /v1/events', verdict: unchecked(`the flow's events follow set-up step ${skippedSetUp}, which needs an emulator`), ms: 0 });
  }
  return { flow: flow.flow, steps: results };
}

interface ListedEvent {
  id: string;
  type: string;
  data?: { onboarding_id?: string };
}

/** The events of the flow's onboardings, oldest first, waited for until as many as recorded are listed. */
async function replayEvents(flow: Flow, target: ParityTarget, bindings: Bindings, created: string[], options: ReplayOptions): Promise<StepResult> {
  const events = flow.events!;
  const began = monotonicMs();
  const unbound = events.for.filter((n) => !bindings.replayed.has(n));
  const request = 'GET /v1/events';
  if (unbound.length) return { name: 'events', request, verdict: unchecked(`the onboardings ${unbound.join(', ')} were not bound`), ms: 0 };
  const ids = new Set(events.for.map((n) => String(bindings.replayed.get(n))));
  const since = created.length ? new Date(Date.parse(created.sort()[0]!) - 1000).toISOString() : undefined;
  const timeoutMs = options.stepTimeoutMs ?? REPLAY_DEFAULTS.stepTimeoutMs;
  const deadline = monotonicMs() + (options.eventsWaitMs ?? REPLAY_DEFAULTS.eventsWaitMs);
  let listed: ListedEvent[] = [];
  try {
    for (;;) {
      listed = await listEvents(target, since, ids, timeoutMs);
      if (listed.length >= events.data.length || monotonicMs() >= deadline) break;
      await wallDelay(200);
    }
  } catch (err) {
    return { name: 'events', request, verdict: unchecked(`the events could not be listed: ${(err as Error).message}`), ms: monotonicMs() - began };
  }
  const recordedTypes = (events.data as ListedEvent[]).map((e) => e.type);
  const actualTypes = listed.map((e) => e.type);
  if (recordedTypes.join() !== actualTypes.join()) {
    const missing = recordedTypes.filter((t) => !actualTypes.includes(t));
    const extra = actualTypes.filter((t) => !recordedTypes.includes(t));
    const why = missing.length ? `missing: ${missing.join(', ')}` : extra.length ? `not recorded: ${extra.join(', ')}` : 'the same events in another order';
    return { name: 'events', request, verdict: { kind: 'drift', drifts: [{ path: 'events[*].type', recorded: recordedTypes, actual: actualTypes, why }] }, ms: monotonicMs() - began };
  }
  const drifts: Drift[] = [];
  compareValue('events', '', events.data, listed, bindings, drifts);
  return { name: 'events', request, verdict: verdictOf(drifts), ms: monotonicMs() - began };
}

const EVENT_PAGES = 50;

async function listEvents(target: ParityTarget, since: string | undefined, ids: Set<string>, timeoutMs: number): Promise<ListedEvent[]> {
  const out: ListedEvent[] = [];
  let after: string | undefined;
  for (let page = 0; page < EVENT_PAGES; page++) {
    const query = new URLSearchParams({ limit: '100' });
    if (since) query.set('since', since);
    if (after) query.set('starting_after', after);
    const answer = await send(target, 'GET', `/v1/events?${query}`, {}, undefined, 'owner', timeoutMs);
    if (answer.status !== 200) throw new Error(`GET /v1/events answered ${answer.status}`);
    const list = answer.body as { data: ListedEvent[]; has_more: boolean; next_cursor: string | null };
    out.push(...list.data.filter((e) => e.data?.onboarding_id !== undefined && ids.has(e.data.onboarding_id)));
    if (!list.has_more || !list.next_cursor) return out;
    after = list.next_cursor;
  }
  return out;
}

/** Whether the target is an emulator: it answers its health check. */
export async function isEmulator(target: ParityTarget, timeoutMs: number = REPLAY_DEFAULTS.stepTimeoutMs): Promise<boolean> {
  try {
    const res = await fetch(new URL('/_emulator/health', target.url), { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200 && res.headers.get('content-type')?.includes('json') === true;
  } catch {
    return false;
  }
}
