import { stateMachineView } from '../onboardings/onboardings.machine.view.js';
import type { OnboardingStatus } from '../onboardings/onboardings.model.js';
import { schemaName } from './events.schemas.js';
import { EVENT_TYPES, OLDER_NAMES, type EventType } from './events.model.js';
import { sampleMessage, SAMPLE_SECRET, SAMPLE_SIGNED_AT, type SignedSample } from '../webhooks/webhooks.samples.js';

/**
 * Every event type the emulator sends, with when it is sent, its schema and a signed sample:
 * GET /_emulator/events/catalog and the OpenAPI document's webhooks. When is read off the
 * transition table (a type is emitted by the triggers that list it; an older name by those of
 * its current name), never written out by hand; ping alone comes from no transition.
 */

/** @public named by the declarations the build writes for the control client */
export interface CatalogTransition {
  trigger: string;
  from: OnboardingStatus[];
  to: OnboardingStatus | null;
  chosen_when: string | null;
}

/** @public named by the declarations the build writes for the control client */
export interface CatalogEntry {
  type: EventType;
  /** The current name this older name follows, as a message of its own. */
  older_name_of: EventType | null;
  also_sent_as: EventType | null;
  /** A webhook address may subscribe to it, and GET /v1/events lists it (all but ping). */
  subscribable: boolean;
  transitions: CatalogTransition[];
  /** The requests that send it outside the life cycle (ping alone). */
  requests: string[];
  when: string;
  schema_ref: string;
  sample: SignedSample;
}

/** Ping is no transition's: these send it, to addresses only (no event of GET /v1/events). */
const PING_REQUESTS = ['POST /v1/webhooks/{id}/test', 'POST /_emulator/trigger'];

const CURRENT_NAME = new Map(Object.entries(OLDER_NAMES).map(([current, older]) => [older, current as EventType]));

/** The schema's place in the published document. */
const messageSchemaRef = (type: EventType) => `/openapi.json#/components/schemas/${schemaName(type, 'Message')}`;

function transitionsOf(type: EventType): CatalogTransition[] {
  const name = CURRENT_NAME.get(type) ?? type;
  return stateMachineView()
    .triggers.filter((t) => t.events.includes(name))
    .map((t) => ({ trigger: t.name, from: t.from, to: t.to, chosen_when: t.chosen_when }));
}

/** One line from the entry's own facts: which triggers, from and to which statuses. */
function whenOf(type: EventType, transitions: readonly CatalogTransition[], olderOf: EventType | null): string {
  if (transitions.length === 0) return `Sent by ${PING_REQUESTS.join(' and ')}, to the addresses named; never listed by GET /v1/events.`;
  const lines = transitions.map((t) => {
    const from = t.from.length === 0 ? 'creation' : t.from.join(' or ');
    const when = t.chosen_when === null ? '' : `, when ${t.chosen_when}`;
    return `${t.trigger} (${from} → ${t.to ?? 'the same status'}${when})`;
  });
  const older = olderOf === null ? '' : ` An older name: sent right after ${olderOf}, as a message of its own with its own id.`;
  return `Sent by the transition${lines.length > 1 ? 's' : ''} ${lines.join('; ')}.${older}`;
}

export function catalogEntry(type: EventType): CatalogEntry {
  const transitions = transitionsOf(type);
  const olderOf = CURRENT_NAME.get(type) ?? null;
  return {
    type,
    older_name_of: olderOf,
    also_sent_as: OLDER_NAMES[type] ?? null,
    subscribable: type !== 'ping',
    transitions,
    requests: type === 'ping' ? [...PING_REQUESTS] : [],
    when: whenOf(type, transitions, olderOf),
    schema_ref: messageSchemaRef(type),
    sample: sampleMessage(type),
  };
}

/** The whole catalog: every type once, in the order of the spec's table. */
export function eventCatalog() {
  return {
    object: 'event_catalog' as const,
    sample_secret: SAMPLE_SECRET,
    sample_signed_at: SAMPLE_SIGNED_AT,
    data: EVENT_TYPES.map(catalogEntry),
  };
}
