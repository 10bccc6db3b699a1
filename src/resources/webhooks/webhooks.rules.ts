import type { Facts } from '../../core/scheduler.js';
import type { Timer } from '../../core/timers.js';
import type { TraceParent } from '../../core/tracing.js';
import type { Workspace } from '../../core/workspace.js';
import { attemptTimer as runAttempt, enqueue, stopPending, type AttemptRules } from './webhooks.dispatcher.js';
import { messageBody } from './webhooks.message.js';
import { AUTO_DISABLE_AFTER } from '../../delivery/schedule.js';
import type { EventRecord } from '../events/events.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './webhooks.model.js';

/**
 * The rules of webhook addresses: which ones an event goes to, which secrets sign, when an
 * address is disabled, when a previous secret stops. The dispatcher (src/delivery) keeps the
 * mechanics (attempts, schedule, signature, transport, URL policy) and asks these.
 */

/**
 * Whether the partner whose key made the event's onboarding receives it: while the employer
 * admits the partner with onboardings:read.
 */
function partnerReceives(ws: Workspace, event: EventRecord): boolean {
  if (!event.partner_id) return false;
  const partner = ws.store.organizations.get(event.partner_id);
  const admission = partner?.admitted_by.find((a) => a.organization_id === event.organization_id);
  return !!admission?.active && admission.scopes.includes('onboardings:read');
}

/**
 * Which addresses an event goes to: the employer's own, and the addresses of the partner whose
 * key made the onboarding while the employer admits it with onboardings:read; same environment,
 * enabled, subscribed to the type (no filter means every type, older names included).
 */
function subscribers(ws: Workspace, event: EventRecord): WebhookEndpointRecord[] {
  const owners = new Set([event.organization_id]);
  if (partnerReceives(ws, event)) owners.add(event.partner_id!);
  return ws.store.webhooks
    .values()
    .filter((w) => owners.has(w.organization_id) && w.environment === event.environment && w.status === 'enabled' && (w.events.length === 0 || w.events.includes(event.type)));
}

/** Called by the one event emitter for every event made: one delivery per subscribed address. */
export function dispatchEvent(ws: Workspace, event: EventRecord, trace: TraceParent | null = null): DeliveryRecord[] {
  return subscribers(ws, event).map((endpoint) => enqueue(ws, endpoint, event.id, event.type, messageBody(event, endpoint.api_version), trace));
}

/** The current secret, then the previous one while its overlap lasts. */
function signingSecrets(ws: Workspace, endpoint: WebhookEndpointRecord): string[] {
  const previousValid = endpoint.previous_secret && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > ws.clock.nowMs();
  return previousValid ? [endpoint.secret, endpoint.previous_secret!] : [endpoint.secret];
}

/** A delivery that succeeds ends the address's run of dead ones. */
function resetDeadCount(ws: Workspace, endpointId: string): void {
  const endpoint = ws.store.webhooks.get(endpointId);
  if (endpoint && endpoint.dead_in_a_row !== 0) ws.store.webhooks.put({ ...endpoint, dead_in_a_row: 0 });
}

/** A dead delivery counts against an enabled address; AUTO_DISABLE_AFTER in a row disable it. */
function countDead(ws: Workspace, dead: DeliveryRecord): void {
  const endpoint = ws.store.webhooks.get(dead.endpoint_id);
  if (endpoint && endpoint.status === 'enabled') {
    const count = endpoint.dead_in_a_row + 1;
    ws.store.webhooks.put({ ...endpoint, dead_in_a_row: count });
    if (count >= AUTO_DISABLE_AFTER) disableEndpoint(ws, endpoint.id, `the address was disabled after ${AUTO_DISABLE_AFTER} dead deliveries in a row`);
  }
}

/** Stops an address: its waiting deliveries end dead with the reason (their retries are cancelled). */
function disableEndpoint(ws: Workspace, endpointId: string, reason: string): void {
  const endpoint = ws.store.webhooks.get(endpointId);
  if (endpoint) ws.store.webhooks.put({ ...endpoint, status: 'disabled' });
  stopPending(ws, endpointId, reason);
}

/** What every attempt, scheduled or manual, asks of these rules. */
export const ATTEMPT_RULES: AttemptRules = { signingSecrets, succeeded: resetDeadCount, died: countDead };

/** Timer 'webhook.attempt': one scheduled attempt under these rules. */
export const attemptTimer = (ws: Workspace, timer: Timer): Promise<Facts> => runAttempt(ws, timer, ATTEMPT_RULES);

/** Timer 'webhook.secret_expire': the previous secret stops co-signing. */
export function expireSecret(ws: Workspace, timer: Timer): void {
  const endpoint = ws.store.webhooks.get(String(timer.payload.webhook_id));
  if (endpoint && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) <= ws.clock.nowMs()) {
    ws.store.webhooks.put({ ...endpoint, previous_secret: null, previous_secret_expires_at: null });
  }
}
