import type * as control from './control.service.js';
import type * as requests from './requests.service.js';
import type { describeScenario, scenarioReport } from './scenario.service.js';
import type { restoreWorkspace } from './snapshot.service.js';
import type { ErrorDetail } from '../core/errors.js';
import type { ScenarioWarning } from '../scenarios/scenario.warnings.js';
import type { ControlInput } from './control.call.js';
import { clientCalls, pathParams, type ClientCall, type ClientOf, type ControlRoute } from './control.row.js';
import { controlRows } from './control.table.js';

/**
 * The control interface (/_emulator) as a client sees it, transport-free, made from the control
 * rows: createEmulator()'s helpers run the rows in process (src/in-process.ts), the CLI and
 * Testcontainers send them over HTTP (src/cli/client.ts). The named answer types below are the
 * return types of the control services, for code that names them.
 */

/** What GET /_emulator/requests answers: a page of recorded requests, newest first, with the total matching and the number dropped. */
export type RequestPage = ReturnType<typeof requests.findRequests>;
type RequestVerification = ReturnType<typeof requests.verifyRequests>;

export type ClockState = ReturnType<typeof control.clockState>;
export type ClockMove = Awaited<ReturnType<typeof control.advanceClock>>;
export type KeyInfo = ReturnType<typeof control.listKeys>['data'][number];
export type CreatedWorkspace = ReturnType<typeof control.createWorkspace>;
export type WorkspaceInfo = ReturnType<typeof control.describeWorkspace>;
export type ResetWorkspace = ReturnType<typeof control.resetWorkspace>;
export type RestoredWorkspace = Awaited<ReturnType<typeof restoreWorkspace>>;
/** What GET, PUT and DELETE /_emulator/scenario answer: the loaded scenario and the next planned step of each driven onboarding. */
export type ScenarioState = ReturnType<typeof describeScenario>;
/** What GET /_emulator/scenario/report answers: each expectation of the scenario passed, failed or pending, and why. */
export type ScenarioReport = ReturnType<typeof scenarioReport>;
export type { ScenarioValidation } from './scenario.service.js';

type Methods = ClientOf<(typeof controlRows)[number]>;
/** The methods the control rows make, before a transport adds its own (`workspace.get`). */
export type ControlMethods = Methods;

/**
 * The control actions on one workspace, every one a promise so a remote transport fits: the
 * methods the control rows name (`client` in each row), and a client bound to another workspace.
 */
export interface ControlClient extends Methods {
  workspace: Methods['workspace'] & {
    /** The same interface bound to an existing workspace. */
    get(id: string): ControlClient;
  };
}

/** What a transport does with one row: runs or sends it with these parts and answers its JSON body. */
type Transport = (row: ControlRoute<never>, input: ControlInput) => Promise<unknown>;

/** The arguments of a client method as the parts of a request, by the row's `client.args`. */
function inputOf(row: ControlRoute<never>, call: ClientCall, args: unknown[]): ControlInput {
  const input: ControlInput = { params: {}, query: {} };
  if (call.args === 'body') input.body = args[0];
  else if (call.args === 'query') {
    // A filter's unset fields are left out, as a query string leaves them out.
    for (const [name, value] of Object.entries((args[0] ?? {}) as Record<string, unknown>)) if (value !== undefined) input.query[name] = value;
  } else {
    const params = new Set(pathParams(row));
    const query = (row.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const body: Record<string, unknown> = {};
    (call.args ?? []).forEach((name, i) => {
      if (params.has(name)) input.params[name] = String(args[i]);
      else if (name in query) {
        if (args[i] !== undefined) input.query[name] = args[i];
      } else body[name] = args[i];
    });
    if (Object.keys(body).length > 0) input.body = body;
  }
  Object.assign(input.query, call.query);
  return input;
}

/**
 * The methods of the control rows over one transport: the in-process helpers run the row, the
 * HTTP client sends it. Neither lists the methods: a row with `client` is a method of both.
 */
export function clientMethods(transport: Transport): Methods {
  const client: Record<string, unknown> = {};
  for (const row of controlRows as ControlRoute<never>[]) {
    for (const call of clientCalls(row)) {
      const names = call.name.split('.');
      let group = client;
      for (const name of names.slice(0, -1)) group = (group[name] ??= {}) as Record<string, unknown>;
      group[names.at(-1)!] = async (...args: unknown[]) => {
        const answer = await transport(row, inputOf(row, call, args));
        return call.pick === undefined ? answer : (answer as Record<string, unknown>)[call.pick];
      };
    }
  }
  return client as Methods;
}
