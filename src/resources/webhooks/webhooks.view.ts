import type { Workspace } from '../../core/workspace.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './webhooks.model.js';
import { recentDeliveries } from './webhooks.service.js';

/** The public JSON of webhook addresses and their deliveries (/v1, and the inspector's base). */

export function renderDelivery(d: DeliveryRecord) {
  return {
    id: d.id,
    object: 'webhook_delivery' as const,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    created_at: d.created_at,
    delivered_at: d.delivered_at,
    next_attempt_at: d.next_attempt_at,
  };
}

/** The secret only in the answers of creation and rotation (spec: WebhookEndpoint). */
export function renderWebhook(ws: Workspace, w: WebhookEndpointRecord, withSecret = false) {
  return {
    id: w.id,
    object: 'webhook_endpoint' as const,
    url: w.url,
    description: w.description,
    events: w.events.length ? [...w.events] : ['*'],
    status: w.status,
    api_version: w.api_version,
    previous_secret_expires_at: w.previous_secret_expires_at,
    ...(withSecret ? { secret: w.secret } : {}),
    recent_deliveries: recentDeliveries(ws, w.id).map(renderDelivery),
    created_at: w.created_at,
  };
}
