import { basename } from 'node:path';
import type { FaultInput } from './core/faults.js';
import type { DeliveryFaultInput } from './delivery-faults/delivery-faults.js';
import { CreateDeliveryFaultBody } from './delivery-faults/delivery-faults.schemas.js';
import * as deliveryFaults from './control/delivery-faults.service.js';
import type { Workspace } from './core/workspace.js';
import { DEFAULT_HOST } from './core/product.js';
import { check, compile } from './core/validation.js';
import { ApiError } from './core/errors.js';
import type { ControlClient, CreatedWorkspace, ResetWorkspace, ScenarioReport, ScenarioState, ScenarioValidation } from './control/control.client.js';
import { DEFAULT_WORKSPACE, Emulator, type EmulatorOptions, type WorkspaceInput } from './emulator.js';
import { createApp, type App, type AppOptions } from './http/app.js';
import { listen, type RunningServer } from './http/server.js';
import { AdvanceBody, CreateFaultBody, CreateWorkspaceBody, SetClockBody } from './control/control.schemas.js';
import { OutboxQuery } from './control/onboarding-actions.schemas.js';
import { RequestsQuery, VerifyRequestsBody } from './control/requests.schemas.js';
import * as requests from './control/requests.service.js';
import { stateMachineView } from './resources/onboardings/onboardings.machine.view.js';
import { ReceiverCheckBody } from './control/receiver-check.schemas.js';
import { receiverCheck } from './control/receiver-check.service.js';
import * as control from './control/control.service.js';
import { restoreWorkspace, snapshotWorkspace } from './control/snapshot.service.js';
import { checkedScenario, describeScenario, loadScenario, scenarioRefusal, scenarioReport, validateScenario } from './control/scenario.service.js';
import { mergeScenarios, readScenarioFile, ScenarioError, ScenarioFileError } from './scenarios/scenario.load.js';
import type { ScenarioDocument } from './scenarios/scenario.schemas.js';
import { openStateFile } from './persistence/state-file.js';

/**
 * The in-process transport of the control interface (one interface, two transports; see
 * docs/architecture.md, "Add a control action"): each helper checks its
 * input against the schema the /_emulator route declares, then calls the same function of
 * src/control/control.service.ts the route calls. Errors are the same ApiError (code, message,
 * param) the HTTP transport renders as its envelope. Every helper returns a promise, so an HTTP
 * client can implement the same interface.
 */
const valid = {
  advance: compile<{ by: string | number }>(AdvanceBody),
  set: compile<{ now: string }>(SetClockBody),
  fault: compile<FaultInput>(CreateFaultBody),
  deliveryFault: compile<DeliveryFaultInput>(CreateDeliveryFaultBody),
  workspace: compile<WorkspaceInput>(CreateWorkspaceBody),
  outbox: compile<control.OutboxFilter>(OutboxQuery),
  requests: compile<requests.RequestsFilter>(RequestsQuery),
  verify: compile<VerifyRequestsBody>(VerifyRequestsBody),
  receiverCheck: compile<ReceiverCheckBody>(ReceiverCheckBody),
};

export type {
  ClockState, ClockMove, KeyInfo, CreatedWorkspace, WorkspaceInfo, ResetWorkspace, RestoredWorkspace, ScenarioState, ScenarioValidation, ScenarioReport, ControlClient,
} from './control/control.client.js';
export type { WorkspaceSnapshot } from './persistence/snapshot.js';
export type { Fault, FaultInput } from './core/faults.js';
;
export type { OutboxMail } from './resources/onboardings/onboardings.outbox.js';
export type { OutboxFilter } from './control/control.service.js';
export type { ScenarioDocument, ScenarioRule, ScenarioMatch, ScenarioExpectation } from './scenarios/scenario.schemas.js';
export type { ScenarioWarning } from './scenarios/scenario.warnings.js';

/**
 * A scenario document, a JSON or YAML file, a ready scenario by name ("happy-path": the
 * package's scenarios/happy-path.yaml), or several of these played as one (their rules in the order given).
 */
export type ScenarioInput = ScenarioDocument | string | readonly string[];

/**
 * The control helpers, acting on one workspace: the ControlClient every transport implements,
 * plus what only the in-process one can give (its workspace id, helpers bound to a new
 * workspace, scenario files read here).
 */
export interface ControlHelpers extends ControlClient {
  readonly workspaceId: string;
  workspace: {
    /** A new isolated workspace: its id, keys and clock, and helpers bound to it. */
    create(input?: WorkspaceInput): Promise<CreatedWorkspace & { handle: ControlHelpers }>;
    /** Helpers bound to an existing workspace. */
    get(id: string): ControlHelpers;
    /** Back to the fixtures, clock and random sequence this workspace started with. */
    reset(): Promise<ResetWorkspace>;
  };
  scenario: {
    /**
     * Replaces the workspace's scenario and plans every onboarding again from now. A document
     * or file with mistakes throws ApiError scenario_invalid with every mistake in `details`.
     */
    load(input: ScenarioInput): Promise<ScenarioState>;
    get(): Promise<ScenarioState>;
    /** Removes it; planned steps are cancelled (magic e-mail addresses still play). */
    clear(): Promise<ScenarioState>;
    /** Checks a document (or one file or ready scenario, given its path or name) without loading it; never throws for mistakes. */
    validate(input: unknown): Promise<ScenarioValidation>;
    /** Its expectations (expect:), each passed, failed or pending against the workspace clock now. */
    report(): Promise<ScenarioReport>;
  };
}

/** A refusal naming the file the mistakes are in (the details hold the paths inside it), or saying it could not be read. */
function fileRefusal(err: ScenarioError): ApiError {
  const refusal = scenarioRefusal(err);
  const message = err instanceof ScenarioFileError ? `${err.reason}.` : `${err.source} is not a valid scenario: ${err.mistakes.length} mistake(s); see details.`;
  const e = new ApiError('scenario_invalid', message);
  e.details = refusal.details;
  return e;
}

/** A document is checked as PUT /_emulator/scenario checks it; files are read as `--scenario` reads them. */
function scenarioInput(input: ScenarioInput): { document: ScenarioDocument; source: string } {
  if (typeof input === 'object' && !Array.isArray(input)) return { document: checkedScenario(input), source: 'api' };
  const files: readonly string[] = typeof input === 'string' ? [input] : input;
  if (files.length === 0) throw fileRefusal(new ScenarioError([{ path: '', message: 'no scenario file given' }], 'an empty list'));
  try {
    return { document: mergeScenarios(files.map((f) => readScenarioFile(f))), source: files.map((f) => basename(f)).join(', ') };
  } catch (err) {
    throw err instanceof ScenarioError ? fileRefusal(err) : err;
  }
}

function scenarioValidation(input: unknown): ScenarioValidation {
  if (typeof input !== 'string') return validateScenario(input);
  try {
    return validateScenario(readScenarioFile(input));
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    return { valid: false, name: null, rules: 0, mistakes: scenarioRefusal(err).details ?? [], warnings: [] };
  }
}

/**
 * Runs fn on the workspace as it is now, so a deleted workspace answers workspace_not_found;
 * then says the workspace may have changed (what the HTTP transport does after a request).
 */
function helpers(emulator: Emulator, workspaceId: string): ControlHelpers {
  const on = <T>(fn: (ws: Workspace) => T | Promise<T>): Promise<T> =>
    Promise.resolve().then(async () => {
      const ws = emulator.workspace(workspaceId);
      try {
        return await fn(ws);
      } finally {
        emulator.changed(ws);
      }
    });
  return {
    workspaceId,
    clock: {
      now: () => on((ws) => control.clockState(ws).now),
      state: () => on(control.clockState),
      advance: (by) => on((ws) => control.advanceClock(ws, check(valid.advance, { by }).by)),
      set: (iso) => on((ws) => control.setClock(ws, check(valid.set, { now: iso }).now)),
    },
    outbox: (filter = {}) => on((ws) => control.listOutbox(ws, check(valid.outbox, filter))),
    keys: () => on((ws) => control.listKeys(ws).data),
    workspace: {
      create: (input = {}) =>
        Promise.resolve().then(() => {
          const created = control.createWorkspace(emulator, check(valid.workspace, input));
          return { ...created, handle: helpers(emulator, created.id) };
        }),
      get: (id) => {
        emulator.workspace(id); // workspace_not_found now rather than on first use
        return helpers(emulator, id);
      },
      reset: () => on((ws) => control.resetWorkspace(emulator, ws)),
    },
    snapshot: () => on((ws) => snapshotWorkspace(emulator, ws)),
    restore: (snapshot) => on((ws) => restoreWorkspace(emulator, ws, snapshot)),
    scenario: {
      load: (input) => on((ws) => {
        const { document, source } = scenarioInput(input);
        return loadScenario(ws, document, source);
      }),
      get: () => on(describeScenario),
      clear: () => on((ws) => loadScenario(ws, null, 'api')),
      validate: (input) => Promise.resolve().then(() => scenarioValidation(input)),
      report: () => on(scenarioReport),
    },
    faults: {
      add: (input) => on((ws) => control.addFault(ws, check(valid.fault, input))),
      list: () => on(control.listFaults),
      remove: (id) => on((ws) => control.removeFault(ws, id)),
      clear: () => on(control.clearFaults),
    },
    deliveryFaults: {
      add: (input) => on((ws) => deliveryFaults.addDeliveryFault(ws, check(valid.deliveryFault, input))),
      list: () => on(deliveryFaults.listDeliveryFaults),
      remove: (id) => on((ws) => deliveryFaults.removeDeliveryFault(ws, id)),
      clear: () => on(deliveryFaults.clearDeliveryFaults),
    },
    requests: {
      find: (filter = {}) => on((ws) => requests.findRequests(ws, check(valid.requests, filter))),
      verify: (matcher, expected) => on((ws) => requests.verifyRequests(ws, check(valid.verify, { matcher, expected }))),
      clear: () => on(requests.clearRequests),
    },
    stateMachine: () => Promise.resolve().then(stateMachineView),
    // The workspace only lends its delivery settings: no change to announce.
    receiverCheck: (input) => Promise.resolve().then(() => receiverCheck(emulator.workspace(workspaceId), check(valid.receiverCheck, input))),
  };
}

export interface InProcessEmulator extends ControlHelpers {
  emulator: Emulator;
  /** The Express app, for supertest without a port. */
  app: App;
  /** A new server on its own; start() and close() manage the emulator's own one. */
  listen(port?: number, host?: string): Promise<RunningServer>;
  /** Listens on 127.0.0.1 (port 0: a free port); a second call returns the running server's URL. */
  start(port?: number, host?: string): Promise<{ url: string }>;
  /** Stops the server start() began (nothing to do if none runs); with stateFile, writes the state a last time (later changes are not written). */
  close(): Promise<void>;
  /** The base URL while started, otherwise null. */
  readonly url: string | null;
}

export interface InProcessOptions extends EmulatorOptions, AppOptions {
  /**
   * Keeps the default workspace in this JSON file (a snapshot document), as `--state-file`
   * does: restored now if the file exists (a bad file throws and is left untouched), created
   * otherwise, written before every answer and after every other change, and written once
   * more by close(), after which it is no longer written.
   */
  stateFile?: string | undefined;
  /** With stateFile: start from the fixtures and overwrite the file whatever it holds. */
  resetState?: boolean | undefined;
}

/**
 * In-process use from a Node test suite: the emulator, its Express app (for supertest), a
 * server on 127.0.0.1 when a real port is wanted, and the control helpers on the default
 * workspace.
 */
export function createEmulator(options: InProcessOptions = {}): InProcessEmulator {
  const emulator = new Emulator(options);
  const state = options.stateFile === undefined ? undefined : openStateFile(emulator, { path: options.stateFile, reset: options.resetState });
  // Every answer waits for the state file to hold what its request changed.
  const appOptions = state ? { ...options, commit: () => state.commit() } : options;
  const app = createApp(emulator, appOptions);
  const serve = (port: number, host: string) => listen(emulator, { ...appOptions, port, host });
  let running: Promise<RunningServer> | null = null;
  let url: string | null = null;
  return {
    ...helpers(emulator, DEFAULT_WORKSPACE),
    emulator,
    app,
    listen: (port = 0, host = DEFAULT_HOST) => serve(port, host),
    async start(port = 0, host = DEFAULT_HOST) {
      running ??= serve(port, host).catch((err: unknown) => {
        running = null;
        throw err;
      });
      url = (await running).url;
      return { url };
    },
    async close() {
      const server = running;
      running = null;
      url = null;
      if (server) await (await server).close();
      await state?.close();
    },
    get url() {
      return url;
    },
  };
}
