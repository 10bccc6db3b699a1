import type * as control from './control.service.js';
import type * as requests from './requests.service.js';
import type { describeScenario, scenarioReport } from './scenario.service.js';
import type { restoreWorkspace } from './snapshot.service.js';
import type { ErrorDetail } from '../core/errors.js';
import type { ScenarioWarning } from '../scenarios/scenario.warnings.js';
import type { ClientOf, ControlRoute } from '../operations/control-row.js';
import { rowMethods, type Transport } from '../operations/client-methods.js';
import { controlRows } from './control.table.js';

/**
 * The control interface (/_emulator) as a client sees it, transport-free, made from the control
 * rows: createEmulator()'s helpers run the rows in process (src/in-process.ts), the CLI and
 * Testcontainers send them over HTTP (src/client/http.ts). The named answer types below are the
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

/**
 * The methods of the control rows over one transport: the in-process helpers run the row, the
 * HTTP client sends it. Neither lists the methods: a row with `client` is a method of both.
 */
export const clientMethods = (transport: Transport): Methods => rowMethods(controlRows as ControlRoute<never>[], transport) as Methods;
