import type { ControlHost } from './control.host.js';
import { Type } from '../core/schema.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { JsonFile, ok, RawFile, type Reply } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { ScenarioSchema } from '../scenarios/scenario.schemas.js';
import { expectationsCtrf, expectationsJunit, type ExpectationReport } from '../scenarios/scenario.expect.js';
import type { CtrfReport } from '../core/ctrf.js';
import { CtrfReportSchema } from './ctrf.schemas.js';
import { AnyDocument, ScenarioReport, ScenarioReportQuery, ScenarioState, ScenarioValidation } from './scenario.schemas.js';
import { checkedScenario, describeScenario, loadScenario, scenarioJsonSchema, scenarioReport, validateScenario } from './scenario.service.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Scenarios';
/** A test suite in any language can send a scenario file as it is, YAML included. */
const bodyTypes = ['json', 'yaml'] as const;

export const scenarioRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'PUT', path: '/_emulator/scenario',
    operationId: 'loadScenario', summary: "Load a scenario (JSON, or YAML as application/yaml) into the workspace, replacing its scenario; the autopilot plans every onboarding from now",
    body: ScenarioSchema,
    bodyTypes,
    // Every mistake at once, with paths and hints, before the schema's first-mistake check.
    guard: (body) => void checkedScenario(body),
    responses: { 200: { description: 'The loaded scenario and what it planned', schema: ScenarioState }, 422: errors },
    client: { name: 'scenario.load', args: 'body' },
    handle: (ctx) => ok(loadScenario(ctx.workspace, ctx.body, 'api')),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/scenario',
    operationId: 'getScenario', summary: 'The loaded scenario, the steps it has planned, and the magic e-mail addresses',
    responses: { 200: { description: 'Scenario state', schema: ScenarioState } },
    client: { name: 'scenario.get' },
    handle: (ctx) => ok(describeScenario(ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/scenario/report',
    operationId: 'scenarioReport', summary: "The scenario's expectations (expect:), each passed, failed or pending against the workspace clock now, and why; ?final=true fails what is still pending (the end of a run); ?format=junit answers JUnit XML, ?format=ctrf a CTRF JSON report",
    query: ScenarioReportQuery,
    responses: { 200: { description: 'The report (JSON), JUnit XML with format=junit, or a CTRF report (JSON) with format=ctrf', schema: Type.Union([ScenarioReport, CtrfReportSchema]), media: ['application/xml'] } },
    client: [{ name: 'scenario.report', args: ['final'] }, { name: 'scenario.reportCtrf', args: ['final'], query: { format: 'ctrf' } }],
    // The answer's forms named apart: a JsonFile is a RawFile, and the client types CTRF by it.
    handle: (ctx): Reply<ExpectationReport | RawFile | JsonFile<CtrfReport>> => {
      const report = scenarioReport(ctx.workspace, ctx.query.final);
      if (ctx.query.format === 'ctrf') return ok(new JsonFile(expectationsCtrf(report)));
      return ok(ctx.query.format === 'junit' ? new RawFile(new TextEncoder().encode(expectationsJunit(report)), 'application/xml; charset=utf-8') : report);
    },
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/scenario',
    operationId: 'removeScenario', summary: 'Remove the scenario: only magic e-mail addresses still play by themselves',
    responses: { 200: { description: 'Scenario state', schema: ScenarioState } },
    client: { name: 'scenario.clear' },
    handle: (ctx) => ok(loadScenario(ctx.workspace, null, 'api')),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'GET', path: '/_emulator/scenarios/schema',
    operationId: 'scenarioJsonSchema', summary: 'The JSON Schema (draft 2020-12) of scenario documents, the one the emulator checks with: for editors and your own checks',
    responses: { 200: { description: 'A JSON Schema document', schema: AnyDocument } },
    handle: () => ok(scenarioJsonSchema()),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'POST', path: '/_emulator/scenarios/validate',
    operationId: 'validateScenario', summary: 'Check a scenario document (JSON, or YAML as application/yaml) without loading it: every mistake with its path and a hint, and what can do nothing',
    body: AnyDocument,
    bodyTypes,
    responses: { 200: { description: 'valid, or the mistakes', schema: ScenarioValidation } },
    client: { name: 'scenario.validate', args: 'body' },
    handle: (ctx) => ok(validateScenario(ctx.body)),
  }),
] satisfies ControlRoute<ControlHost>[];
