import { DEFAULT_PAGE_LIMIT } from '../common.schemas.js';
import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import { paginate, type Page } from '../../core/pagination.js';
import { nextSequence } from '../../core/store.js';
import { tracer } from '../../core/tracing.js';
import type { IdFactory } from '../../core/ids.js';
import type { Workspace } from '../../core/workspace.js';
import { checkAddressUrl } from '../../delivery/address-policy.js';
import { attempt, enqueue, stopPending } from './webhooks.dispatcher.js';
import { messageBody, PING_DATA } from './webhooks.message.js';
import { ATTEMPT_RULES } from './webhooks.rules.js';
import { deliverySettings } from '../../delivery/settings.js';
import { EVENT_TYPES } from '../events/events.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './webhooks.model.js';
import { MAX_ADDRESSES, OVERLAP_HOURS, type CreateWebhookBody, type ListDeliveriesQuery, type RotateSecretBody } from './webhooks.schemas.js';

const HOUR_MS = 3_600_000;
/** Every event type but ping can be subscribed to (spec: POST /v1/webhooks). */
const SUBSCRIBABLE: readonly string[] = EVENT_TYPES.filter((t) => t !== 'ping');

const policyOf = (ws: Workspace) => (ws.delivery ?? deliverySettings()).urlPolicy;

/**
 * Addresses belong to the key's own organization (a partner's to the partner) and its
 * environment; a key sees only those.
 */
function owns(w: WebhookEndpointRecord, p: Principal): boolean {
  return w.organization_id === p.home.id && w.environment === p.environment;
}

export function getWebhook(ws: Workspace, p: Principal, id: string): WebhookEndpointRecord {
  const w = ws.store.webhooks.get(id);
  if (!w || !owns(w, p)) throw fail('resource_not_found', `No webhook address with id ${id}.`, 'id');
  return w;
}

export function listWebhooks(ws: Workspace, p: Principal, q: { limit?: number; starting_after?: string }): Page<WebhookEndpointRecord> {
  return paginate(ws.store.webhooks.values().filter((w) => owns(w, p)).reverse(), (w) => w.id, q, { defaultLimit: DEFAULT_PAGE_LIMIT });
}

/** `ids`: where its id and secret come from; the workspace's seeded source unless the caller must leave that alone. */
export function createWebhook(ws: Workspace, p: Principal, body: CreateWebhookBody, ids: Pick<IdFactory, 'id'> = ws.ids): WebhookEndpointRecord {
  const problem = checkAddressUrl(body.url, policyOf(ws));
  if (problem) throw fail('parameter_invalid', `url: ${problem}`, 'url');
  const events = [...new Set(body.events ?? [])];
  const unknown = events.filter((e) => !SUBSCRIBABLE.includes(e));
  if (unknown.length) {
    throw fail('events_invalid', `events: ${unknown.join(', ')} cannot be subscribed to; the names are the event types except ping.`, 'events');
  }
  if (ws.store.webhooks.values().filter((w) => owns(w, p)).length >= MAX_ADDRESSES) {
    throw fail('webhook_limit_reached', `An organization has at most ${MAX_ADDRESSES} webhook addresses.`);
  }
  return ws.store.webhooks.put({
    id: ids.id('wh'),
    seq: nextSequence(ws.store),
    environment: p.environment,
    organization_id: p.home.id,
    url: body.url,
    description: body.description ?? null,
    events,
    status: 'enabled',
    api_version: p.apiVersion,
    secret: ids.id('whsec'),
    previous_secret: null,
    previous_secret_expires_at: null,
    dead_in_a_row: 0,
    created_at: ws.now(),
  });
}

/** Deleting stops the address's pending retries; its deliveries stay in the log until purged. */
export function deleteWebhook(ws: Workspace, p: Principal, id: string) {
  const w = getWebhook(ws, p, id);
  const waiting = ws.store.deliveries.values().filter((d) => d.endpoint_id === id && (d.status === 'pending' || d.status === 'failed')).length;
  stopPending(ws, id, 'the address was deleted');
  ws.store.webhooks.delete(id);
  return { id: w.id, object: 'webhook_endpoint' as const, deleted: true as const, stopped_deliveries: waiting };
}

/** The new secret signs at once; the old one co-signs until the overlap ends (0: never). */
export function rotateSecret(ws: Workspace, p: Principal, id: string, body: RotateSecretBody): WebhookEndpointRecord {
  const w = getWebhook(ws, p, id);
  const hours = body.overlap_hours ?? OVERLAP_HOURS.default;
  const expires = ws.clock.nowMs() + hours * HOUR_MS;
  if (hours > 0) ws.scheduler.schedule('webhook.secret_expire', expires, { webhook_id: id });
  return ws.store.webhooks.put({
    ...w,
    secret: ws.ids.id('whsec'),
    previous_secret: hours > 0 ? w.secret : null,
    previous_secret_expires_at: hours > 0 ? new Date(expires).toISOString() : null,
  });
}

/** A ping along the normal route to this address alone; it is no event of GET /v1/events. */
export function sendTestPing(ws: Workspace, p: Principal, id: string): DeliveryRecord {
  const w = getWebhook(ws, p, id);
  if (w.status === 'disabled') throw fail('webhook_disabled', 'The address is disabled; re-enable it in the dashboard (POST /_emulator/webhooks/{id}/enable).');
  const event = {
    id: ws.ids.id('evt'),
    type: 'ping' as const,
    created_at: ws.now(),
    organization_id: w.organization_id,
    data: PING_DATA,
  };
  return enqueue(ws, w, event.id, event.type, messageBody(event, w.api_version), tracer().current());
}

/**
 * One ping under one event id to each of these addresses (the control API's trigger): each
 * message carries its address's organization and API version, as a test message does.
 */
export function pingAddresses(ws: Workspace, addresses: readonly WebhookEndpointRecord[]): { event_id: string; deliveries: number } {
  const id = ws.ids.id('evt');
  const created_at = ws.now();
  const trace = tracer().current();
  for (const w of addresses) {
    enqueue(ws, w, id, 'ping', messageBody({ id, type: 'ping', created_at, organization_id: w.organization_id, data: PING_DATA }, w.api_version), trace);
  }
  return { event_id: id, deliveries: addresses.length };
}

export function listDeliveries(ws: Workspace, p: Principal, id: string, q: ListDeliveriesQuery): Page<DeliveryRecord> {
  getWebhook(ws, p, id);
  return deliveriesOf(ws, id, q);
}

/** One address's deliveries, newest first, paged; whoever asks has been let through already. */
export function deliveriesOf(ws: Workspace, endpointId: string, q: ListDeliveriesQuery): Page<DeliveryRecord> {
  const mine = ws.store.deliveries.values().filter((d) => d.endpoint_id === endpointId).reverse();
  return paginate(mine, (d) => d.id, q, { defaultLimit: DEFAULT_PAGE_LIMIT, filter: (d) => q.status === undefined || d.status === q.status });
}

export function recentDeliveries(ws: Workspace, id: string, count = 10): DeliveryRecord[] {
  return ws.store.deliveries.values().filter((d) => d.endpoint_id === id).slice(-count).reverse();
}

/** Resends now with the same event id and bytes, whatever the status; answers after the attempt. */
export async function retryDelivery(ws: Workspace, p: Principal, id: string, deliveryId: string): Promise<DeliveryRecord> {
  const w = getWebhook(ws, p, id);
  const d = ws.store.deliveries.get(deliveryId);
  if (!d || d.endpoint_id !== id) throw fail('resource_not_found', `No delivery with id ${deliveryId} for this address.`, 'deliveryId');
  return resend(ws, w, d);
}

/** The manual retry itself, shared by /v1 and the control API (POST /_emulator/deliveries/{id}/retry). */
export async function resend(ws: Workspace, w: WebhookEndpointRecord, d: DeliveryRecord): Promise<DeliveryRecord> {
  if (d.status === 'in_progress') throw fail('delivery_in_progress', 'An attempt of this delivery is running; retry when it has finished.');
  if (w.status === 'disabled') throw fail('webhook_disabled', 'The address is disabled; re-enable it first.');
  return attempt(ws, w, d, null, ATTEMPT_RULES);
}

/** Control API: the dashboard re-enables a disabled address; the dead count starts again. */
export function enableWebhook(ws: Workspace, id: string): WebhookEndpointRecord {
  const w = ws.store.webhooks.get(id);
  if (!w) throw fail('resource_not_found', `No webhook address with id ${id}.`, 'id');
  return ws.store.webhooks.put({ ...w, status: 'enabled', dead_in_a_row: 0 });
}

