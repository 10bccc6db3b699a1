import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { mapPage, paginate } from '../../core/pagination.js';
import { Type, type Static } from '../../core/schema.js';
import type { Workspace } from '../../core/workspace.js';
import { DateTime, ErrorSchema, ListOf, Literals, PageQuery } from '../common.schemas.js';
import { defineRoute, ok, type ApiRoute } from '../route.js';
import { EVENT_TYPES } from './events.model.js';
import { renderEvent } from './events.view.js';

/** Names a client may filter on: every type, older names included, never ping. */
const LISTED_TYPES = EVENT_TYPES.filter((t) => t !== 'ping');

const ListEventsQuery = Type.Object(
  {
    since: Type.Optional(DateTime),
    type: Type.Optional(Literals(LISTED_TYPES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);
type ListEventsQuery = Static<typeof ListEventsQuery>;

export const EventSchema = Type.Object(
  {
    id: Type.String({ pattern: '^evt_' }),
    object: Type.Literal('event'),
    type: Literals(EVENT_TYPES),
    api_version: Type.String(),
    created_at: DateTime,
    organization_id: Type.String(),
    data: Type.Object({
      onboarding_id: Type.String(),
      reference: Type.Union([Type.String(), Type.Null()]),
      metadata: Type.Object({}),
      data_version: Type.Union([Type.Integer(), Type.Null()]),
    }),
  },
  { title: 'Event' },
);

/**
 * The same events as the webhooks, oldest first. A partner reads the events of onboardings
 * created through its keys (the employer must still admit it: checked before this runs).
 */
function listEvents(ws: Workspace, p: Principal, q: ListEventsQuery) {
  const visible = ws.store.events
    .values()
    .filter((e) => e.type !== 'ping' && visibleTo(e, p));
  const since = q.since === undefined || q.starting_after !== undefined ? undefined : Date.parse(q.since);
  const page = paginate(visible, (e) => e.id, q, {
    defaultLimit: 50,
    filter: (e) => (q.type === undefined || e.type === q.type) && (since === undefined || Date.parse(e.created_at) >= since),
  });
  return mapPage(page, (e) => renderEvent(e, p.apiVersion));
}

export const eventRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/events', tag: 'Events', scope: 'onboardings:read',
    operationId: 'listEvents', summary: 'Events, oldest first (kept 30 days)',
    query: ListEventsQuery,
    responses: { 200: { description: 'A page of events', schema: ListOf(EventSchema, 'Event') }, 422: { description: 'Error', schema: ErrorSchema } },
    handle: (ctx) => ok(listEvents(ctx.workspace, ctx.principal, ctx.query)),
  }),
];
