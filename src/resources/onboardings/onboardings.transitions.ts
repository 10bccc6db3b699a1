import { fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import { emitEvents } from '../events/events.emit.js';
import type { EventFacts } from '../events/events.schemas.js';
import { decide, type Trigger } from './onboardings.machine.js';
import type { OnboardingRecord, OnboardingStatus } from './onboardings.model.js';

/**
 * Applies one trigger of the state machine: decides, stores the new record and emits the
 * transition's events, in that order and nowhere else. `change` builds the new record from the
 * old one (null on creation) and the decided status.
 */
export function transition(
  ws: Workspace,
  current: OnboardingRecord | null,
  trigger: Trigger,
  change: (to: OnboardingStatus) => OnboardingRecord,
  facts: EventFacts = {},
): OnboardingRecord {
  const decision = decide(current?.status ?? null, trigger);
  if (!decision.ok) throw fail(decision.code, decision.message);
  const next: OnboardingRecord = { ...change(decision.to), status: decision.to, updated_at: ws.now() };
  ws.store.onboardings.put(next);
  emitEvents(ws, next, decision.events, facts);
  ws.hooks.afterTransition?.(ws, next);
  return next;
}
