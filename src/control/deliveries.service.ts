import type { Workspace } from '../core/workspace.js';
import type { JsonFile } from '../resources/route.js';
import type { DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import { attemptEntry } from './deliveries.har.js';
import { DELIVERIES_LIMIT, type DeliveriesQuery } from './deliveries.schemas.js';
import { harFile } from './har.document.js';
import type { Har, HarEntry } from './har.schemas.js';
import { renderInspectDelivery } from './inspect.service.js';

/** The deliveries the filters keep, oldest first (the store's order). */
function matching(ws: Workspace, q: DeliveriesQuery): DeliveryRecord[] {
  return ws.store.deliveries.values().filter((d) => (q.endpoint_id === undefined || d.endpoint_id === q.endpoint_id) && (q.event_type === undefined || d.event_type === q.event_type));
}

/** Every address's deliveries, newest first, each with its attempts. */
export function listWorkspaceDeliveries(ws: Workspace, q: DeliveriesQuery) {
  const since = q.since === undefined ? undefined : Date.parse(q.since);
  const all = matching(ws, q).filter((d) => since === undefined || Date.parse(d.created_at) >= since);
  return { data: all.reverse().slice(0, q.limit ?? DELIVERIES_LIMIT).map(renderInspectDelivery), total: all.length };
}

/** Every attempt of the matching deliveries as a HAR entry, oldest first; `limit` keeps the latest. */
export function harDeliveries(ws: Workspace, q: DeliveriesQuery): JsonFile<Har> {
  const since = q.since === undefined ? undefined : Date.parse(q.since);
  const entries: { at: number; entry: HarEntry }[] = [];
  for (const d of matching(ws, q)) {
    // A deleted address's deliveries are gone with it; the URL is the address's now.
    const url = ws.store.webhooks.get(d.endpoint_id)?.url ?? '';
    (d.attempt_log ?? []).forEach((a, i) => {
      const at = Date.parse(a.at);
      if (since === undefined || at >= since) entries.push({ at, entry: attemptEntry(d, url, a, i + 1) });
    });
  }
  // Stable: attempts at one instant keep the deliveries' order.
  entries.sort((a, b) => a.at - b.at);
  const kept = q.limit === undefined ? entries : entries.slice(-q.limit);
  return harFile(kept.map((e) => e.entry), `${kept.length} webhook attempt(s)${kept.length < entries.length ? ` of ${entries.length}` : ''}`);
}
