/**
 * The receiver check: a conformance run against a partner's webhook receiver. It sends real,
 * signed messages over HTTP (the dispatcher's body shape, signature and transport) and grades
 * each answer against what the spec asks of a receiver (Events → Signature and Delivery):
 * refuse what is not validly signed within 5 minutes, acknowledge repeats, unknown types,
 * older names and out-of-order events, and answer within the timeout. No Express: the control
 * route, the in-process client and the CLI all call `runReceiverCheck`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { wallClockSeconds } from '../core/clock.js';
import { fail } from '../core/errors.js';
import { CURRENT_API_VERSION } from '../core/versions.js';
import { OLDER_NAMES, type EventType } from '../resources/events/events.model.js';
import { checkAddressUrl, checkDeliveryTarget, systemResolver, type Resolver, type UrlPolicy } from './address-policy.js';
import { messageBody } from './dispatcher.js';
import {
  DEFAULT_BURST, DEFAULT_FETCH_WITHIN_MS, FETCH_METHODS, FETCH_POLL_MS, FETCHED_AFTER_EVENT, MAX_BURST, MAX_FETCH_WITHIN_MS, ONBOARDING_ID_PLACEHOLDER,
  RECEIVER_CHECKS, STALE_SECONDS, UNKNOWN_EVENT_TYPE, type CheckDefinition, type CheckName, type FollowUpCheckName,
} from './receiver-check.checks.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './settings.js';
import { signatureHeader } from './signature.js';
import { httpTransport, type Transport, type TransportResult } from './transport.js';

export interface ReceiverCheckInput {
  /** The receiver's address (http or https). */
  url: string;
  /** The secret the receiver verifies with. */
  secret: string;
  /** The receiver's previous secret, when it has one; check 7 co-signs with it. */
  previousSecret?: string;
  /** How long each answer may take; default and at most the spec's 10 seconds. */
  timeoutMs?: number;
  /** Messages in the burst (check 11); default 10, at most 50. */
  burst?: number;
  /**
   * The call the receiver makes for each new event (check 12): graded against the requests the
   * emulator saw (`settings.requests`); without them check 12 is skipped.
   */
  expectFetch?: FetchExpectation;
}

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

/** How the run reaches the receiver: the emulator's delivery settings, or the defaults (local policy, real transport). */
export interface ReceiverCheckSettings {
  transport?: Transport;
  urlPolicy?: UrlPolicy;
  resolver?: Resolver;
  /** The requests check 12 reads: an emulator's journal; none outside one. */
  requests?: RequestsSeen;
}

export type CheckGrade = 'passed' | 'failed' | 'warning' | 'skipped';

export interface CheckResult {
  id: number;
  name: CheckName | FollowUpCheckName;
  title: string;
  required: boolean;
  grade: CheckGrade;
  /** Why it got its grade, in a sentence. */
  reason: string;
  /** The status the receiver answered (the telling one when a check sends several); null when none came. */
  status: number | null;
  /** How long the answer took (the slowest, when a check sends several); null when nothing was sent. */
  ms: number | null;
}

export interface ReceiverCheckReport {
  /** False when any required check failed. */
  ok: boolean;
  url: string;
  checks: CheckResult[];
  started_at: string;
  duration_ms: number;
}

/** The largest timeout a run accepts: the spec's wait; a receiver slower than that fails in production anyway. */
export const MAX_TIMEOUT_MS = DEFAULT_WEBHOOK_TIMEOUT_MS;
export { DEFAULT_BURST, DEFAULT_FETCH_WITHIN_MS, MAX_BURST, MAX_FETCH_WITHIN_MS, RECEIVER_CHECKS } from './receiver-check.checks.js';

/**
 * Refuses an address the emulator would not deliver to (the same policy and resolver as the
 * dispatcher: docs/configuration.md, webhook URL policy) and input out of range, as
 * parameter_invalid; then runs every check in order and grades it. Never throws for what the
 * receiver does: a receiver that is down fails its checks.
 */
export async function runReceiverCheck(input: ReceiverCheckInput, settings: ReceiverCheckSettings = {}): Promise<ReceiverCheckReport> {
  const policy = settings.urlPolicy ?? 'local';
  const shape = checkAddressUrl(input.url, policy);
  if (shape) throw fail('parameter_invalid', `url: ${shape}`, 'url');
  const refused = await checkDeliveryTarget(input.url, policy, settings.resolver ?? systemResolver);
  if (refused) throw fail('parameter_invalid', `url: refused by the strict URL policy: ${refused}`, 'url');
  if (typeof input.secret !== 'string' || input.secret === '') throw fail('parameter_invalid', 'secret: must be the receiver\'s webhook secret.', 'secret');
  const timeoutMs = input.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw fail('parameter_invalid', `timeout_ms: must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}.`, 'timeout_ms');
  }
  const burst = input.burst ?? DEFAULT_BURST;
  if (!Number.isInteger(burst) || burst < 1 || burst > MAX_BURST) {
    throw fail('parameter_invalid', `burst: must be a whole number from 1 to ${MAX_BURST}.`, 'burst');
  }
  const expectFetch = input.expectFetch === undefined ? undefined : fetchExpectation(input.expectFetch);

  const startedAt = new Date();
  const started = performance.now();
  // Before anything is sent, so every call the receiver makes for this run's events is after it.
  const seenSince = expectFetch && settings.requests?.enabled ? settings.requests.start() : undefined;
  const run = new Run(input.url, input.secret, input.previousSecret, timeoutMs, settings.transport ?? httpTransport());
  const checks: CheckResult[] = [];
  for (const definition of RECEIVER_CHECKS) {
    const outcome = await PLAYS[definition.name](run, burst);
    checks.push(graded(definition, outcome));
  }
  if (expectFetch) {
    const outcome = !settings.requests
      ? skipped('no request journal to read: the receiver\'s calls are seen only when the check runs in an emulator (control API or in process)')
      : !seenSince
        ? skipped('the request journal is off (journal limit 0): the receiver\'s calls cannot be seen')
        : await fetchedAfterEvent(run, expectFetch, seenSince);
    checks.push(graded(FETCHED_AFTER_EVENT, outcome));
  }
  return {
    ok: checks.every((c) => !c.required || c.grade !== 'failed'),
    url: input.url,
    checks,
    started_at: startedAt.toISOString(),
    duration_ms: Math.round(performance.now() - started),
  };
}

/** What a check found, before the table's `required` turns an unmet optional check into a warning. */
interface Outcome {
  grade: CheckGrade;
  reason: string;
  status: number | null;
  ms: number | null;
}

function graded(definition: CheckDefinition<CheckName | FollowUpCheckName>, outcome: Outcome): CheckResult {
  const grade = outcome.grade === 'failed' && !definition.required ? 'warning' : outcome.grade;
  const reason = grade === 'warning' && outcome.grade === 'failed' ? `${outcome.reason} (optional check: a warning)` : outcome.reason;
  return { ...definition, grade, reason, status: outcome.status, ms: outcome.ms };
}

// --- Messages --------------------------------------------------------------------------------

interface Message {
  id: string;
  type: string;
  body: string;
}

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** An id shaped like the emulator's own (prefix, underscore, 20 letters and digits). */
function randomId(prefix: string): string {
  return `${prefix}_${[...randomBytes(20)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;
}

/** One run's receiver, secrets and a fictitious employer and onboarding its events are about. */
class Run {
  readonly organizationId = randomId('org');
  readonly onboardingId = randomId('onb');
  /** The message of checks 1 and 2 (the same one twice). */
  first: Message | undefined;
  /** The onboarding of check 1's event: its own, so the receiver's calls for it count apart. */
  readonly firstOnboardingId = randomId('onb');
  /** Onboardings of the new events the receiver acknowledged in checks 1 and 11: what check 12 expects calls for. */
  readonly acknowledgedNew: string[] = [];
  private counter = 0;

  constructor(
    readonly url: string,
    readonly secret: string,
    readonly previousSecret: string | undefined,
    readonly timeoutMs: number,
    private readonly transport: Transport,
  ) {}

  /**
   * A message as the emulator would send it: the event's data like events.emit.ts makes it (no
   * personal data), `ageSeconds` back in created_at.
   */
  message(type: string, options: { dataVersion?: number; ageSeconds?: number; extra?: Record<string, unknown>; onboardingId?: string } = {}): Message {
    this.counter += 1;
    const id = randomId('evt');
    const data = {
      onboarding_id: options.onboardingId ?? this.onboardingId,
      reference: `RECEIVER-CHECK-${this.counter}`,
      metadata: { source: 'receiver-check' },
      data_version: options.dataVersion ?? 1,
      ...options.extra,
    };
    const createdAt = new Date(Date.now() - (options.ageSeconds ?? 0) * 1000).toISOString();
    // The body carries any type: check 9 sends one the spec does not list.
    return { id, type, body: messageBody({ id, type: type as EventType, created_at: createdAt, organization_id: this.organizationId, data }, CURRENT_API_VERSION) };
  }

  /** The dispatcher's headers; `signature` null leaves Service-Signature out. */
  headers(message: Message, signature: string | null): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      'User-Agent': 'Service-Webhooks/1',
      'Service-Event-Id': message.id,
      'Service-Event-Type': message.type,
      ...(signature === null ? {} : { 'Service-Signature': signature }),
    };
  }

  /** Signed now with the receiver's secret unless told otherwise; `body` replaces what is sent (not what is signed). */
  send(message: Message, how: { secrets?: string[]; t?: number; signature?: string | null; body?: string } = {}): Promise<TransportResult> {
    const t = how.t ?? wallClockSeconds();
    const signature = how.signature !== undefined ? how.signature : signatureHeader(how.secrets ?? [this.secret], t, message.body);
    return this.transport.send({ url: this.url, headers: this.headers(message, signature), body: how.body ?? message.body, timeoutMs: this.timeoutMs });
  }
}

// --- Grading ---------------------------------------------------------------------------------

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300;
const is4xx = (status: number | null) => status !== null && status >= 400 && status < 500;
const answered = (r: TransportResult) => (r.status === null ? r.error ?? 'no answer' : r.error ?? `HTTP ${r.status}`);

/** A message the receiver must acknowledge. */
function expectAccepted(r: TransportResult, what: string, timeoutMs: number): Outcome {
  if (r.ok) return { grade: 'passed', reason: `${what}: acknowledged with ${r.status}`, status: r.status, ms: r.durationMs };
  const why = r.status === null && r.error?.startsWith('timed out') ? `no answer within ${timeoutMs} ms` : answered(r);
  return { grade: 'failed', reason: `${what}: not acknowledged (${why}); the service would retry it`, status: r.status, ms: r.durationMs };
}

/** A message the receiver must refuse with 4xx; 2xx fails, any other refusal is a warning. */
function expectRefused(r: TransportResult, what: string): Outcome {
  if (is4xx(r.status)) return { grade: 'passed', reason: `${what}: refused with ${r.status}`, status: r.status, ms: r.durationMs };
  if (is2xx(r.status)) return { grade: 'failed', reason: `${what}: accepted with ${r.status}; it must be refused (4xx)`, status: r.status, ms: r.durationMs };
  return {
    grade: 'warning',
    reason: `${what}: not accepted, but answered ${answered(r)} instead of 4xx; the service would retry it for days`,
    status: r.status,
    ms: r.durationMs,
  };
}

/** The first that did not pass, else the last: what a check of several messages reports. */
function worst(outcomes: Outcome[]): Outcome {
  const rank: Record<CheckGrade, number> = { failed: 3, warning: 2, skipped: 1, passed: 0 };
  const chosen = outcomes.reduce((a, b) => (rank[b.grade] > rank[a.grade] ? b : a));
  const ms = Math.max(...outcomes.map((o) => o.ms ?? 0));
  return chosen.grade === 'passed' ? { ...outcomes[outcomes.length - 1]!, reason: outcomes.map((o) => o.reason).join('; '), ms } : { ...chosen, ms };
}

/** Changes a v1 value's last hex digit: the header stays well formed, the HMAC no longer matches. */
function altered(header: string): string {
  return header.replace(/(v1=[0-9a-f]*)([0-9a-f])(?=,|$)/, (_m, head: string, last: string) => `${head}${last === '0' ? '1' : '0'}`);
}

// --- The checks ------------------------------------------------------------------------------

type Play = (run: Run, burst: number) => Promise<Outcome>;

const PLAYS: Record<CheckName, Play> = {
  async valid_message(run) {
    const m = (run.first = run.message('onboarding.created', { onboardingId: run.firstOnboardingId }));
    const r = await run.send(m);
    if (r.ok) run.acknowledgedNew.push(run.firstOnboardingId);
    return expectAccepted(r, 'onboarding.created', run.timeoutMs);
  },
  async repeated_message(run) {
    const m = run.first ?? run.message('onboarding.created', { onboardingId: run.firstOnboardingId });
    // A second later, so the new signature differs from the first even on a fast run.
    return expectAccepted(await run.send(m, { t: wallClockSeconds() + 1 }), `the same ${m.id} again`, run.timeoutMs);
  },
  async bad_signature(run) {
    const m = run.message('onboarding.started');
    return expectRefused(await run.send(m, { signature: altered(signatureHeader([run.secret], wallClockSeconds(), m.body)) }), 'v1 altered');
  },
  async missing_signature(run) {
    return expectRefused(await run.send(run.message('onboarding.started'), { signature: null }), 'no Service-Signature header');
  },
  async stale_timestamp(run) {
    const m = run.message('onboarding.started', { ageSeconds: STALE_SECONDS });
    return expectRefused(await run.send(m, { t: wallClockSeconds() - STALE_SECONDS }), `signed ${STALE_SECONDS / 60} minutes ago`);
  },
  async body_changed(run) {
    const m = run.message('onboarding.approval_given', { dataVersion: 2, extra: { role: 'manager' } });
    const changed = m.body.replace('"role":"manager"', '"role":"owner"');
    return expectRefused(await run.send(m, { body: changed }), 'body changed after signing');
  },
  async rotation(run) {
    const other = run.previousSecret ?? randomId('whsec');
    const fresh = randomId('whsec');
    // As the service signs while the old secret still co-signs: the receiver's secret first.
    const both = await run.send(run.message('onboarding.approved', { dataVersion: 2 }), { secrets: [run.secret, other] });
    // A rotation the receiver has not taken on yet: its secret is the second, old, value.
    const second = await run.send(run.message('onboarding.approved', { dataVersion: 2 }), { secrets: [fresh, run.secret] });
    return worst([
      expectAccepted(both, run.previousSecret ? 'v1 of the secret, then of the previous secret' : 'v1 of the secret, then of another secret', run.timeoutMs),
      expectAccepted(second, 'v1 of a newer secret, then of the secret', run.timeoutMs),
    ]);
  },
  async out_of_order(run) {
    const onboardingId = randomId('onb');
    const newer = run.message('contract.sent', { dataVersion: 3, onboardingId });
    const older = run.message('onboarding.approved', { dataVersion: 2, ageSeconds: 60, onboardingId });
    const first = await run.send(newer);
    const then = await run.send(older);
    return worst([
      expectAccepted(first, 'the newer contract.sent (data_version 3)', run.timeoutMs),
      expectAccepted(then, 'the older onboarding.approved (data_version 2) after it', run.timeoutMs),
    ]);
  },
  async unknown_event_type(run) {
    return expectAccepted(await run.send(run.message(UNKNOWN_EVENT_TYPE)), UNKNOWN_EVENT_TYPE, run.timeoutMs);
  },
  async older_event_name(run) {
    const older = Object.values(OLDER_NAMES)[0];
    if (!older) return { grade: 'skipped', reason: 'the spec names no older event names', status: null, ms: null };
    return expectAccepted(await run.send(run.message(older)), `${older} (an older name)`, run.timeoutMs);
  },
  async burst(run, burst) {
    const messages = Array.from({ length: burst }, (_, i) =>
      run.message('onboarding.invitation_sent', { onboardingId: randomId('onb'), extra: { kind: i % 2 === 0 ? 'invitation' : 'reminder' } }),
    );
    const results = await Promise.all(messages.map((m) => run.send(m)));
    results.forEach((r, i) => {
      if (r.ok) run.acknowledgedNew.push((JSON.parse(messages[i]!.body) as { data: { onboarding_id: string } }).data.onboarding_id);
    });
    const late = results.filter((r) => !r.ok);
    const ms = Math.max(...results.map((r) => r.durationMs));
    if (late.length === 0) return { grade: 'passed', reason: `all ${burst} acknowledged with 2xx, the slowest in ${ms} ms`, status: results[0]!.status, ms };
    const first = late[0]!;
    const why = first.status === null && first.error?.startsWith('timed out') ? `no answer within ${run.timeoutMs} ms` : answered(first);
    return { grade: 'failed', reason: `${late.length} of ${burst} not acknowledged (first: ${why})`, status: first.status, ms };
  },
};

// --- The follow-up check (12) ----------------------------------------------------------------

interface ResolvedFetch {
  method: string;
  path: string;
  withinMs: number;
}

/** `expect_fetch` checked and with its defaults, or parameter_invalid. */
function fetchExpectation(e: FetchExpectation): ResolvedFetch {
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

const skipped = (reason: string): Outcome => ({ grade: 'skipped', reason, status: null, ms: null });

/** At most this many ids named per list in a reason; the rest are counted. */
const NAMED_IDS = 10;
const named = (ids: string[]) => (ids.length <= NAMED_IDS ? ids.join(', ') : `${ids.slice(0, NAMED_IDS).join(', ')} and ${ids.length - NAMED_IDS} more`);

/**
 * Check 12: for each new event the receiver acknowledged (check 1's, each of the burst's), exactly
 * one matching call since the run started, the repeat of check 2 adding none. Waits up to
 * `withinMs` after the burst, reading every FETCH_POLL_MS, until each expected onboarding was
 * called; any status counts (the ids are fictitious: a 404 still proves the call).
 */
async function fetchedAfterEvent(run: Run, expect: ResolvedFetch, seen: () => readonly SeenRequest[]): Promise<Outcome> {
  const ids = run.acknowledgedNew;
  const call = `${expect.method} ${expect.path}`;
  if (ids.length === 0) return skipped(`no new event was acknowledged (checks 1 and 11), so no ${call} was due`);
  const wanted = new Map(ids.map((id) => [expect.path.split(ONBOARDING_ID_PLACEHOLDER).join(id), id]));
  const began = performance.now();
  const deadline = began + expect.withinMs;
  let counts = new Map<string, number>();
  for (;;) {
    counts = new Map(ids.map((id) => [id, 0]));
    for (const r of seen()) {
      const id = r.method.toUpperCase() === expect.method ? wanted.get(r.path) : undefined;
      if (id !== undefined) counts.set(id, counts.get(id)! + 1);
    }
    if ([...counts.values()].every((n) => n > 0) || performance.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(FETCH_POLL_MS, Math.max(1, deadline - performance.now()))));
  }
  const ms = Math.round(performance.now() - began);
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
