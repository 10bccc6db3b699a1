import { Type } from '../core/schema.js';
import { Literals, Nullable } from '../resources/common.schemas.js';
import { EVENT_TYPES } from '../resources/events/events.model.js';
import { TRANSITIONS } from '../resources/onboardings/onboardings.machine.js';
import { ONBOARDING_STATUSES } from '../resources/onboardings/onboardings.model.js';

const Strict = { additionalProperties: false } as const;
const Status = Literals(ONBOARDING_STATUSES);

export const StateMachineQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('mermaid')], { description: 'json (default), or mermaid: the diagram alone, as text/plain' })) },
  Strict,
);

const GuardSchema = Type.Object(
  {
    code: Type.String({ description: 'the error code the check refuses with' }),
    requires: Type.String({ description: 'what must hold, in a few words' }),
  },
  { title: 'StateMachineGuard' },
);

const TriggerSchema = Type.Object(
  {
    name: Literals(Object.keys(TRANSITIONS)),
    from: Type.Array(Status, { description: 'the statuses it may start in; empty for creation' }),
    to: Nullable(Status),
    events: Type.Array(Literals(EVENT_TYPES)),
    refusal: Type.Object(
      { code: Type.String(), message: Type.String() },
      { description: 'the 409 when the status is not in from (terminal statuses answer terminal_refusals)' },
    ),
    guards: Type.Array(GuardSchema, { description: 'checks beyond the status, made before the table decides' }),
    chosen_when: Nullable(Type.String({ description: 'for two triggers of one action: when this one runs' })),
  },
  { title: 'StateMachineTrigger' },
);

export const StateMachineSchema = Type.Object(
  {
    object: Type.Literal('state_machine'),
    initial: Status,
    states: Type.Array(Type.Object({ name: Status, terminal: Type.Boolean() })),
    triggers: Type.Array(TriggerSchema),
    terminal_refusals: Type.Object({ completed: Type.String(), cancelled: Type.String() }, { description: 'the code every trigger answers once the onboarding is in this terminal status' }),
    mermaid: Type.String({ description: 'the table as a Mermaid stateDiagram-v2; triggers that keep the status are in notes' }),
  },
  { title: 'StateMachine' },
);
