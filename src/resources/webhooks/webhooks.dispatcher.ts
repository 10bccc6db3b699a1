import { wallClockSeconds } from '../../core/clock.js';
import type { Facts } from '../../core/scheduler.js';
import { nextSequence } from '../../core/store.js';
import type { Timer } from '../../core/timers.js';
import type { TraceParent } from '../../core/tracing.js';
import type { Workspace } from '../../core/workspace.js';
import { withSent, type DeliveryRecord, type WebhookEndpointRecord } from './webhooks.model.js';
import { vetDeliveryTarget } from '../../delivery/address-policy.js';
import { isSessionUrl } from '../../delivery/relay.js';
import { loopbackHint } from '../../delivery/container.js';
import type { InjectedAttempt, InjectedFault } from '../../delivery-faults/delivery-faults.js';
import { endAttemptSpan, startAttemptSpan } from './webhooks.attempt-span.js';
import { attemptFault, bentSignature, firstAttemptDue, holdBehind, injectedMark, releaseHeld, signedAt } from './webhooks.fault-play.js';
import { retryDelayMs } from '../../delivery/schedule.js';
import { deliverySettings, type DeliverySettings } from '../../delivery/settings.js';
import { signatureHeader } from '../../delivery/signature.js';
import { messageHeaders } from './webhooks.message.js';

/**
 * The webhook dispatcher's mechanics: a delivery per address it is handed, each attempt a
 * timer on the workspace clock, each outcome recorded on the delivery. Which addresses, which
 * secrets and what outcomes mean for an address are the webhook rules'
 * (resources/webhooks/webhooks.rules.ts). No Express; the HTTP sending is the transport's.
 */
const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** For workspaces made without the emulator (unit tests): the real transport, local policy. */
const FALLBACK_SETTINGS = deliverySettings();

const settingsOf = (ws: Workspace): DeliverySettings => ws.delivery ?? FALLBACK_SETTINGS;

/**
 * What the webhook rules (resources/webhooks/webhooks.rules.ts) decide around an attempt: the
 * secrets that sign it, and what a success or a dead delivery means for its address. Passed in,
 * so the mechanics here name no rule of an address.
 */
export interface AttemptRules {
  signingSecrets(ws: Workspace, endpoint: WebhookEndpointRecord): string[];
  succeeded(ws: Workspace, endpointId: string): void;
  died(ws: Workspace, dead: DeliveryRecord): void;
}

/**
 * One delivery, its first attempt due now and its removal due after 30 days. A delivery fault
 * (src/delivery-faults) may delay or hold it, or queue a copy of it. `trace`: the span that made
 * the event (tracing on), the parent of every attempt's span.
 */
export function enqueue(ws: Workspace, endpoint: WebhookEndpointRecord, eventId: string, eventType: string, body: string, trace: TraceParent | null = null): DeliveryRecord {
  const now = ws.clock.nowMs();
  const fault = ws.deliveryFaults.take(endpoint, now);
  let delivery = queue(ws, endpoint.id, eventId, eventType, body, firstAttemptDue(now, fault), fault && injectedMark(fault), trace);
  holdBehind(ws, endpoint.id, delivery);
  if (fault?.kind === 'duplicate') {
    const copy = queue(ws, endpoint.id, eventId, eventType, body, now + fault.delay_ms!, { ...injectedMark(fault), duplicate_of: delivery.id }, trace);
    delivery = ws.store.deliveries.put({ ...delivery, injected: { ...delivery.injected!, duplicate_id: copy.id } });
  }
  return delivery;
}

function queue(ws: Workspace, endpointId: string, eventId: string, eventType: string, body: string, dueMs: number, injected: InjectedFault | undefined, trace: TraceParent | null): DeliveryRecord {
  const now = ws.clock.nowMs();
  const id = ws.ids.id('whd');
  const timer = ws.scheduler.schedule('webhook.attempt', dueMs, { delivery_id: id });
  ws.scheduler.schedule('webhook.delivery_purge', now + DELIVERY_RETENTION_MS, { delivery_id: id });
  return ws.store.deliveries.put({
    id,
    seq: nextSequence(ws.store),
    endpoint_id: endpointId,
    event_id: eventId,
    event_type: eventType,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    created_at: new Date(now).toISOString(),
    delivered_at: null,
    next_attempt_at: new Date(dueMs).toISOString(),
    body,
    timer_seq: timer.seq,
    ...(injected ? { injected } : {}),
    ...(trace ? { trace } : {}),
  });
}

/** Timer 'webhook.attempt': one scheduled attempt, then success, a retry, or dead. */
export async function attemptTimer(ws: Workspace, timer: Timer, rules: AttemptRules): Promise<Facts> {
  const delivery = ws.store.deliveries.get(String(timer.payload.delivery_id));
  if (!delivery || delivery.status === 'succeeded' || delivery.status === 'dead') return { skipped: true };
  if (delivery.status === 'in_progress') {
    // A manual retry is running: two attempts at once would miscount; try a second later.
    const later = ws.scheduler.schedule('webhook.attempt', ws.clock.nowMs() + 1_000, { delivery_id: delivery.id });
    ws.store.deliveries.put({ ...delivery, timer_seq: later.seq });
    return { delivery_id: delivery.id, deferred: true };
  }
  const endpoint = ws.store.webhooks.get(delivery.endpoint_id);
  if (!endpoint || endpoint.status === 'disabled') {
    const ended = giveUp(ws, delivery, endpoint ? 'the address is disabled' : 'the address was deleted');
    return { delivery_id: ended.id, status: ended.status };
  }
  const done = await attempt(ws, endpoint, delivery, timer, rules);
  return { delivery_id: done.id, status: done.status, status_code: done.last_status_code };
}

/**
 * One HTTP attempt and its bookkeeping. Scheduled attempts (`timer`: the timer that fired) move
 * through the retry schedule; a manual retry (null) is an extra attempt that can only end the
 * delivery well.
 */
export async function attempt(ws: Workspace, endpoint: WebhookEndpointRecord, delivery: DeliveryRecord, timer: Timer | null, rules: AttemptRules): Promise<DeliveryRecord> {
  const scheduled = timer !== null;
  const injected = attemptFault(delivery, scheduled);
  const settings = settingsOf(ws);
  const startedAt = ws.clock.nowMs();
  // Attempts due together start in queue order but end in the receivers' order; the retry's
  // place in the queue is taken now, so retries due at one instant run in a repeatable order.
  const retrySeq = scheduled ? ws.timers.reserve() : undefined;
  const resume = { status: delivery.status, timer_seq: delivery.timer_seq, timer: timer && { seq: timer.seq, due: timer.due } };
  ws.store.deliveries.put({ ...delivery, status: 'in_progress', attempts: delivery.attempts + 1, timer_seq: scheduled ? null : delivery.timer_seq, resume });
  const span = startAttemptSpan(ws, endpoint, delivery, !scheduled);
  // What went out, kept with the attempt: signed when sent, which the concurrency limit may put off.
  let sent: Record<string, string> | undefined;
  let result: { ok: boolean; status: number | null; error: string | null; durationMs?: number } = { ok: false, status: null, error: 'failed' };
  try {
    // A session address is carried by its relay alone, to the receiver its open named and checked: its placeholder host is never resolved.
    const target = isSessionUrl(endpoint.url) ? { refused: null } : await vetDeliveryTarget(endpoint.url, settings.urlPolicy, settings.resolver);
    let relayed = false;
    result = target.refused
      ? { ok: false, status: null, error: `refused by the strict URL policy: ${target.refused}` }
      : await settings.limit(() => {
          // A relay that takes this address carries the attempt; otherwise it goes out directly, to an address the policy vetted.
          const relay = settings.relays.transportFor(ws.id, endpoint.url);
          relayed = relay !== null;
          return (relay ?? settings.transport).send({
            url: endpoint.url, headers: (sent = { ...headersFor(ws, rules.signingSecrets(ws, endpoint), delivery, injected), ...span.headers() }), body: delivery.body, timeoutMs: settings.timeoutMs,
            addresses: target.addresses, quote: settings.urlPolicy === 'local',
          });
        });
    // Sent from inside a container, 127.0.0.1 was the container itself: the error says so (a relay runs where the receiver is).
    if (settings.inContainer && !relayed && !result.ok) result = { ...result, error: loopbackHint(endpoint.url, result.error) };
    if (injected?.kind === 'drop_ack' && result.ok) {
      // The receiver's acknowledgement is lost: recorded as the timeout the service would see.
      injected.received_status_code = result.status;
      result = { ok: false, status: null, error: `timed out after ${settings.timeoutMs} ms` };
    }
  } finally {
    endAttemptSpan(span, result, injected?.kind);
  }
  if (delivery.attempts === 0) releaseHeld(ws, delivery.id);
  const { resume: _done, ...current } = ws.store.deliveries.get(delivery.id)!;
  const outcome = { last_status_code: result.status, last_error: result.ok ? null : result.error ?? 'failed' };
  const exchange = sent && { headers: sent, duration_ms: result.durationMs ?? 0 };
  const logged = (next: string | null) => ({
    ...outcome,
    attempt_log: [
      ...(current.attempt_log ?? []),
      withSent({ at: new Date(startedAt).toISOString(), url: endpoint.url, status_code: outcome.last_status_code, error: outcome.last_error, manual: !scheduled, next_attempt_at: next, ...(injected ? { injected } : {}), ...(span.traceId ? { trace_id: span.traceId } : {}) }, exchange),
    ],
  });
  if (result.ok) {
    if (current.timer_seq !== null) ws.timers.cancel(current.timer_seq);
    rules.succeeded(ws, endpoint.id);
    return ws.store.deliveries.put({ ...current, ...logged(null), status: 'succeeded', delivered_at: ws.now(), next_attempt_at: null, timer_seq: null });
  }
  if (!scheduled) {
    // A failed manual retry leaves the schedule as it was.
    return ws.store.deliveries.put({ ...current, ...logged(current.next_attempt_at), status: delivery.status === 'in_progress' ? 'failed' : delivery.status });
  }
  const delay = retryDelayMs(current.attempts);
  if (delay === null) {
    const dead = giveUp(ws, { ...current, ...logged(null) }, outcome.last_error);
    rules.died(ws, dead);
    return dead;
  }
  const due = startedAt + delay;
  const retry = ws.scheduler.schedule('webhook.attempt', due, { delivery_id: delivery.id }, retrySeq);
  return ws.store.deliveries.put({ ...current, ...logged(new Date(due).toISOString()), status: 'failed', next_attempt_at: new Date(due).toISOString(), timer_seq: retry.seq });
}

function headersFor(ws: Workspace, secrets: string[], delivery: DeliveryRecord, injected: InjectedAttempt | null): Record<string, string> {
  const now = settingsOf(ws).signatureClock === 'emulated' ? Math.floor(ws.clock.nowMs() / 1000) : wallClockSeconds();
  const t = signedAt(now, injected?.kind);
  return messageHeaders(delivery.event_id, delivery.event_type, bentSignature(signatureHeader(secrets, t, delivery.body), injected?.kind));
}

/** Dead: no more attempts (what it means for the address is the rules' `died`). */
function giveUp(ws: Workspace, delivery: DeliveryRecord, reason: string | null): DeliveryRecord {
  if (delivery.timer_seq !== null) ws.timers.cancel(delivery.timer_seq);
  return ws.store.deliveries.put({ ...delivery, status: 'dead', last_error: reason, next_attempt_at: null, timer_seq: null });
}

/** An address's waiting deliveries end dead with the reason (their retries are cancelled). */
export function stopPending(ws: Workspace, endpointId: string, reason: string): void {
  for (const d of ws.store.deliveries.values()) {
    if (d.endpoint_id !== endpointId || (d.status !== 'pending' && d.status !== 'failed')) continue;
    if (d.timer_seq !== null) ws.timers.cancel(d.timer_seq);
    ws.store.deliveries.put({ ...d, status: 'dead', last_error: reason, next_attempt_at: null, timer_seq: null });
  }
}

/** Timer 'webhook.delivery_purge': deliveries stay visible 30 days. */
export function purgeDelivery(ws: Workspace, timer: Timer): void {
  ws.store.deliveries.delete(String(timer.payload.delivery_id));
}
