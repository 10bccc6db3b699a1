import { mapPage, paginate } from '../../core/pagination.js';
import type { Workspace } from '../../core/workspace.js';
import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { EVENTS_PAGE_LIMIT, type ListEventsQuery } from './events.schemas.js';
import { renderEvent } from './events.view.js';

/**
 * The same events as the webhooks, oldest first. A partner reads the events of onboardings
 * created through its keys (the employer must still admit it: checked before this runs).
 */
export function listEvents(ws: Workspace, p: Principal, q: ListEventsQuery) {
  const visible = ws.store.events
    .values()
    .filter((e) => e.type !== 'ping' && visibleTo(e, p));
  const since = q.since === undefined || q.starting_after !== undefined ? undefined : Date.parse(q.since);
  const page = paginate(visible, (e) => e.id, q, {
    defaultLimit: EVENTS_PAGE_LIMIT,
    filter: (e) => (q.type === undefined || e.type === q.type) && (since === undefined || Date.parse(e.created_at) >= since),
  });
  return mapPage(page, (e) => renderEvent(e, p.apiVersion));
}
