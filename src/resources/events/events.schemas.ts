import { Type, type Static, type TSchema } from '../../core/schema.js';
import { DateTime, Literals, MetadataSchema, Nullable, pageQuery } from '../common.schemas.js';
import { ROLES } from '../organizations/organizations.model.js';
import { EVENT_TYPES, type EventData, type EventType } from './events.model.js';

/** Names a client may filter on: every type, older names included, never ping. */
const LISTED_TYPES = EVENT_TYPES.filter((t): t is Exclude<EventType, 'ping'> => t !== 'ping');
type ListedType = (typeof LISTED_TYPES)[number];

/** Spec, GET /v1/events: 50 a page unless the client asks for another limit. */
export const EVENTS_PAGE_LIMIT = 50;

export const ListEventsQuery = Type.Object(
  {
    since: Type.Optional(DateTime),
    type: Type.Optional(Literals(LISTED_TYPES)),
    ...pageQuery(EVENTS_PAGE_LIMIT),
  },
  { additionalProperties: false },
);
export type ListEventsQuery = Static<typeof ListEventsQuery>;

/** What every event's data holds (spec: Message, data.*); no personal data. */
const common = {
  onboarding_id: Type.String({ pattern: '^onb_' }),
  reference: Nullable(Type.String()),
  metadata: MetadataSchema,
  data_version: Nullable(Type.Integer()),
};
const Connector = Nullable(Type.String({ description: 'the payroll connector; manual for entry by hand' }));

const dataWith = <P extends Record<string, TSchema>>(extra: P, title: string, description: string) =>
  Type.Object({ ...common, ...extra }, { title, description });

const EventData = Type.Object(common, { title: 'EventData' });
const InvitationData = dataWith({ kind: Literals(['invitation', 'new_link', 'reminder']) }, 'InvitationEventData', 'which mail the employee was sent');
const ReturnedData = dataWith({ returned_to: Literals(['employee', 'manager']) }, 'ReturnedEventData', 'who corrects the data');
const ApprovalData = dataWith({ role: Literals(ROLES) }, 'ApprovalEventData', 'the role the approval was given in');
const PayrollData = dataWith({ connector: Connector }, 'PayrollEventData', 'the connector that took the employee into payroll');
const PayrollFailureData = dataWith(
  { connector: Connector, error_code: Nullable(Type.String()) },
  'PayrollFailureEventData',
  'the connector that failed and its error code',
);

/**
 * The data of each event type: one table for the published schemas and the emitter, which
 * fills in the fields a type has beyond the common ones (events.emit.ts).
 */
const EVENT_DATA: Record<ListedType, TSchema> = {
  'onboarding.created': EventData,
  'onboarding.invitation_sent': InvitationData,
  'onboarding.started': EventData,
  'onboarding.employee_submitted': EventData,
  'onboarding.submitted': EventData,
  'onboarding.approval_required': EventData,
  'onboarding.returned': ReturnedData,
  'onboarding.approval_given': ApprovalData,
  'onboarding.approved': EventData,
  'onboarding.terms_changed': EventData,
  'contract.sent': EventData,
  'contract.signed_by_employee': EventData,
  'onboarding.contract_signed': EventData,
  'contract.signed': EventData,
  'integration.sync_succeeded': PayrollData,
  'payroll.completed': PayrollData,
  'integration.sync_failed': PayrollFailureData,
  'onboarding.failed': PayrollFailureData,
  'onboarding.completed': EventData,
  'onboarding.cancelled': EventData,
};

/** The schema of a type's data: the same table the emitter fills data from (the webhook messages use it too). */
export const eventDataSchema = (type: ListedType): TSchema => EVENT_DATA[type];

/** The fields of a type's data beyond the common ones (none for ping, which is no onboarding's). */
function extraDataFields(type: EventType): string[] {
  if (type === 'ping') return [];
  return Object.keys(EVENT_DATA[type].properties as object).filter((k) => !(k in common));
}

/** The facts of a transition a type's data may carry beyond the common fields. */
export type EventFacts = Pick<EventData, 'role' | 'returned_to' | 'kind' | 'connector' | 'error_code'>;
type CommonData = Pick<EventData, 'onboarding_id' | 'reference' | 'metadata' | 'data_version'>;

/**
 * An event's data: the common fields, then the fields of the type's schema beyond them, each
 * from `facts` (null when the transition did not tell it). Pure: the emitter and the published
 * samples make data through it alike.
 */
export function eventData(base: CommonData, type: EventType, facts: EventFacts = {}): EventData {
  const data: EventData = { onboarding_id: base.onboarding_id, reference: base.reference, metadata: { ...base.metadata }, data_version: base.data_version };
  for (const field of extraDataFields(type) as (keyof EventFacts)[]) Object.assign(data, { [field]: facts[field] ?? null });
  return data;
}

/** `onboarding.invitation_sent`, `Event` → `OnboardingInvitationSentEvent`: a schema's name. */
export const schemaName = (type: string, suffix: string) =>
  `${type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}${suffix}`;

const eventOf = (type: ListedType) =>
  Type.Object(
    {
      id: Type.String({ pattern: '^evt_' }),
      object: Type.Literal('event'),
      type: Type.Literal(type),
      api_version: Type.String(),
      created_at: DateTime,
      organization_id: Type.String(),
      data: EVENT_DATA[type],
    },
    { title: schemaName(type, 'Event') },
  );

/**
 * An event of GET /v1/events: one schema per type, told apart by `type` (the document adds the
 * discriminator's mapping). Ping is left out: it goes to one address and is never listed.
 */
export const EventSchema = Type.Unsafe<{
  id: string;
  object: 'event';
  type: ListedType;
  api_version: string;
  created_at: string;
  organization_id: string;
  data: Static<typeof EventData> & Record<string, unknown>;
}>({
  title: 'Event',
  oneOf: LISTED_TYPES.map(eventOf),
  discriminator: { propertyName: 'type' },
});
