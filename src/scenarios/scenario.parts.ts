import type { ErrorDetail } from '../core/errors.js';
import { Type, type TSchema } from '../core/schema.js';
import type { WorkspacePart } from '../core/workspace.js';
import { checkScenario, ScenarioError } from './scenario.load.js';
import type { AutopilotProgress, LoadedScenario } from './scenario.model.js';

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);

/**
 * The loaded scenario. A reset keeps it (docs/scenarios.md): what a reset makes afresh is
 * the scenario the workspace plays, none at creation, until the emulator loads its own.
 */
export const SCENARIO_PART: WorkspacePart<'scenario'> = {
  name: 'scenario',
  create: (ws) => ws.scenario ?? null,
  save: (scenario) => scenario,
  load: (saved) => saved,
  schema: Type.Unsafe<LoadedScenario | null>(Nullable(Type.Object({ document: Type.Object({}), source: Type.String(), loaded_at: Instant }))),
  // The document is checked as PUT /_emulator/scenario checks it: the autopilot plays what it says.
  check(saved) {
    if (!saved) return [];
    try {
      checkScenario(saved.document);
      return [];
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err;
      return err.mistakes.map((m): ErrorDetail => ({ path: ['scenario.document', m.path].filter(Boolean).join('.'), message: m.message }));
    }
  },
};

const AutopilotSchema = Type.Object({
  rule: Str,
  step: Nullable(Type.String()),
  timer: Nullable(Type.Integer()),
  due_at: Nullable(Instant),
  corrections: Type.Integer({ minimum: 0 }),
  terms_changed: Type.Boolean(),
});

/** The autopilot's progress per onboarding: a Map live, an object keyed by onboarding id in a snapshot. */
export const AUTOPILOT_PART: WorkspacePart<'autopilot'> = {
  name: 'autopilot',
  create: () => new Map(),
  save: (progress) => Object.fromEntries(progress),
  load: (saved) => new Map(Object.entries(saved)),
  schema: Type.Unsafe<Record<string, AutopilotProgress>>({ type: 'object', additionalProperties: AutopilotSchema }),
};
