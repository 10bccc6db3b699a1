import { nextSequence } from '../../core/store.js';
import type { Timer } from '../../core/timers.js';
import { tracer, type TraceParent } from '../../core/tracing.js';
import type { Workspace } from '../../core/workspace.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { dispatchEvent } from '../webhooks/webhooks.rules.js';
import { EVENT_RETENTION_MS, OLDER_NAMES, type EventRecord, type EventType } from './events.model.js';
import { eventData, type EventFacts } from './events.schemas.js';

/**
 * The one place events are made. Called only by the onboarding transition applier, so every
 * event comes from a transition of the state machine. An older name follows its current name
 * as an event of its own, with its own id. Data holds no personal data.
 */
export function emitEvents(ws: Workspace, r: OnboardingRecord, types: readonly EventType[], facts: EventFacts = {}): EventRecord[] {
  const made: EventRecord[] = [];
  // The span running now (an API call, a clock advance, a scenario step) is what made these
  // events: their deliveries keep it, since their attempts run later, from the timer queue.
  const trace = tracer().current();
  for (const type of types) {
    made.push(makeEvent(ws, r, type, facts, trace));
    const older = OLDER_NAMES[type];
    if (older) made.push(makeEvent(ws, r, older, facts, trace));
  }
  return made;
}

function makeEvent(ws: Workspace, r: OnboardingRecord, type: EventType, facts: EventFacts, trace: TraceParent | null): EventRecord {
  const data = eventData({ onboarding_id: r.id, reference: r.reference, metadata: r.creation_metadata ?? r.metadata, data_version: r.data_version }, type, facts);
  const event: EventRecord = {
    id: ws.ids.id('evt'),
    seq: nextSequence(ws.store),
    type,
    created_at: ws.now(),
    environment: r.environment,
    organization_id: r.organization_id,
    partner_id: r.partner_id,
    data,
  };
  ws.store.events.put(event);
  ws.scheduler.schedule('event.purge', ws.clock.nowMs() + EVENT_RETENTION_MS, { event_id: event.id });
  dispatchEvent(ws, event, trace);
  return event;
}

/** Timer 'event.purge': events are kept 30 days on the workspace clock. */
export function purgeEvent(ws: Workspace, timer: Timer): void {
  ws.store.events.delete(String(timer.payload.event_id));
}
