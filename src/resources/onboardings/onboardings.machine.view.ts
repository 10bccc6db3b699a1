import type { ErrorCode } from '../../core/errors.js';
import type { EventType } from '../events/events.model.js';
import { MAX_CODE_ATTEMPTS } from './onboardings.lifecycle.js';
import { TRANSITIONS, type Trigger } from './onboardings.machine.js';
import { ONBOARDING_STATUSES, TERMINAL_STATUSES, type OnboardingStatus } from './onboardings.model.js';

/**
 * The life-cycle table (onboardings.machine.ts) as data and as a picture, for
 * GET /_emulator/state-machine and docs/state-machine.md. Pure: built from TRANSITIONS alone,
 * plus the guards below, which name the checks the lifecycle functions make before the table
 * decides (onboardings.lifecycle.ts, onboardings.service.ts).
 */

/** A check beyond the status: the code it refuses with and, in a few words, what must hold. */
export interface Guard {
  code: ErrorCode;
  requires: string;
}

const REVIEWING: Guard = { code: 'returned_to_manager', requires: 'the data is not back with the manager' };
const APPROVAL: readonly Guard[] = [
  REVIEWING,
  { code: 'approval_not_required', requires: 'the template asks for this role' },
  { code: 'data_version_mismatch', requires: 'data_version is the current one' },
  { code: 'identity_not_verified', requires: 'the identity check is confirmed' },
  { code: 'approval_already_given', requires: 'no approval in this role for this data_version yet' },
  { code: 'four_eyes_violation', requires: 'four eyes: one person, one role per data_version' },
];
const CREATE: readonly Guard[] = [{ code: 'subscription_required', requires: 'the employer or the partner has a running trial or subscription' }];

/**
 * The guards of the domain functions every caller (API, sandbox, control API, hosted pages,
 * scenarios) goes through. Checks on the caller (scopes, roles held, settings) are not here.
 */
const GUARDS: Readonly<Partial<Record<Trigger, readonly Guard[]>>> = {
  create: CREATE,
  create_and_invite: CREATE,
  employee_open: [
    { code: 'hosted_link_revoked', requires: 'link validity: the current link, not replaced or revoked' },
    { code: 'hosted_link_expired', requires: 'link validity: not expired' },
    { code: 'one_time_code_void', requires: `fewer than ${MAX_CODE_ATTEMPTS} wrong one-time codes` },
    { code: 'one_time_code_invalid', requires: 'the one-time code matches (when one is given)' },
  ],
  employee_submit: [{ code: 'employee_not_started', requires: 'the employee opened the link' }],
  verify_identity: [REVIEWING, { code: 'identity_already_verified', requires: 'not yet confirmed for this data_version' }],
  approve: APPROVAL,
  approve_last: APPROVAL,
  return_to_employee: [REVIEWING],
  return_to_manager: [REVIEWING],
  manager_correct: [{ code: 'not_returned_to_manager', requires: 'the data was returned to the manager' }],
  payroll_fail: [{ code: 'payroll_manual_entry', requires: 'a payroll connector other than manual entry' }],
};

/**
 * Which of two triggers of one action runs, where the action's outcome picks it (the table
 * cannot tell them apart by status).
 */
const CHOSEN_WHEN: Readonly<Partial<Record<Trigger, string>>> = {
  create: 'options.send_invitation is not true',
  create_and_invite: 'options.send_invitation is true',
  approve: 'required roles remain without an approval for this data_version',
  approve_last: 'this approval completes the required roles for this data_version',
  new_hosted_link: 'send_invitation is not true',
  new_hosted_link_sent: 'send_invitation is true',
};

export interface StateView {
  name: OnboardingStatus;
  terminal: boolean;
}

export interface TriggerView {
  name: Trigger;
  /** Empty for creation: there is no onboarding yet. */
  from: OnboardingStatus[];
  /** Null when the trigger keeps the status. */
  to: OnboardingStatus | null;
  events: EventType[];
  /** The 409 when the status is not in `from` (completed and cancelled answer their own codes). */
  refusal: { code: ErrorCode; message: string };
  guards: Guard[];
  chosen_when: string | null;
}

export interface StateMachineView {
  object: 'state_machine';
  initial: OnboardingStatus;
  states: StateView[];
  triggers: TriggerView[];
  /** The code any trigger is refused with once the onboarding is in this terminal status. */
  terminal_refusals: Record<string, ErrorCode>;
  mermaid: string;
}

const TERMINAL_REFUSALS: Record<string, ErrorCode> = { completed: 'onboarding_completed', cancelled: 'onboarding_cancelled' };

function stateMachineTriggers(): TriggerView[] {
  return (Object.keys(TRANSITIONS) as Trigger[]).map((name) => {
    const rule = TRANSITIONS[name];
    return {
      name,
      from: [...rule.from],
      to: rule.to ?? null,
      events: [...rule.events],
      refusal: { code: rule.refusal, message: rule.refusalText },
      guards: [...(GUARDS[name] ?? [])],
      chosen_when: CHOSEN_WHEN[name] ?? null,
    };
  });
}

/**
 * A Mermaid stateDiagram-v2 of the table: one edge per from→to with its triggers as the label,
 * [*] → pending_employee for creation, terminal statuses → [*]. Triggers that keep the status
 * (change_terms from in_review too) are no self-loop arrows (seven around in_review would bury the picture): each status that has
 * some gets one note listing them.
 */
function stateMachineMermaid(triggers: readonly TriggerView[] = stateMachineTriggers()): string {
  const edges = new Map<string, string[]>();
  const stays = new Map<OnboardingStatus, string[]>();
  const add = <K>(map: Map<K, string[]>, key: K, name: string) => map.set(key, [...(map.get(key) ?? []), name]);
  for (const t of triggers) {
    if (t.from.length === 0) add(edges, `[*] --> ${t.to}`, t.name);
    for (const from of t.from) {
      if (t.to === null || t.to === from) add(stays, from, t.name);
      else add(edges, `${from} --> ${t.to}`, t.name);
    }
  }
  const lines = ['stateDiagram-v2'];
  const drawn = new Set([...edges.keys()].flatMap((e) => e.split(' --> ')));
  for (const s of ONBOARDING_STATUSES) if (!drawn.has(s)) lines.push(`  ${s}`);
  for (const [edge, names] of edges) lines.push(`  ${edge}: ${names.join(', ')}`);
  for (const s of TERMINAL_STATUSES) lines.push(`  ${s} --> [*]`);
  for (const [s, names] of stays) lines.push(`  note right of ${s}: ${names.join(', ')} keep the status`);
  return `${lines.join('\n')}\n`;
}

export function stateMachineView(): StateMachineView {
  const triggers = stateMachineTriggers();
  return {
    object: 'state_machine',
    initial: TRANSITIONS.create.to!,
    states: ONBOARDING_STATUSES.map((name) => ({ name, terminal: TERMINAL_STATUSES.includes(name) })),
    triggers,
    terminal_refusals: { ...TERMINAL_REFUSALS },
    mermaid: stateMachineMermaid(triggers),
  };
}

const cell = (items: readonly string[]) => (items.length === 0 ? '—' : items.map((i) => `\`${i}\``).join(', '));

/** docs/state-machine.md, written by `npm run docs:state-machine` and compared by a test. */
export function stateMachineMarkdown(view: StateMachineView = stateMachineView()): string {
  const rows = view.triggers.map((t) => {
    const from = t.from.length === 0 ? '(none: creates)' : cell(t.from);
    const to = t.to === null ? 'keeps the status' : `\`${t.to}\``;
    const guards = t.guards.length === 0 ? '—' : t.guards.map((g) => `\`${g.code}\`: ${g.requires}`).join('<br>');
    const when = t.chosen_when === null ? '' : ` (when ${t.chosen_when})`;
    return `| \`${t.name}\`${when} | ${from} | ${to} | ${cell(t.events)} | \`${t.refusal.code}\` | ${guards} |`;
  });
  const terminal = Object.entries(view.terminal_refusals).map(([s, code]) => `\`${s}\` answers \`${code}\``).join(', ');
  return [
    '<!-- Generated from the transition table (src/resources/onboardings/onboardings.machine.ts) by `npm run docs:state-machine`; do not edit by hand. -->',
    '',
    '# The onboarding state machine',
    '',
    'Every change of an onboarding is one trigger of one table; the same table answers',
    '`GET /_emulator/state-machine` (JSON, or `?format=mermaid` for the diagram as text). Creation',
    'starts in `pending_employee`; `completed` and `cancelled` are terminal.',
    '',
    'Triggers that keep the status are no arrows in the diagram: each status that has some lists',
    'them in a note beside it.',
    '',
    '```mermaid',
    view.mermaid.trimEnd(),
    '```',
    '',
    '## Triggers',
    '',
    `**Refused** is the 409 code when the status is not one of **From**; once terminal, ${terminal}.`,
    '**Guards** are the checks made beyond the status, with the code each refuses with.',
    '',
    '| Trigger | From | To | Events | Refused | Guards |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
