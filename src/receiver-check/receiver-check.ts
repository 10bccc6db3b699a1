/**
 * The receiver check: a conformance run against a partner's webhook receiver. It sends real,
 * signed messages over HTTP (the dispatcher's body shape, signature and transport) and grades
 * each answer against what the spec asks of a receiver (Events → Signature and Delivery):
 * refuse what is not validly signed within 5 minutes, acknowledge repeats, unknown types,
 * older names and out-of-order events, and answer within the timeout. No Express: the control
 * route, the in-process client and the CLI all call `runReceiverCheck`.
 */
import { monotonicMs, wallClockMs } from '../core/clock.js';
import { fail } from '../core/errors.js';
import { checkAddressUrl, systemResolver, vetDeliveryTarget, type Resolver, type UrlPolicy } from '../delivery/address-policy.js';
import { FETCHED_AFTER_EVENT, DEFAULT_BURST, MAX_BURST, RECEIVER_CHECKS, type CheckDefinition, type CheckGrade, type CheckName, type FollowUpCheckName } from './receiver-check.checks.js';
import { fetchedAfterEvent, fetchExpectation, type FetchExpectation, type RequestsSeen } from './receiver-check.fetch.js';
import { PLAYS } from './receiver-check.plays.js';
import { Run, skipped, type Outcome } from './receiver-check.run.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from '../delivery/settings.js';
import { httpTransport, type Transport } from '../delivery/transport.js';

export type {  RequestsSeen,  } from './receiver-check.fetch.js';
export type { CheckGrade } from './receiver-check.checks.js';

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

/** How the run reaches the receiver: the emulator's delivery settings, or the defaults (local policy, real transport). */
export interface ReceiverCheckSettings {
  transport?: Transport;
  urlPolicy?: UrlPolicy;
  resolver?: Resolver;
  /** The requests check 12 reads: an emulator's journal; none outside one. */
  requests?: RequestsSeen;
  /** Aborted when whoever asked for the run is gone: no further check is started. */
  signal?: AbortSignal | undefined;
}

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
export { DEFAULT_BURST,  MAX_BURST,   } from './receiver-check.checks.js';

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
  const target = await vetDeliveryTarget(input.url, policy, settings.resolver ?? systemResolver);
  if (target.refused) throw fail('parameter_invalid', `url: refused by the strict URL policy: ${target.refused}`, 'url');
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

  const startedAt = new Date(wallClockMs());
  const started = monotonicMs();
  // Before anything is sent, so every call the receiver makes for this run's events is after it.
  const seenSince = expectFetch && settings.requests?.enabled ? settings.requests.start() : undefined;
  const run = new Run(input.url, input.secret, input.previousSecret, timeoutMs, settings.transport ?? httpTransport(), target.addresses, policy === 'local');
  const checks: CheckResult[] = [];
  for (const definition of RECEIVER_CHECKS) {
    if (settings.signal?.aborted) throw fail('request_timeout', 'The receiver check was stopped: its client closed the connection.');
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
    duration_ms: Math.round(monotonicMs() - started),
  };
}

/** An optional check that is not met is a warning: `failed` always means the run failed. */
function graded(definition: CheckDefinition<CheckName | FollowUpCheckName>, outcome: Outcome): CheckResult {
  const grade = outcome.grade === 'failed' && !definition.required ? 'warning' : outcome.grade;
  const reason = grade === 'warning' && outcome.grade === 'failed' ? `${outcome.reason} (optional check: a warning)` : outcome.reason;
  return { ...definition, grade, reason, status: outcome.status, ms: outcome.ms };
}
