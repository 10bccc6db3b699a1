import { ApiError, type ErrorDetail } from '../core/errors.js';
import { plainSchema } from '../core/schema.js';
import type { Workspace } from '../core/workspace.js';
import { setScenario } from '../scenarios/scenario.autopilot.js';
import { evaluateExpectations, finalReport, type ExpectationReport } from '../scenarios/scenario.expect.js';
import { MAGIC_ADDRESSES } from '../scenarios/scenario.magic.js';
import { checkScenario, ScenarioError } from '../scenarios/scenario.load.js';
import { ScenarioSchema, type ScenarioDocument } from '../scenarios/scenario.schemas.js';
import { scenarioWarnings, type ScenarioWarning } from '../scenarios/scenario.warnings.js';

/**
 * Loading, showing and checking scenarios (docs/scenarios.md) for one workspace: over HTTP
 * under /_emulator and in-process through createEmulator().
 */

/** A scenario with mistakes is the caller's: 422 with every mistake, its path and a hint. */
export function scenarioRefusal(err: ScenarioError, prefix = ''): ApiError {
  const listed = err.mistakes.length;
  const count = err.atLeast ? `at least ${listed} mistakes` : `${err.total} mistake(s)`;
  const where = listed < err.total || err.atLeast ? `the first ${listed} are in details` : 'see details';
  const e = new ApiError('scenario_invalid', `The scenario has ${count}; ${where}.`, prefix || undefined);
  e.details = err.mistakes.map((m) => ({
    path: [prefix, m.path].filter(Boolean).join('.') || '(document)',
    message: m.message,
    ...(m.hint ? { hint: m.hint } : {}),
  }));
  return e;
}

/** Checks a document in full; a refusal carries every mistake. */
export function checkedScenario(data: unknown, prefix = ''): ScenarioDocument {
  try {
    return checkScenario(data);
  } catch (err) {
    throw err instanceof ScenarioError ? scenarioRefusal(err, prefix) : err;
  }
}

/** Replaces the workspace's scenario (null removes it); every onboarding is planned again from now. */
export function loadScenario(ws: Workspace, document: ScenarioDocument | null, source: string) {
  setScenario(ws, document, source);
  return describeScenario(ws);
}

const magicAddresses = () =>
  Object.entries(MAGIC_ADDRESSES).map(([local, m]) => ({ address: `${local}@example.com`, summary: m.summary }));

export function describeScenario(ws: Workspace) {
  const s = ws.scenario;
  return {
    loaded: s !== null,
    name: s?.document.name ?? null,
    source: s?.source ?? null,
    loaded_at: s?.loaded_at ?? null,
    document: s?.document ?? null,
    planned: [...ws.autopilot]
      .filter(([, p]) => p.timer !== null)
      .map(([id, p]) => ({ onboarding_id: id, rule: p.rule, step: p.step!, due_at: p.due_at! })),
    magic_addresses: magicAddresses(),
    warnings: s ? scenarioWarnings(s.document) : [],
  };
}

/** Checks without loading: every mistake is listed, nothing changes. */
/**
 * What POST /_emulator/scenarios/validate answers: every mistake with its path and, where it
 * helps, a hint; for a valid document, the parts that can do nothing as written.
 */
export interface ScenarioValidation {
  valid: boolean;
  name: string | null;
  rules: number;
  mistakes: ErrorDetail[];
  warnings: ScenarioWarning[];
}

export function validateScenario(data: unknown): ScenarioValidation {
  try {
    const doc = checkScenario(data);
    return { valid: true, name: doc.name ?? null, rules: doc.rules.length, mistakes: [], warnings: scenarioWarnings(doc) };
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    return { valid: false, name: null, rules: 0, mistakes: scenarioRefusal(err).details!, warnings: [] };
  }
}

/**
 * The schema the emulator checks scenario documents with, as a standalone JSON Schema, for an
 * editor (a YAML language server's `$schema` comment) or a partner's own check. Beyond it the
 * emulator reads every delay as a duration, which a schema cannot say.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...plainSchema(ScenarioSchema),
  };
}

/** The scenario's expectations, each passed, failed or pending against the workspace clock now. */
/** `final`: the verdict at the end of a run, a still-pending expectation failed. */
export function scenarioReport(ws: Workspace, final = false): ExpectationReport {
  const report = evaluateExpectations(ws);
  return final ? finalReport(report) : report;
}
