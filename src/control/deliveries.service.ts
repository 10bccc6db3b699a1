import type { Workspace } from '../core/workspace.js';
import type { JsonFile } from '../operations/reply.js';
import type { AttemptRecord, DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import { attemptEntry } from './deliveries.har.js';
import { DELIVERIES_LIMIT, HAR_ATTEMPTS_LIMIT, type DeliveriesQuery } from './deliveries.schemas.js';
import { harFile } from './har.document.js';
import type { Har } from './har.schemas.js';
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

/** The matching deliveries' attempts as HAR entries, oldest first: the latest `limit` (default HAR_ATTEMPTS_LIMIT). */
export function harDeliveries(ws: Workspace, q: DeliveriesQuery): JsonFile<Har> {
  const since = q.since === undefined ? undefined : Date.parse(q.since);
  const attempts: { at: number; delivery: DeliveryRecord; url: string; attempt: AttemptRecord; n: number }[] = [];
  for (const d of matching(ws, q)) {
    // Each attempt keeps the URL it was sent to; one read back from an older snapshot has the address's now, if it is still there.
    const now = ws.store.webhooks.get(d.endpoint_id)?.url ?? '';
    (d.attempt_log ?? []).forEach((a, i) => {
      const at = Date.parse(a.at);
      if (since === undefined || at >= since) attempts.push({ at, delivery: d, url: a.url ?? now, attempt: a, n: i + 1 });
    });
  }
  // Stable: attempts at one instant keep the deliveries' order.
  attempts.sort((a, b) => a.at - b.at);
  const kept = attempts.slice(-(q.limit ?? HAR_ATTEMPTS_LIMIT)).map((a) => attemptEntry(a.delivery, a.url, a.attempt, a.n));
  return harFile(kept, `${kept.length} webhook attempt(s)${kept.length < attempts.length ? ` of ${attempts.length}` : ''}`);
}
