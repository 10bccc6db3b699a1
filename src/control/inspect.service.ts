import { fail } from '../core/errors.js';
import { mapPage } from '../core/pagination.js';
import { traceIdOf } from '../core/tracing.js';
import type { Workspace } from '../core/workspace.js';
import { decide, type Trigger } from '../resources/onboardings/onboardings.machine.js';
import type { OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import { timeline } from '../resources/onboardings/onboardings.timeline.js';
import { waitingOn } from '../resources/onboardings/onboardings.view.js';
import type { EventRecord } from '../resources/events/events.model.js';
import type { DeliveryRecord, WebhookEndpointRecord } from '../resources/webhooks/webhooks.model.js';
import { deliveriesOf, resend } from '../resources/webhooks/webhooks.service.js';
import { renderDelivery } from '../resources/webhooks/webhooks.view.js';
import { INSPECT_DELIVERIES, INSPECT_LIMIT, type ActionName, type InspectDeliveriesQuery, type InspectEventsQuery, type InspectListQuery, type InspectWebhooksQuery } from './inspect.schemas.js';
import { findOnboarding, guardsPass, renderFull } from './onboarding-actions.service.js';

/**
 * Reads of a whole workspace for the inspector page (/_emulator/ui), over the control API
 * like everything else the page does. What an onboarding may do next is asked of the state
 * machine's table and the life cycle's own checks, so the page holds no life-cycle rule of its own.
 */

interface ActionSpec {
  trigger: Trigger;
  body: 'none' | 'optional' | 'required';
}

/**
 * Each control action and the trigger it fires (src/control/onboarding-actions.*). `return`
 * fires return_to_employee or return_to_manager, which the table allows in the same statuses.
 * A test holds this list to the action routes, so a new action cannot be left out.
 */
export const ACTIONS: Record<ActionName, ActionSpec> = {
  'employee/open': { trigger: 'employee_open', body: 'optional' },
  'employee/submit': { trigger: 'employee_submit', body: 'optional' },
  'verify-identity': { trigger: 'verify_identity', body: 'optional' },
  approve: { trigger: 'approve', body: 'required' },
  return: { trigger: 'return_to_employee', body: 'required' },
  'manager/correct': { trigger: 'manager_correct', body: 'none' },
  'change-terms': { trigger: 'change_terms', body: 'required' },
  'send-contract': { trigger: 'send_contract', body: 'none' },
  'employee/sign': { trigger: 'employee_sign', body: 'none' },
  'employer-sign': { trigger: 'employer_sign', body: 'none' },
  'payroll/complete': { trigger: 'payroll_succeed', body: 'none' },
  'payroll/fail': { trigger: 'payroll_fail', body: 'optional' },
  resolve: { trigger: 'resolve', body: 'none' },
  'send-reminder': { trigger: 'send_reminder', body: 'none' },
  cancel: { trigger: 'cancel', body: 'none' },
};

const ACTION_SUMMARIES: Record<ActionName, string> = {
  'employee/open': 'The employee opens the link (optionally with the one-time code)',
  'employee/submit': 'The employee submits the data',
  'verify-identity': 'A manager confirms the identity check',
  approve: 'A user approves in one role',
  return: 'Return the data for correction to the employee or the manager',
  'manager/correct': 'The manager corrects data returned to the manager',
  'change-terms': 'Change employment terms (approvals lapse)',
  'send-contract': 'Create and send the contract',
  'employee/sign': 'The employee signs the contract',
  'employer-sign': 'The employer signs the contract',
  'payroll/complete': 'Payroll processing succeeds',
  'payroll/fail': 'Payroll processing fails',
  resolve: 'Resolve action_required',
  'send-reminder': 'Send the employee a reminder',
  cancel: 'Cancel the onboarding',
};

/**
 * The actions that would succeed on the record as it is: the machine's table admits the
 * trigger in its status, and the checks the action makes beyond the status pass (a link opened,
 * expired or revoked, the identity check, four-eyes, data returned to the manager, manual
 * payroll entry). Only what a request brings is left open: a wrong one-time code, a body.
 */
function allowedActions(ws: Workspace, r: OnboardingRecord): ActionName[] {
  return (Object.keys(ACTIONS) as ActionName[]).filter((a) => decide(r.status, ACTIONS[a].trigger).ok && guardsPass(ws, r, a));
}

const newestFirst = <T>(items: T[]): T[] => [...items].reverse();
const fullName = (r: OnboardingRecord) => ({ first_name: r.employee.first_name, last_name: r.employee.last_name });

export function listOnboardings(ws: Workspace, q: InspectListQuery) {
  const all = ws.store.onboardings.values();
  const data = newestFirst(all).slice(0, q.limit ?? INSPECT_LIMIT).map((r) => summarizeOnboarding(ws, r));
  return { data, total: all.length };
}

/** One onboarding as the inspector's list shows it. */
export function summarizeOnboarding(ws: Workspace, r: OnboardingRecord) {
  return {
    id: r.id,
    status: r.status,
    waiting_on: waitingOn(r),
    data_version: r.data_version,
    environment: r.environment,
    organization_id: r.organization_id,
    partner_id: r.partner_id,
    source: r.source,
    reference: r.reference,
    employee: fullName(r),
    created_at: r.created_at,
    updated_at: r.updated_at,
    allowed_actions: allowedActions(ws, r),
  };
}

export function inspectOnboarding(ws: Workspace, id: string) {
  const r = findOnboarding(ws, id);
  const userName = (userId: string) => ws.store.users.get(userId)?.name ?? null;
  return {
    onboarding: renderFull(r) as object, // the control API's full rendering (dashboard view)
    environment: r.environment,
    organization_id: r.organization_id,
    partner_id: r.partner_id,
    allowed_actions: allowedActions(ws, r).map((action) => ({
      action,
      method: 'POST' as const,
      path: `/_emulator/onboardings/${r.id}/${action}`,
      trigger: ACTIONS[action].trigger,
      body: ACTIONS[action].body,
      summary: ACTION_SUMMARIES[action],
    })),
    timeline: timeline(r, ws.store.events.values().filter((e) => e.data.onboarding_id === r.id)),
    approvals: r.approvals.map((a) => ({ ...a, user_name: userName(a.user_id), valid: a.data_version === r.data_version })),
    people: ws.store.users
      .values()
      .filter((u) => u.organization_id === r.organization_id)
      .map((u) => ({ id: u.id, name: u.name, roles: [...u.roles] })),
  };
}

/**
 * A page of events, newest first: the latest `limit`, or those just older than `starting_after`
 * or just newer than `ending_before`. A page is held by an event of its edge, not by a count
 * from the top, so events made meanwhile land above it and a reader of older events keeps
 * seeing the same ones. `newer` says where the page is, for a client to tell whether there is
 * more either way.
 */
export function listEvents(ws: Workspace, q: InspectEventsQuery) {
  if (q.starting_after !== undefined && q.ending_before !== undefined) {
    throw fail('parameter_invalid', 'Give starting_after or ending_before, not both.', 'ending_before');
  }
  const ordered = newestFirst(ws.store.events.values().filter((e) => q.onboarding_id === undefined || e.data.onboarding_id === q.onboarding_id));
  const limit = q.limit ?? INSPECT_LIMIT;
  const at = (id: string, param: string) => {
    const index = ordered.findIndex((e) => e.id === id);
    if (index < 0) throw fail('cursor_invalid', `The cursor ${id} is not known for this list.`, param);
    return index;
  };
  let start = 0;
  let end = limit;
  if (q.starting_after !== undefined) {
    start = at(q.starting_after, 'starting_after') + 1;
    end = start + limit;
  } else if (q.ending_before !== undefined) {
    end = at(q.ending_before, 'ending_before');
    start = Math.max(0, end - limit);
  }
  const data = renderInspectEvents(ws, ordered.slice(start, end));
  return { data, total: ordered.length, newer: start };
}

/** Events as the inspector shows them, each with the number of deliveries made for it. */
export function renderInspectEvents(ws: Workspace, events: readonly EventRecord[]) {
  const counts = new Map<string, number>();
  for (const d of ws.store.deliveries.values()) counts.set(d.event_id, (counts.get(d.event_id) ?? 0) + 1);
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    created_at: e.created_at,
    environment: e.environment,
    organization_id: e.organization_id,
    partner_id: e.partner_id,
    data: e.data,
    deliveries: counts.get(e.id) ?? 0,
  }));
}

/**
 * A delivery as /v1 renders it, with what only the inspector shows: the address it belongs to
 * (the inspector lists every address's) and each attempt. No `object`, as the inspector's
 * answers are not API objects; the keys keep their order.
 */
export function renderInspectDelivery(d: DeliveryRecord) {
  const { id, object: _object, ...rest } = renderDelivery(d);
  const traceId = traceIdOf(d.trace);
  return { id, endpoint_id: d.endpoint_id, ...rest, attempt_log: d.attempt_log ?? [], ...(d.injected ? { injected: d.injected } : {}), ...(traceId ? { trace_id: traceId } : {}) };
}

export function listWebhooks(ws: Workspace, q: InspectWebhooksQuery) {
  const deliveries = ws.store.deliveries.values();
  return {
    data: ws.store.webhooks.values().map((w: WebhookEndpointRecord) => {
      const mine = deliveries.filter((d) => d.endpoint_id === w.id);
      return {
        id: w.id,
        url: w.url,
        description: w.description,
        organization_id: w.organization_id,
        environment: w.environment,
        status: w.status,
        events: w.events.length ? [...w.events] : ['*'],
        dead_in_a_row: w.dead_in_a_row,
        created_at: w.created_at,
        deliveries_total: mine.length,
        deliveries: newestFirst(mine).slice(0, q.deliveries ?? INSPECT_DELIVERIES).map(renderInspectDelivery),
      };
    }),
  };
}

/**
 * One address's deliveries, newest first, each with its attempts, paged with the one cursor
 * pager (as GET /v1/webhooks/{id}/deliveries, but any address of the workspace and no key), so
 * a client can reach a delivery older than the few GET /_emulator/webhooks embeds.
 */
export function listDeliveries(ws: Workspace, id: string, q: InspectDeliveriesQuery) {
  if (!ws.store.webhooks.get(id)) throw fail('resource_not_found', `No webhook address with id ${id} in workspace ${ws.id}.`, 'id');
  return mapPage(deliveriesOf(ws, id, q), renderInspectDelivery);
}

/** The dashboard's "resend": the same manual retry as POST /v1/webhooks/{id}/deliveries/{id}/retry. */
export async function retryDelivery(ws: Workspace, id: string) {
  const d = ws.store.deliveries.get(id);
  if (!d) throw fail('resource_not_found', `No delivery with id ${id} in workspace ${ws.id}.`, 'id');
  const w = ws.store.webhooks.get(d.endpoint_id);
  if (!w) throw fail('resource_not_found', `The address of delivery ${id} was deleted.`, 'id');
  return renderInspectDelivery(await resend(ws, w, d));
}
