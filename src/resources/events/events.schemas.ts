import { Type, type Static } from '../../core/schema.js';
import { DateTime, Literals, PageQuery } from '../common.schemas.js';
import { EVENT_TYPES } from './events.model.js';

/** Names a client may filter on: every type, older names included, never ping. */
const LISTED_TYPES = EVENT_TYPES.filter((t) => t !== 'ping');

export const ListEventsQuery = Type.Object(
  {
    since: Type.Optional(DateTime),
    type: Type.Optional(Literals(LISTED_TYPES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ListEventsQuery = Static<typeof ListEventsQuery>;

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
