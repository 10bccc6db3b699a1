import { FAULT_METHODS } from '../core/faults.js';
import { Type, type Static } from '../core/schema.js';
import { DELIVERY_FAULT_LIMITS } from '../delivery-faults/delivery-faults.js';
import { DeliveryFaultKindSchema, UrlPattern } from '../delivery-faults/delivery-faults.schemas.js';
import { Literals } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { ONBOARDING_STATUSES } from '../resources/onboardings/onboardings.model.js';
import { TermsBody } from '../resources/onboardings/onboardings.schemas.js';
import { ROLES } from '../resources/organizations/organizations.model.js';

/**
 * The scenario document (docs/scenarios.md): rules that select onboardings
 * and script what the people around them do, each step a delay on the workspace clock counted
 * from the step before it. One definition validates files, PUT /_emulator/scenario and the
 * published OpenAPI document.
 */

/** Read after "must be" when a delay has the wrong type (scenario.load.ts), and in the OpenAPI document. */
const DURATION = 'a duration such as "90m", "1h30m", "2d" or "PT2H", or a number of seconds';

/** A delay on the workspace clock; checked further by parseDuration (scenario.load.ts). */
export const Delay = Type.Union([Type.Number({ minimum: 0 }), Type.String({ minLength: 1, maxLength: 40 })], { description: DURATION });
/** A delay, or "never": the step does not happen by itself. */
export const DelayOrNever = Type.Union([Type.Literal('never'), Type.Number({ minimum: 0 }), Type.String({ minLength: 1, maxLength: 40 })], {
  description: `${DURATION}, or "never"`,
});

/** Literals whose description says what the choice means: a wrong value's hint names the values, then this. */
const Choice = <const T extends readonly string[]>(values: T, description: string) => Type.Unsafe<T[number]>({ ...Literals(values), description });

const Strict = { additionalProperties: false } as const;
const Pattern = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const Match = Type.Object(
  {
    all: Type.Optional(Type.Unsafe<true>({ ...Type.Literal(true), description: '{"all": true} selects every onboarding; to select fewer, leave all out and give other conditions' })),
    reference: Type.Optional(Pattern('the onboarding reference; * matches any run of characters, ? one character')),
    email: Type.Optional(Pattern("the employee's e-mail address (case-insensitive); * and ? as in reference")),
    name: Type.Optional(Pattern('"first last" of the employee (case-insensitive); * and ? as in reference')),
    template: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'the template id of the workflow' })),
    metadata: Type.Optional(
      Type.Unsafe<Record<string, string | number | boolean>>({
        type: 'object',
        minProperties: 1,
        maxProperties: 20,
        additionalProperties: { anyOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }] },
        description: 'every key given must hold exactly this value',
      }),
    ),
  },
  { ...Strict, minProperties: 1, description: 'every condition given must hold; {"all": true} selects every onboarding' },
);

const EmployeeScript = Type.Object(
  {
    opens: Type.Optional(DelayOrNever),
    submits: Type.Optional(DelayOrNever),
    signs: Type.Optional(DelayOrNever),
  },
  { ...Strict, description: 'opens: after the invitation; submits: after opening (or after a return); signs: after the contract was sent' },
);

const Corrections = Type.Object(
  {
    to: Choice(['employee', 'manager'], 'who gets the data back: the employee, who submits again, or the manager, who corrects it after manager_corrects'),
    times: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'how many submissions are returned; default 1' })),
    after: Delay,
  },
  { ...Strict, description: 'the reviewer returns the data for correction this long after the identity check' },
);

const TermsChange = Type.Object(
  {
    when: Type.Optional(Choice(['in_review', 'after_approval'], 'in_review, the default, counts from the identity check, after_approval from the last approval')),
    after: Delay,
    terms: TermsBody,
  },
  { ...Strict, description: 'the employer changes the employment terms once: during the review (default) or after the last approval' },
);

const Approvals = Type.Union(
  [
    DelayOrNever,
    Type.Unsafe<Partial<Record<(typeof ROLES)[number], number | string>>>({
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: Object.fromEntries(ROLES.map((r) => [r, DelayOrNever])),
    }),
  ],
  { description: 'one delay (or "never") for every required role, or an object with a delay per role; each counts from the step before' },
);

const ReviewScript = Type.Object(
  {
    identity_check: Type.Optional(DelayOrNever),
    approvals: Type.Optional(Approvals),
    corrections: Type.Optional(Corrections),
    manager_corrects: Type.Optional(DelayOrNever),
    terms_change: Type.Optional(TermsChange),
  },
  { ...Strict, description: 'identity_check: after the submission; manager_corrects: after a return to the manager' },
);

const ContractScript = Type.Object(
  {
    sent: Type.Optional(DelayOrNever),
    employer_signs: Type.Optional(DelayOrNever),
  },
  { ...Strict, description: 'sent: after the last approval (else the client sends it); employer_signs: after the employee signed' },
);

const PayrollScript = Type.Object(
  {
    connector: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: "instead of the organization's payroll connector" })),
    outcome: Type.Optional(Choice(['success', 'failure'], "left out, the organization's payroll_failure switch decides")),
    after: Type.Optional(DelayOrNever),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_]+$', description: 'failure only; default payroll_rejected' })),
    resolved: Type.Optional(DelayOrNever),
  },
  { ...Strict, description: 'after: after the employer signed; resolved: after a failure, the fix (default never)' },
);

export const ScenarioRule = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    match: Match,
    employee: Type.Optional(EmployeeScript),
    review: Type.Optional(ReviewScript),
    contract: Type.Optional(ContractScript),
    payroll: Type.Optional(PayrollScript),
  },
  { ...Strict, title: 'ScenarioRule' },
);

export const ScenarioDeliveryFault = Type.Object(
  {
    kind: DeliveryFaultKindSchema,
    url: Type.Optional(UrlPattern),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: DELIVERY_FAULT_LIMITS.count, description: 'how many messages it applies to; default 1, or every message of its window when for is given' })),
    after: Type.Optional(Delay),
    for: Type.Optional(Delay),
    delay: Type.Optional(Delay),
  },
  {
    ...Strict,
    title: 'ScenarioDeliveryFault',
    description:
      'a fault on webhook messages, as POST /_emulator/delivery-faults takes it, with delays for instants: after: when its window starts, counted from the loading (default at once); ' +
      'for: how long the window lasts; delay: duplicate: until the copy, delay: how late (required), reorder: the longest hold',
  },
);

/** The request fields of the journal's matcher (GET /_emulator/requests) an expectation finds requests by. */
export const ExpectRequest = Type.Object(
  {
    method: Type.Optional(Choice(FAULT_METHODS, 'the HTTP method')),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 300, pattern: '^/', description: 'an exact path, or a prefix ending in * (/v1/onboardings*); in after, {onboarding_id} stands for the onboarding of the event' })),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'the answer\'s HTTP status' })),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "the error envelope's code" })),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'the Idempotency-Key sent, exactly' })),
    has_idempotency_key: Type.Optional(Type.Boolean({ description: 'whether an Idempotency-Key was sent at all' })),
    replayed: Type.Optional(Type.Boolean({ description: 'whether the answer was the replay of an earlier one' })),
  },
  { ...Strict, minProperties: 1, description: 'every field given must hold for a recorded request: method, path, status, error_code, idempotency_key, has_idempotency_key, replayed' },
);

const EventType = Choice(EVENT_TYPES, 'an event type of the API');

export const ScenarioExpectation = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'how the report names it; default a summary of the expectation' })),
    onboarding: Type.Optional(Type.Object(
      {
        match: Type.Optional(Match),
        reaches: Choice(ONBOARDING_STATUSES, 'the status every matching onboarding must reach'),
        within: Delay,
      },
      { ...Strict, description: 'every onboarding match selects (left out: every test onboarding) reaches the status within the delay, counted from its creation' },
    )),
    delivered: Type.Optional(Type.Object(
      { event: EventType, within: Delay },
      { ...Strict, description: 'every event of this type has a webhook delivery that succeeded within the delay, counted from the event' },
    )),
    after: Type.Optional(Type.Object(
      { event: EventType, request: ExpectRequest, within: Delay },
      { ...Strict, description: 'after every event of this type, the integration makes a matching request within the delay' },
    )),
    never: Type.Optional(ExpectRequest),
  },
  { ...Strict, title: 'ScenarioExpectation', description: 'name, and exactly one of onboarding, delivered, after and never' },
);

export const EXPECTATION_KINDS = ['onboarding', 'delivered', 'after', 'never'] as const;
export type ExpectationKind = (typeof EXPECTATION_KINDS)[number];

/** Delivery faults and expectations a scenario declares at most. */
export const DELIVERY_FAULTS_MAX = 50;
export const EXPECT_MAX = 100;

export const ScenarioSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal(1)),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    rules: Type.Array(ScenarioRule, { maxItems: 200, description: 'the first rule that matches an onboarding drives it' }),
    delivery_faults: Type.Optional(Type.Array(ScenarioDeliveryFault, { maxItems: DELIVERY_FAULTS_MAX, description: 'faults on webhook messages, added when the scenario is loaded (and after a reset), replacing those of the scenario before' })),
    expect: Type.Optional(Type.Array(ScenarioExpectation, { maxItems: EXPECT_MAX, description: 'what should happen, checked against the workspace clock: GET /_emulator/scenario/report' })),
  },
  { ...Strict, title: 'Scenario', description: 'docs/scenarios.md' },
);

export type ScenarioDocument = Static<typeof ScenarioSchema>;
export type ScenarioRule = Static<typeof ScenarioRule>;
export type ScenarioDeliveryFault = Static<typeof ScenarioDeliveryFault>;
export type ScenarioMatch = Static<typeof Match>;
export type ScenarioExpectation = Static<typeof ScenarioExpectation>;
export type ExpectRequest = Static<typeof ExpectRequest>;
export type DelayValue = Static<typeof DelayOrNever>;
