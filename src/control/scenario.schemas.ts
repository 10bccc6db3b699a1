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
