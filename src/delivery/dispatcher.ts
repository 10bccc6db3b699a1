import { wallClockSeconds } from '../core/clock.js';
import type { Facts } from '../core/scheduler.js';
import { nextSequence } from '../core/store.js';
import type { Timer } from '../core/timers.js';
import type { Workspace } from '../core/workspace.js';
import type { EventRecord } from '../resources/events/events.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../resources/webhooks/webhooks.model.js';
import { checkDeliveryTarget } from './address-policy.js';
import { AUTO_DISABLE_AFTER, retryDelayMs } from './schedule.js';
import { deliverySettings, type DeliverySettings } from './settings.js';
import { signatureHeader } from './signature.js';

/**
 * The webhook dispatcher: every event becomes one delivery per subscribed address, each
 * attempt a timer on the workspace clock, each outcome recorded on the delivery. No Express;
 * the HTTP sending is the transport's.
 */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** For workspaces made without the emulator (unit tests): the real transport, local policy. */
const FALLBACK_SETTINGS = deliverySettings();

const settingsOf = (ws: Workspace): DeliverySettings => ws.delivery ?? FALLBACK_SETTINGS;

/** The message body (spec: Events, Message) with the address's api_version. */
export function messageBody(event: Pick<EventRecord, 'id' | 'type' | 'created_at' | 'organization_id'> & { data: object }, apiVersion: string): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    organization_id: event.organization_id,
    api_version: apiVersion,
    data: event.data,
  });
}

/**
 * Which addresses an event goes to: the employer's own, and the addresses of the partner whose
 * key made the onboarding while the employer admits it with onboardings:read; same environment,
 * enabled, subscribed to the type (no filter means every type, older names included).
 */
export function subscribers(ws: Workspace, event: EventRecord): WebhookEndpointRecord[] {
  const owners = new Set([event.organization_id]);
  if (event.partner_id) {
    const partner = ws.store.organizations.get(event.partner_id);
    const admission = partner?.admitted_by.find((a) => a.organization_id === event.organization_id);
    if (admission?.active && admission.scopes.includes('onboardings:read')) owners.add(event.partner_id);
  }
  return ws.store.webhooks
    .values()
    .filter((w) => owners.has(w.organization_id) && w.environment === event.environment && w.status === 'enabled' && (w.events.length === 0 || w.events.includes(event.type)));
}

/** Called by the one event emitter for every event made. */
export function dispatchEvent(ws: Workspace, event: EventRecord): DeliveryRecord[] {
  return subscribers(ws, event).map((endpoint) => enqueue(ws, endpoint, event.id, event.type, messageBody(event, endpoint.api_version)));
}

/** One delivery, its first attempt due now and its removal due after 30 days. */
export function enqueue(ws: Workspace, endpoint: WebhookEndpointRecord, eventId: string, eventType: string, body: string): DeliveryRecord {
  const now = ws.clock.nowMs();
  const id = ws.ids.id('whd');
  const timer = ws.scheduler.schedule('webhook.attempt', now, { delivery_id: id });
  ws.scheduler.schedule('webhook.delivery_purge', now + DELIVERY_RETENTION_MS, { delivery_id: id });
  return ws.store.deliveries.put({
    id,
    seq: nextSequence(ws.store),
    endpoint_id: endpoint.id,
    event_id: eventId,
    event_type: eventType,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    created_at: new Date(now).toISOString(),
    delivered_at: null,
    next_attempt_at: new Date(now).toISOString(),
    body,
    timer_seq: timer.seq,
  });
}

/** Timer 'webhook.attempt': one scheduled attempt, then success, a retry, or dead. */
export async function attemptTimer(ws: Workspace, timer: Timer): Promise<Facts> {
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
  const done = await attempt(ws, endpoint, delivery, timer);
  return { delivery_id: done.id, status: done.status, status_code: done.last_status_code };
}

/**
 * One HTTP attempt and its bookkeeping. Scheduled attempts (`timer`: the timer that fired) move
 * through the retry schedule; a manual retry (null) is an extra attempt that can only end the
 * delivery well.
 */
export async function attempt(ws: Workspace, endpoint: WebhookEndpointRecord, delivery: DeliveryRecord, timer: Timer | null): Promise<DeliveryRecord> {
  const scheduled = timer !== null;
  const settings = settingsOf(ws);
  const startedAt = ws.clock.nowMs();
  // Attempts due together start in queue order but end in the receivers' order; the retry's
  // place in the queue is taken now, so retries due at one instant run in a repeatable order.
  const retrySeq = scheduled ? ws.timers.reserve() : undefined;
  const resume = { status: delivery.status, timer_seq: delivery.timer_seq, timer: timer && { seq: timer.seq, due: timer.due } };
  ws.store.deliveries.put({ ...delivery, status: 'in_progress', attempts: delivery.attempts + 1, timer_seq: scheduled ? null : delivery.timer_seq, resume });
  const refused = await checkDeliveryTarget(endpoint.url, settings.urlPolicy, settings.resolver);
  const result = refused
    ? { ok: false, status: null, error: `refused by the strict URL policy: ${refused}` }
    : await settings.limit(() =>
        settings.transport.send({ url: endpoint.url, headers: headersFor(ws, endpoint, delivery), body: delivery.body, timeoutMs: settings.timeoutMs }),
      );
  const { resume: _done, ...current } = ws.store.deliveries.get(delivery.id)!;
  const outcome = { last_status_code: result.status, last_error: result.ok ? null : result.error ?? 'failed' };
  const logged = (next: string | null) => ({
    ...outcome,
    attempt_log: [...(current.attempt_log ?? []), { at: new Date(startedAt).toISOString(), status_code: outcome.last_status_code, error: outcome.last_error, manual: !scheduled, next_attempt_at: next }],
  });
  if (result.ok) {
    if (current.timer_seq !== null) ws.timers.cancel(current.timer_seq);
    resetDeadCount(ws, endpoint.id);
    return ws.store.deliveries.put({ ...current, ...logged(null), status: 'succeeded', delivered_at: ws.now(), next_attempt_at: null, timer_seq: null });
  }
  if (!scheduled) {
    // A failed manual retry leaves the schedule as it was.
    return ws.store.deliveries.put({ ...current, ...logged(current.next_attempt_at), status: delivery.status === 'in_progress' ? 'failed' : delivery.status });
  }
  const delay = retryDelayMs(current.attempts);
  if (delay === null) return giveUp(ws, { ...current, ...logged(null) }, outcome.last_error);
  const due = startedAt + delay;
  const retry = ws.scheduler.schedule('webhook.attempt', due, { delivery_id: delivery.id }, retrySeq);
  return ws.store.deliveries.put({ ...current, ...logged(new Date(due).toISOString()), status: 'failed', next_attempt_at: new Date(due).toISOString(), timer_seq: retry.seq });
}

function headersFor(ws: Workspace, endpoint: WebhookEndpointRecord, delivery: DeliveryRecord): Record<string, string> {
  const t = settingsOf(ws).signatureClock === 'emulated' ? Math.floor(ws.clock.nowMs() / 1000) : wallClockSeconds();
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Service-Webhooks/1',
    'Service-Event-Id': delivery.event_id,
    'Service-Event-Type': delivery.event_type,
    'Service-Signature': signatureHeader(signingSecrets(ws, endpoint), t, delivery.body),
  };
}

/** The current secret, then the previous one while its overlap lasts. */
export function signingSecrets(ws: Workspace, endpoint: WebhookEndpointRecord): string[] {
  const previousValid = endpoint.previous_secret && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > ws.clock.nowMs();
  return previousValid ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/** Dead: counted against the address; ten in a row disable it. */
function giveUp(ws: Workspace, delivery: DeliveryRecord, reason: string | null): DeliveryRecord {
  if (delivery.timer_seq !== null) ws.timers.cancel(delivery.timer_seq);
  const dead = ws.store.deliveries.put({ ...delivery, status: 'dead', last_error: reason, next_attempt_at: null, timer_seq: null });
  const endpoint = ws.store.webhooks.get(delivery.endpoint_id);
  if (endpoint && endpoint.status === 'enabled') {
    const count = endpoint.dead_in_a_row + 1;
    ws.store.webhooks.put({ ...endpoint, dead_in_a_row: count });
    if (count >= AUTO_DISABLE_AFTER) disableEndpoint(ws, endpoint.id, `the address was disabled after ${AUTO_DISABLE_AFTER} dead deliveries in a row`);
  }
  return dead;
}

function resetDeadCount(ws: Workspace, endpointId: string): void {
  const endpoint = ws.store.webhooks.get(endpointId);
  if (endpoint && endpoint.dead_in_a_row !== 0) ws.store.webhooks.put({ ...endpoint, dead_in_a_row: 0 });
}

/** Stops an address: its waiting deliveries end dead with the reason (their retries are cancelled). */
export function disableEndpoint(ws: Workspace, endpointId: string, reason: string): void {
  const endpoint = ws.store.webhooks.get(endpointId);
  if (endpoint) ws.store.webhooks.put({ ...endpoint, status: 'disabled' });
  stopPending(ws, endpointId, reason);
}

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

/** Timer 'webhook.secret_expire': the previous secret stops co-signing. */
export function expireSecret(ws: Workspace, timer: Timer): void {
  const endpoint = ws.store.webhooks.get(String(timer.payload.webhook_id));
  if (endpoint && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) <= ws.clock.nowMs()) {
    ws.store.webhooks.put({ ...endpoint, previous_secret: null, previous_secret_expires_at: null });
  }
}
