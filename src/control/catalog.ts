import type { ErrorCode } from '../core/errors.js';
import { DEFAULT_PAYROLL_DOWN_ERROR } from '../core/faults.js';
import { OLDER_NAMES, type EventType } from '../resources/events/events.model.js';
import { TRANSITIONS, type Trigger } from '../resources/onboardings/onboardings.machine.js';
import type { OnboardingStatus } from '../resources/onboardings/onboardings.model.js';
import { TEST_IDENTITY, type PersonalDataKind } from '../resources/onboardings/onboardings.personal-data.js';
import { MANUAL_CONNECTOR } from '../resources/onboardings/onboardings.payroll.js';
import { DEFAULT_PAYROLL_FAILURE_CODE } from '../resources/organizations/organizations.model.js';
import { MAGIC_ADDRESSES, type MagicName } from '../scenarios/scenario.magic.js';
import { DEFAULT_PAYROLL_ERROR } from '../scenarios/scenario.rules.js';
import { clientCalls, type ControlRoute } from '../operations/control-row.js';
import { controlRoutes } from './control.routes.js';
import { ACTIONS } from './inspect.service.js';
import { onboardingActionRoutes } from './onboarding-actions.routes.js';
import type { ActionName } from './inspect.schemas.js';

/**
 * The sandbox catalogue: every input that makes the emulator do something on purpose (magic
 * e-mail addresses, test identity numbers, values a check refuses, payroll failures) and every
 * control action and life-cycle transition, each with the outcome it gives and an example that
 * gives it. Built from the tables the code runs on (MAGIC_ADDRESSES, ACTIONS, TRANSITIONS, the
 * default codes), so a new row there is a new entry here; what the tables cannot say (the
 * status a magic address ends in, the calls that reach a status) is written here and held to
 * the code by a test that plays every example.
 */

export const CATALOG_SECTIONS = ['magic_address', 'test_value', 'payroll_failure', 'control_action', 'transition'] as const;
export type CatalogSection = (typeof CATALOG_SECTIONS)[number];

/**
 * One request of an example against a fresh default workspace (the fixtures' org_acme and its
 * users). `{id}` in the path is the onboarding the first request created. `auth: 'test_key'`:
 * a /v1 request, sent with a test key of org_acme (GET /_emulator/keys); control requests need none.
 */
export interface CatalogRequest {
  method: 'POST' | 'PATCH';
  path: string;
  body?: Record<string, unknown>;
  auth?: 'test_key';
}

interface CatalogOutcome {
  /** The onboarding's status after the example. */
  status?: OnboardingStatus;
  /**
   * Events the example's last request fires. Control actions and transitions: exactly these,
   * in order, each followed by its older name where it has one (`older_names`); the rest:
   * these among others, in this order.
   */
  events?: EventType[];
  /** The refusal of the example's last request. */
  error?: { status: number; code: ErrorCode };
  /** The onboarding's payroll.error_code after the example. */
  payroll_error_code?: string;
}

export interface CatalogEntry {
  section: CatalogSection;
  /** Unique within its section: the address's local part, the action, the trigger, ... */
  name: string;
  /** What to send: the address, the value, the call. */
  input: string;
  /** What it does, in a few words. */
  outcome: string;
  /** Control actions and transitions: the statuses it needs, its trigger and its 409 code elsewhere. */
  needs?: OnboardingStatus[];
  /** Control actions: the client method (in process, over HTTP, and the MCP onboardings tool's action). */
  client?: string;
  trigger?: Trigger;
  refusal?: ErrorCode;
  expect: CatalogOutcome;
  example: CatalogRequest[];
}

export interface Catalog {
  object: 'catalog';
  sections: readonly CatalogSection[];
  /** The older event names sent right after their current names. */
  older_names: Partial<Record<EventType, EventType>>;
  entries: CatalogEntry[];
}

// The example's building blocks: a dashboard onboarding of org_acme, and the calls of its journey.
const ONBOARDING = {
  organization_id: 'org_acme',
  employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
  employment: {
    position: 'Cashier', start_date: '2027-01-04', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard',
    hours_per_week: 24, hourly_wage_cents: 1400,
  },
};
const USERS = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;

/** A control row's path, by its operationId, as the rows serve it: `:id` becomes `id`. */
function rowPath(operationId: string, id = '{id}'): string {
  const row = [...controlRoutes, ...onboardingActionRoutes].find((r) => r.operationId === operationId);
  if (!row) throw new Error(`No control row ${operationId}.`);
  return row.path.replace(':id', id);
}

/** A control action's row. */
function actionRow(action: ActionName) {
  const row = onboardingActionRoutes.find((r) => r.path.endsWith(`/:id/${action}`));
  if (!row) throw new Error(`No control row for the action ${action}.`);
  return row;
}
/** A row's client method as called: `onboardings.approve(id, role, user_id, data_version)`. */
function clientText(row: ControlRoute<never>): string {
  const method = clientCalls(row)[0]!;
  return `${method.name}(${Array.isArray(method.args) ? method.args.join(', ') : ''})`;
}
const actionPath = (action: ActionName): string => actionRow(action).path.replace(':id', '{id}');

const create = (over: Record<string, unknown> = {}): CatalogRequest => ({ method: 'POST', path: rowPath('dashboardCreateOnboarding'), body: { ...ONBOARDING, ...over } });
const call = (action: ActionName, body?: Record<string, unknown>): CatalogRequest => ({ method: 'POST', path: actionPath(action), ...(body ? { body } : {}) });
const approval = (role: keyof typeof USERS) => call('approve', { role, user_id: USERS[role] });

/**
 * The journey the examples start from: each step with where it leaves the onboarding. An
 * example is a prefix of it plus its own calls; docs/catalog.md shows the prefix by its end.
 */
export const JOURNEY: readonly { reaches: string; request: CatalogRequest }[] = [
  { reaches: 'created (pending_employee)', request: create() },
  { reaches: 'opened (pending_employee)', request: call('employee/open') },
  { reaches: 'in_review', request: call('employee/submit') },
  { reaches: 'identity verified (in_review)', request: call('verify-identity', { user_id: USERS.manager }) },
  { reaches: 'approved as manager (in_review)', request: approval('manager') },
  { reaches: 'one approval left (in_review)', request: approval('payroll_reviewer') },
  { reaches: 'contract_ready', request: approval('owner') },
  { reaches: 'awaiting_employee_signature', request: call('send-contract') },
  { reaches: 'awaiting_employer_signature', request: call('employee/sign') },
  { reaches: 'processing', request: call('employer-sign') },
];
const upTo = (steps: number): CatalogRequest[] => JOURNEY.slice(0, steps).map((s) => s.request);

const CREATED = upTo(1);
const OPENED = upTo(2);
const IN_REVIEW = upTo(3);
const VERIFIED = upTo(4);
const ONE_APPROVAL_LEFT = upTo(6);
const CONTRACT_SENT = upTo(8);
const EMPLOYEE_SIGNED = upTo(9);
const PROCESSING = upTo(10);
const ACTION_REQUIRED = [...PROCESSING, call('payroll/fail')];

/** The journey at org_bakker, whose payroll is entered by hand; its template asks a manager and the owner. */
const MANUAL_ENTRY: CatalogRequest[] = [
  create({ organization_id: 'org_bakker', employment: { ...ONBOARDING.employment, location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker' } }),
  call('employee/open'),
  call('employee/submit'),
  call('verify-identity', { user_id: 'usr_bakker_mila' }),
  call('approve', { role: 'manager', user_id: 'usr_bakker_mila' }),
  call('approve', { role: 'owner', user_id: 'usr_bakker_bram' }),
  call('send-contract'),
  call('employee/sign'),
  call('employer-sign'),
  call('payroll/fail'),
];

/**
 * The examples of the control actions: the calls before, then the action itself with a body
 * that succeeds. Keyed by ActionName, so an action added to ACTIONS without one does not compile.
 */
const ACTION_EXAMPLES: Record<ActionName, CatalogRequest[]> = {
  'employee/open': OPENED,
  'employee/submit': IN_REVIEW,
  'verify-identity': VERIFIED,
  approve: [...VERIFIED, approval('manager')],
  return: [...IN_REVIEW, call('return', { to: 'employee', reason: 'The IBAN is of someone else' })],
  'manager/correct': [...IN_REVIEW, call('return', { to: 'manager' }), call('manager/correct')],
  'change-terms': [...IN_REVIEW, call('change-terms', { hours_per_week: 32 })],
  'send-contract': CONTRACT_SENT,
  'employee/sign': EMPLOYEE_SIGNED,
  'employer-sign': PROCESSING,
  'payroll/complete': [...PROCESSING, call('payroll/complete')],
  'payroll/fail': [...PROCESSING, call('payroll/fail', { error_code: 'bsn_rejected' })],
  resolve: [...ACTION_REQUIRED, call('resolve')],
  'send-reminder': [...CREATED, call('send-reminder')],
  cancel: [...CREATED, call('cancel')],
};

/** The triggers no control action of ACTIONS names, each with the way in that fires it. */
const OTHER_TRIGGERS: Partial<Record<Trigger, { input: string; example: CatalogRequest[] }>> = {
  create: { input: 'POST /v1/onboardings or POST /_emulator/onboardings', example: CREATED },
  create_and_invite: { input: 'the same with options.send_invitation true', example: [create({ options: { send_invitation: true } })] },
  approve_last: { input: 'POST /_emulator/onboardings/{id}/approve (or POST /v1/onboardings/{id}/approvals) in the last required role', example: [...ONE_APPROVAL_LEFT, approval('owner')] },
  return_to_manager: { input: 'POST /_emulator/onboardings/{id}/return with to: manager', example: [...IN_REVIEW, call('return', { to: 'manager' })] },
  new_hosted_link: { input: 'POST /v1/onboardings/{id}/hosted-link', example: [...CREATED, { method: 'POST', path: '/v1/onboardings/{id}/hosted-link', body: {}, auth: 'test_key' }] },
  new_hosted_link_sent: { input: 'POST /v1/onboardings/{id}/hosted-link with send_invitation true', example: [...CREATED, { method: 'POST', path: '/v1/onboardings/{id}/hosted-link', body: { send_invitation: true }, auth: 'test_key' }] },
};

/**
 * Where each magic address ends once the clock has run 10 days, and the events that mark its
 * outcome. Keyed by the address table's names, so a new address cannot be left out.
 */
const MAGIC_OUTCOMES: Record<MagicName, { status: OnboardingStatus; events: EventType[] }> = {
  'happy-path': { status: 'completed', events: ['onboarding.started', 'onboarding.approved', 'contract.sent', 'onboarding.completed'] },
  'never-opens': { status: 'pending_employee', events: [] },
  'never-submits': { status: 'pending_employee', events: ['onboarding.started'] },
  'returned': { status: 'completed', events: ['onboarding.returned', 'onboarding.completed'] },
  'returned-to-manager': { status: 'completed', events: ['onboarding.returned', 'onboarding.completed'] },
  'terms-changed': { status: 'completed', events: ['onboarding.approved', 'onboarding.terms_changed', 'onboarding.approved', 'onboarding.completed'] },
  'never-approved': { status: 'in_review', events: ['onboarding.employee_submitted'] },
  'slow-employer': { status: 'completed', events: ['contract.signed_by_employee', 'onboarding.completed'] },
  'payroll-fail': { status: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'] },
  'payroll-fail-recover': { status: 'completed', events: ['onboarding.failed', 'onboarding.completed'] },
};
const MAGIC_RUN = '10d';

/** A sample of each kind of personal data the metadata check refuses: the BSN and IBAN are the test ones. */
const PERSONAL_DATA_SAMPLES: Record<PersonalDataKind, string> = {
  email: 'anna@example.com',
  iban: TEST_IDENTITY.iban,
  bsn: TEST_IDENTITY.bsn,
  mobile: '06 12345678',
};
/** Nine digits that fail the 11-check: no BSN, so metadata takes them and the hosted form refuses them. */
const NOT_A_BSN = '123456789';

function magicEntries(): CatalogEntry[] {
  return (Object.keys(MAGIC_ADDRESSES) as MagicName[]).map((name) => {
    const payroll = MAGIC_ADDRESSES[name].rule.payroll ?? {};
    const failure = payroll.outcome === 'failure' && payroll.resolved === undefined;
    return {
      section: 'magic_address', name, input: `${name}@example.com`, outcome: MAGIC_ADDRESSES[name].summary,
      expect: { ...MAGIC_OUTCOMES[name], ...(failure ? { payroll_error_code: payroll.error_code ?? DEFAULT_PAYROLL_ERROR } : {}) },
      example: [
        create({ employee: { ...ONBOARDING.employee, email: `${name}@example.com` } }),
        { method: 'POST', path: rowPath('advanceClock'), body: { by: MAGIC_RUN } },
      ],
    };
  });
}

function testValueEntries(): CatalogEntry[] {
  const identity = (Object.keys(TEST_IDENTITY) as (keyof typeof TEST_IDENTITY)[]).map((kind): CatalogEntry => ({
    section: 'test_value', name: `test-${kind}`, input: TEST_IDENTITY[kind],
    outcome: `the test ${kind.toUpperCase()}: passes the hosted form's check (${kind === 'bsn' ? 'the 11-check' : 'mod-97'}); in metadata it is personal data, refused`,
    expect: { error: { status: 422, code: 'metadata_personal_data' } },
    example: [create({ metadata: { note: TEST_IDENTITY[kind] } })],
  }));
  const others = (Object.keys(PERSONAL_DATA_SAMPLES) as PersonalDataKind[]).filter((kind) => !Object.hasOwn(TEST_IDENTITY, kind)).map((kind): CatalogEntry => ({
    section: 'test_value', name: `${kind}-in-metadata`, input: PERSONAL_DATA_SAMPLES[kind],
    outcome: `${kind === 'email' ? 'an e-mail address' : 'a Dutch mobile number'} as a metadata value (alone or inside a text) is personal data, refused`,
    expect: { error: { status: 422, code: 'metadata_personal_data' } },
    example: [create({ metadata: { note: PERSONAL_DATA_SAMPLES[kind] } })],
  }));
  return [
    ...identity,
    ...others,
    {
      section: 'test_value', name: 'bsn-fails-11-check', input: NOT_A_BSN,
      outcome: 'nine digits that fail the 11-check: the hosted form refuses them as a BSN; in metadata they are no personal data, taken',
      expect: { status: 'pending_employee' },
      example: [create({ metadata: { note: NOT_A_BSN } })],
    },
  ];
}

function payrollEntries(): CatalogEntry[] {
  return [
    {
      section: 'payroll_failure', name: 'payroll_down', input: 'POST /_emulator/faults {"kind": "payroll_down"}',
      outcome: `the next payroll run fails however it is started, even payroll/complete; error_code defaults to ${DEFAULT_PAYROLL_DOWN_ERROR}`,
      expect: { status: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'], payroll_error_code: DEFAULT_PAYROLL_DOWN_ERROR },
      example: [...PROCESSING, { method: 'POST', path: rowPath('createFault'), body: { kind: 'payroll_down' } }, call('payroll/complete')],
    },
    {
      section: 'payroll_failure', name: 'organization-switch', input: 'PATCH /_emulator/organizations/{org} {"payroll_failure": {"enabled": true, "error_code": ...}}',
      outcome: 'every automatic payroll run of the employer (sandbox advance, scenarios) fails with that code, unless a scenario scripts the outcome',
      expect: { status: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'], payroll_error_code: 'bsn_rejected' },
      example: [
        ...PROCESSING,
        { method: 'PATCH', path: rowPath('patchOrganizationSettings', 'org_acme'), body: { payroll_failure: { enabled: true, error_code: 'bsn_rejected' } } },
        { method: 'POST', path: '/v1/sandbox/onboardings/{id}/advance', auth: 'test_key' },
      ],
    },
    {
      section: 'payroll_failure', name: 'manual-entry', input: `an employer whose payroll_connector is ${MANUAL_CONNECTOR} (org_bakker in the default fixtures)`,
      outcome: 'payroll never fails: nothing can be down; payroll/fail is refused, a payroll_down fault is left for another run',
      expect: { error: { status: 409, code: 'payroll_manual_entry' } },
      example: MANUAL_ENTRY,
    },
    {
      section: 'payroll_failure', name: 'payroll/fail', input: 'POST /_emulator/onboardings/{id}/payroll/fail',
      outcome: `this run fails; error_code defaults to the organization's payroll_failure.error_code (${DEFAULT_PAYROLL_FAILURE_CODE} unless set)`,
      expect: { status: 'action_required', events: ['integration.sync_failed', 'onboarding.failed'], payroll_error_code: DEFAULT_PAYROLL_FAILURE_CODE },
      example: ACTION_REQUIRED,
    },
  ];
}

function transitionEntry(section: 'control_action' | 'transition', name: string, trigger: Trigger, input: string, example: CatalogRequest[]): CatalogEntry {
  const rule = TRANSITIONS[trigger];
  return {
    section, name, input, trigger, needs: [...rule.from], refusal: rule.refusal,
    outcome: `fires ${trigger}: ${rule.to ? `status ${rule.to}` : 'keeps the status'}`,
    // A trigger that keeps the status: its example starts in the first status it needs.
    expect: { status: rule.to ?? rule.from[0]!, events: [...rule.events] },
    example,
  };
}

/** The whole catalogue; the same for every workspace. */
export function sandboxCatalog(): Catalog {
  const actions = (Object.keys(ACTIONS) as ActionName[]).map((a): CatalogEntry => ({
    ...transitionEntry('control_action', a, ACTIONS[a].trigger, `POST ${actionPath(a)}`, ACTION_EXAMPLES[a]),
    client: clientText(actionRow(a) as ControlRoute<never>),
  }));
  const fired = new Set(actions.map((e) => e.trigger));
  const others = (Object.keys(TRANSITIONS) as Trigger[]).filter((t) => !fired.has(t)).map((t) => {
    const way = OTHER_TRIGGERS[t];
    if (!way) throw new Error(`The catalogue has no way in for the trigger ${t}.`);
    return transitionEntry('transition', t, t, way.input, way.example);
  });
  return {
    object: 'catalog',
    sections: CATALOG_SECTIONS,
    older_names: { ...OLDER_NAMES },
    entries: [...magicEntries(), ...testValueEntries(), ...payrollEntries(), ...actions, ...others],
  };
}
