import { ApiError, fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import { OLDER_NAMES, type EventRecord, type EventType } from '../resources/events/events.model.js';
import * as life from '../resources/onboardings/onboardings.lifecycle.js';
import { scriptedPayroll } from '../resources/onboardings/onboardings.hooks.js';
import { TRANSITIONS } from '../resources/onboardings/onboardings.machine.js';
import type { OnboardingRecord, OnboardingStatus } from '../resources/onboardings/onboardings.model.js';
import { nextJourneyStep } from '../resources/onboardings/onboardings.next-step.js';
import { MANUAL_CONNECTOR } from '../resources/onboardings/onboardings.payroll.js';
import { cancelRecord, createOnboarding } from '../resources/onboardings/onboardings.service.js';
import type { Organization } from '../resources/organizations/organizations.model.js';
import { actFor, dashboardPrincipal, findCaller, type Principal } from '../resources/organizations/organizations.access.js';
import { pingAddresses } from '../resources/webhooks/webhooks.service.js';
import { findOnboarding } from './onboarding-actions.service.js';
import type { Triggered, TriggerBody } from './trigger.schemas.js';

/**
 * POST /_emulator/trigger: makes one event of a type happen, the way it happens in the product.
 * An onboarding (a new one, or the one named) is played forward through the same life-cycle
 * functions the dashboard, the employee and payroll use, until the transition that emits the
 * type has run; so the event comes from the one emitter and goes to the webhook addresses as
 * any other. Every refusal is found before the first write: a refused trigger changes nothing.
 */

/** The statuses in journey order: an onboarding moves forward through them, never back. */
const JOURNEY: readonly OnboardingStatus[] = [
  'pending_employee', 'in_review', 'contract_ready', 'awaiting_employee_signature', 'awaiting_employer_signature', 'processing', 'action_required',
];
const rankOf = (status: OnboardingStatus) => JOURNEY.indexOf(status);

/** An older name is emitted right after its current name, by the same transitions. */
const CURRENT_NAME = new Map(Object.entries(OLDER_NAMES).map(([current, older]) => [older, current as EventType]));
const currentName = (type: EventType): EventType => CURRENT_NAME.get(type) ?? type;

/** The statuses a transition emitting the type starts from, read from the machine's table. */
function sourcesOf(type: EventType): OnboardingStatus[] {
  const name = currentName(type);
  return [...new Set(Object.values(TRANSITIONS).filter((rule) => rule.events.includes(name)).flatMap((rule) => rule.from))];
}

/** More steps than any forward journey takes; a bound, so the loop can never run away. */
const MAX_STEPS = 30;
/** A new onboarding starts a month after the workspace clock's today. */
const START_IN_MS = 30 * 24 * 60 * 60 * 1000;

type Step = (ws: Workspace, r: OnboardingRecord, baseUrl: string) => OnboardingRecord;

/** The next step of the journey, as the sandbox plays it. */
const journeyStep: Step = (ws, r, baseUrl) => {
  const next = nextJourneyStep(ws, r, { baseUrl });
  if (!next) throw fail('invalid_transition', `${r.id} has no next step (status ${r.status}).`);
  return next.run();
};

/** A change of terms that changes something: the hourly wage one euro up. */
const changeTerms: Step = (ws, r) => life.changeTerms(ws, r, { hourly_wage_cents: r.employment.hourly_wage_cents + 100 });

const payrollSucceeds: Step = (ws, r, baseUrl) => (r.status === 'processing' ? life.payrollSucceed(ws, r) : journeyStep(ws, r, baseUrl));

/** Payroll fails with the organization's error code, as the control action payroll/fail does by default. */
const payrollFails: Step = (ws, r) => life.payrollFail(ws, r, ws.store.organizations.get(r.organization_id)?.payroll_failure.error_code ?? 'connector_unavailable');

/**
 * The step that emits the type from a status it is emitted from, where the journey's own next
 * step would not (by current name; no entry: the journey's next step does).
 */
const EMITTING_STEP: Partial<Record<EventType, Step>> = {
  'onboarding.invitation_sent': (ws, r, baseUrl) => life.sendReminder(ws, r, baseUrl),
  // After a return to the employee the journey submits again; a new link is opened first.
  'onboarding.started': (ws, r) => life.employeeOpen(ws, r),
  'onboarding.approval_required': (ws, r, baseUrl) =>
    r.status === 'pending_employee' ? journeyStep(ws, r, baseUrl) : r.returned_to === 'manager' ? life.managerCorrect(ws, r) : changeTerms(ws, r, baseUrl),
  // Data returned to the manager is corrected first: a return waits for it.
  'onboarding.returned': (ws, r) => (r.returned_to === 'manager' ? life.managerCorrect(ws, r) : life.returnForCorrection(ws, r, 'employee')),
  'onboarding.terms_changed': changeTerms,
  'integration.sync_succeeded': payrollSucceeds,
  'onboarding.completed': payrollSucceeds,
  'integration.sync_failed': payrollFails,
  'onboarding.failed': payrollFails,
  'onboarding.cancelled': (ws, r) => cancelRecord(ws, r),
};

/** The events of a failing payroll run. */
const failsPayroll = (type: EventType): boolean => TRANSITIONS.payroll_fail.events.includes(type);

/** Manual entry cannot fail: a payroll failure needs a connector. */
function requireConnector(organizationId: string, connector: string, type: EventType): void {
  if (connector === MANUAL_CONNECTOR) {
    throw fail('payroll_manual_entry', `${organizationId} enters employees into payroll by hand (connector manual), which cannot fail; trigger ${type} for an organization with a payroll connector (organization_id), or give this one a connector.`);
  }
}

/**
 * Throws the refusal when the type cannot happen to this onboarding from where it is, before
 * anything is changed: ended, past every status the type comes from, or held by what the
 * journey's next steps check (a link that no longer opens, payroll entered by hand).
 */
function checkReachable(ws: Workspace, r: OnboardingRecord, type: EventType): void {
  const { status } = r;
  const name = currentName(type);
  if (status === 'cancelled' || status === 'completed') {
    throw fail(status === 'cancelled' ? 'onboarding_cancelled' : 'onboarding_completed', `${r.id} is ${status}: no ${type} can happen to it any more. Leave out onboarding_id to trigger it on a new onboarding.`);
  }
  const sources = sourcesOf(type);
  if (sources.length === 0) {
    throw fail('invalid_transition', `${type} happens when an onboarding is created: leave out onboarding_id.`, 'onboarding_id');
  }
  if (rankOf(status) > Math.max(...sources.map(rankOf))) {
    throw fail('invalid_transition', `${type} happens from ${sources.join(' or ')}; ${r.id} is ${status}, past that. Leave out onboarding_id to trigger it on a new onboarding.`, 'onboarding_id');
  }
  if (status === 'pending_employee' && name === 'onboarding.started') {
    if (life.linkOpened(r)) throw fail('invalid_transition', `The employee opened the link of ${r.id} already; onboarding.started happens when it is opened.`, 'onboarding_id');
    life.checkOpen(ws, r);
  } else if (status === 'pending_employee' && name !== 'onboarding.invitation_sent' && name !== 'onboarding.cancelled' && !r.started_at) {
    // The employee's next step is opening the link: it must open.
    life.checkOpen(ws, r);
  }
  if (failsPayroll(type)) {
    requireConnector(r.organization_id, r.payroll?.connector ?? scriptedPayroll(ws, r)?.connector ?? ws.store.organizations.get(r.organization_id)?.payroll_connector ?? MANUAL_CONNECTOR, type);
  }
}

/** Whether an organization (employer or partner) has an enabled test webhook address. */
const hasAddress = (ws: Workspace, organizationId: string): boolean =>
  ws.store.webhooks.values().some((w) => w.organization_id === organizationId && w.environment === 'test' && w.status === 'enabled');

/**
 * The partners that would receive the events of an onboarding they create for this employer,
 * each acting through its own test key: admitted to create and read onboardings, with an
 * enabled test address. Fixture order.
 */
function receivingPartners(ws: Workspace, org: Organization): Principal[] {
  const principals: Principal[] = [];
  for (const partner of ws.store.organizations.values()) {
    if (partner.kind !== 'partner' || !hasAddress(ws, partner.id)) continue;
    const key = ws.store.keys.values().find((k) => k.organization_id === partner.id && k.environment === 'test' && k.scopes.includes('onboardings:write'));
    if (!key) continue;
    try {
      const p = actFor(ws.store, findCaller(ws.store, key.key, undefined), org.id, 'onboardings:write');
      if (p.scopes.includes('onboardings:read')) principals.push(p);
    } catch (e) {
      // Not admitted by this employer, or not for onboardings: its addresses would get nothing.
      if (!(e instanceof ApiError)) throw e;
    }
  }
  return principals;
}

/**
 * The employer a new onboarding is created for: the one named, else the first whose own
 * address or a receiving partner's would get the events, else the first.
 */
function employerFor(ws: Workspace, organizationId: string | undefined): Organization {
  const employers = ws.store.organizations.values().filter((o) => o.kind === 'employer');
  if (organizationId !== undefined) {
    const named = employers.find((o) => o.id === organizationId);
    if (!named) throw fail('organization_unknown', `organization_id: ${organizationId} is not an employer in workspace ${ws.id}.`, 'organization_id');
    return named;
  }
  const org = employers.find((o) => hasAddress(ws, o.id)) ?? employers.find((o) => receivingPartners(ws, o).length > 0) ?? employers[0];
  if (!org) throw fail('organization_unknown', `Workspace ${ws.id} has no employer to create an onboarding for.`, 'organization_id');
  return org;
}

/**
 * Who creates it: the first receiving partner, with its own key, so its addresses get the
 * events as well as the employer's (a partner receives only what its keys made); else the
 * employer's dashboard.
 */
const creatorFor = (ws: Workspace, org: Organization): Principal => receivingPartners(ws, org)[0] ?? dashboardPrincipal(org, 'test');

/** A new test onboarding, with the employer's first location and template. */
function createFor(ws: Workspace, org: Organization, type: EventType, baseUrl: string): OnboardingRecord {
  const location = org.locations[0];
  const template = org.templates[0];
  if (!location || !template) {
    throw fail('parameter_invalid', `organization_id: ${org.id} has no location or no template to create an onboarding with.`, 'organization_id');
  }
  const start = new Date(ws.clock.nowMs() + START_IN_MS).toISOString().slice(0, 10);
  const creator = creatorFor(ws, org);
  return createOnboarding(ws, creator, {
    reference: `trigger ${type}`,
    employee: { first_name: 'Test', last_name: 'Trigger', email: 'trigger@example.test' },
    employment: { position: 'Test hire', start_date: start, location_id: location.id, template_id: template.id, hours_per_week: 24, hourly_wage_cents: 1500 },
    options: { send_invitation: type === 'onboarding.invitation_sent' },
  }, { source: creator.partner ? 'api' : 'dashboard', baseUrl });
}

const eventsOf = (ws: Workspace, onboardingId: string): EventRecord[] => ws.store.events.values().filter((e) => e.data.onboarding_id === onboardingId);

function triggerOnboardingEvent(ws: Workspace, body: TriggerBody, baseUrl: string): Triggered {
  const type = body.event_type;
  const created = body.onboarding_id === undefined;
  let r: OnboardingRecord;
  let seen = new Set<string>();
  if (body.onboarding_id === undefined) {
    const org = employerFor(ws, body.organization_id);
    // Checked before the onboarding is made; a scenario rule's connector is not known before then.
    if (failsPayroll(type)) requireConnector(org.id, org.payroll_connector, type);
    r = createFor(ws, org, type, baseUrl);
  } else {
    r = findOnboarding(ws, body.onboarding_id);
    if (body.organization_id !== undefined && body.organization_id !== r.organization_id) {
      throw fail('parameter_invalid', `organization_id: ${r.id} belongs to ${r.organization_id}, not ${body.organization_id}.`, 'organization_id');
    }
    checkReachable(ws, r, type);
    seen = new Set(eventsOf(ws, r.id).map((e) => e.id));
  }
  const made = () => eventsOf(ws, r.id).filter((e) => !seen.has(e.id)).sort((a, b) => a.seq - b.seq);
  const emitting = EMITTING_STEP[currentName(type)];
  const sources = sourcesOf(type);
  for (let i = 0; i < MAX_STEPS && !made().some((e) => e.type === type); i++) {
    const current = ws.store.onboardings.get(r.id)!;
    r = (emitting && sources.includes(current.status) ? emitting : journeyStep)(ws, current, baseUrl);
  }
  const events = made();
  const event = events.find((e) => e.type === type);
  if (!event) throw fail('invalid_transition', `${type} did not happen within ${MAX_STEPS} steps of ${r.id}.`);
  return {
    object: 'triggered_event',
    event_id: event.id,
    event_type: type,
    onboarding_id: r.id,
    organization_id: r.organization_id,
    partner_id: r.partner_id,
    onboarding_created: created,
    events: events.map((e) => ({ id: e.id, type: e.type })),
    deliveries: ws.store.deliveries.values().filter((d) => d.event_id === event.id).length,
  };
}

/** The webhook test message, to every enabled test address (of one organization, when named): it belongs to no onboarding. */
function triggerPing(ws: Workspace, body: TriggerBody): Triggered {
  if (body.onboarding_id !== undefined) throw fail('parameter_invalid', 'onboarding_id: a ping belongs to no onboarding; leave it out.', 'onboarding_id');
  const orgId = body.organization_id;
  if (orgId !== undefined && !ws.store.organizations.has(orgId)) {
    throw fail('organization_unknown', `organization_id: ${orgId} is not an organization in workspace ${ws.id}.`, 'organization_id');
  }
  const addresses = ws.store.webhooks.values().filter((w) => w.status === 'enabled' && w.environment === 'test' && (orgId === undefined || w.organization_id === orgId));
  if (addresses.length === 0) {
    throw fail('webhook_address_missing', `A ping goes to webhook addresses, and ${orgId ?? `workspace ${ws.id}`} has no enabled test address: register one first (POST /v1/webhooks).`);
  }
  const ping = pingAddresses(ws, addresses);
  const owners = new Set(addresses.map((w) => w.organization_id));
  return {
    object: 'triggered_event',
    event_id: ping.event_id,
    event_type: 'ping',
    onboarding_id: null,
    organization_id: owners.size === 1 ? [...owners][0]! : null,
    partner_id: null,
    onboarding_created: false,
    events: [{ id: ping.event_id, type: 'ping' }],
    deliveries: ping.deliveries,
  };
}

export function trigger(ws: Workspace, body: TriggerBody, baseUrl: string): Triggered {
  return body.event_type === 'ping' ? triggerPing(ws, body) : triggerOnboardingEvent(ws, body, baseUrl);
}
