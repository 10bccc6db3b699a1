import { Type } from '../core/schema.js';
import { DateTime, Nullable } from '../resources/common.schemas.js';
import { ScenarioSchema } from '../scenarios/scenario.schemas.js';

const Mistake = Type.Object({ path: Type.String(), message: Type.String(), hint: Type.Optional(Type.String()) });
const Warnings = Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
  description: 'parts of the scenario that can do nothing as written (a rule no onboarding reaches, a step after a never); the scenario is valid and loads all the same',
});

export const ScenarioState = Type.Object(
  {
    loaded: Type.Boolean(),
    name: Nullable(Type.String()),
    source: Nullable(Type.String({ description: 'a file name, "api" or "workspace"' })),
    loaded_at: Nullable(DateTime),
    document: Nullable(ScenarioSchema),
    planned: Type.Array(
      Type.Object({ onboarding_id: Type.String(), rule: Type.String(), step: Type.String(), due_at: DateTime }),
      { description: 'the next scripted step of every onboarding the autopilot drives' },
    ),
    magic_addresses: Type.Array(Type.Object({ address: Type.String(), summary: Type.String() })),
    warnings: Warnings,
  },
  { title: 'ScenarioState' },
);

export const ScenarioValidation = Type.Object(
  { valid: Type.Boolean(), name: Nullable(Type.String()), rules: Type.Integer(), mistakes: Type.Array(Mistake), warnings: Warnings },
  { title: 'ScenarioValidation' },
);

/** Accepts any object: the scenario checks report every mistake, not just the first. */
export const AnyDocument = Type.Object({}, { description: 'a scenario document (docs/scenarios.md)' });

const Outcome = Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('pending')]);

export const ScenarioReport = Type.Object(
  {
    scenario: Nullable(Type.String({ description: "the scenario's name" })),
    now: DateTime,
    final: Type.Boolean({ description: 'the verdict at the end of a run (?final=true): what was still pending failed, "not reached by the end of the run"' }),
    passed: Type.Integer(),
    failed: Type.Integer(),
    pending: Type.Integer(),
    expectations: Type.Array(Type.Object({
      name: Type.String(),
      kind: Type.Union([Type.Literal('onboarding'), Type.Literal('delivered'), Type.Literal('after'), Type.Literal('never')]),
      status: Outcome,
      reason: Type.String({ description: 'why: which onboardings, events or requests, when due, what was seen' }),
      details: Type.Array(Type.Object({
        subject: Type.String({ description: 'the onboarding, event or request id' }),
        status: Outcome,
        due_at: Nullable(DateTime),
        seen_at: Nullable(DateTime),
        reason: Type.String(),
      })),
    })),
  },
  { title: 'ScenarioReport', description: "the scenario's expect entries, worked out against the workspace clock at the time of asking" },
);

export const ScenarioReportQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('junit'), Type.Literal('ctrf')], { description: 'junit: JUnit XML, a pending expectation skipped; ctrf: a CTRF report (JSON), a pending expectation pending' })),
    final: Type.Optional(Type.Boolean({ description: 'true: the verdict at the end of a run; a still-pending expectation fails, "not reached by the end of the run" (a CI gate that cannot pass on a run that did nothing)' })),
  },
  { additionalProperties: false },
);
