import { OLDER_NAMES, type EventRecord, type EventType } from '../events/events.model.js';
import { decide, TRANSITIONS, type Trigger } from './onboardings.machine.js';
import type { OnboardingRecord, OnboardingStatus } from './onboardings.model.js';

/**
 * An onboarding's history as transitions, rebuilt from its events: what the inspector shows and
 * what scenario expectations read to know when a status was reached (the record keeps no
 * history of its own).
 */

export interface TimelineEntry {
  at: string;
  trigger: Trigger | null;
  from: OnboardingStatus | null;
  to: OnboardingStatus;
  data_version: number | null;
  events: { id: string; type: EventType; data_version: number | null }[];
  detail: string | null;
}

/** A rule's events as they are stored: each current name followed by its older name. */
const stored = (types: readonly EventType[]): EventType[] => types.flatMap((t) => (OLDER_NAMES[t] ? [t, OLDER_NAMES[t]!] : [t]));

function detailOf(e: EventRecord): string | null {
  const d = e.data;
  if (d.returned_to) return `returned to the ${d.returned_to}`;
  if (d.role) return `role ${d.role}`;
  if (d.error_code) return `error ${d.error_code}`;
  if (d.kind) return `mail: ${d.kind}`;
  return null;
}

/**
 * The onboarding's transitions, rebuilt from its events in order: at each point, the rule
 * allowed in the current status whose stored events come next (the longest such run; the data
 * tells the two returns apart). Confirming the identity check makes no event; it is placed from
 * its instant, before the approvals it opened.
 */
export function timeline(r: OnboardingRecord, events: EventRecord[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let status: OnboardingStatus | null = null;
  let i = 0;
  while (i < events.length) {
    const first = events[i]!;
    let best: { trigger: Trigger; length: number } | null = null;
    for (const trigger of Object.keys(TRANSITIONS) as Trigger[]) {
      const rule = TRANSITIONS[trigger];
      if (rule.events.length === 0 || !decide(status, trigger).ok) continue;
      if (trigger === 'return_to_employee' && first.data.returned_to !== 'employee') continue;
      if (trigger === 'return_to_manager' && first.data.returned_to !== 'manager') continue;
      const run = stored(rule.events);
      const matches = run.every((t, k) => events[i + k]?.type === t && events[i + k]!.created_at === first.created_at);
      if (matches && (!best || run.length > best.length)) best = { trigger, length: run.length };
    }
    const group = events.slice(i, i + (best?.length ?? 1));
    const to: OnboardingStatus = best ? (TRANSITIONS[best.trigger].to ?? status!) : (status ?? r.status);
    entries.push({
      at: first.created_at,
      trigger: best?.trigger ?? null,
      from: status,
      to,
      data_version: first.data.data_version,
      events: group.map((e) => ({ id: e.id, type: e.type, data_version: e.data.data_version })),
      detail: group.map(detailOf).find((d) => d !== null) ?? null,
    });
    status = to;
    i += group.length;
  }
  if (r.identity_verified_at) placeIdentityCheck(entries, r.identity_verified_at, r.data_version);
  return entries;
}

function placeIdentityCheck(entries: TimelineEntry[], at: string, dataVersion: number): void {
  const t = Date.parse(at);
  // The current check belongs to the latest submission or correction; approvals follow it.
  const roundStart = entries.findLastIndex((e) => e.trigger === 'employee_submit' || e.trigger === 'manager_correct');
  let index = entries.findIndex((e, k) => k > roundStart && (e.trigger === 'approve' || e.trigger === 'approve_last') && Date.parse(e.at) >= t);
  if (index < 0) index = entries.findLastIndex((e) => Date.parse(e.at) <= t) + 1;
  const status = entries[index - 1]?.to ?? 'in_review';
  entries.splice(index, 0, { at, trigger: 'verify_identity', from: status, to: status, data_version: dataVersion, events: [], detail: 'identity check confirmed' });
}
