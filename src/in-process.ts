import { basename } from 'node:path';
import { DEFAULT_BASE_URL, DEFAULT_HOST } from './core/product.js';
import { ApiError } from './core/errors.js';
import type { CtrfReport } from './core/ctrf.js';
import { localMethods, onWorkspace } from './control/control.local.js';
import { type ControlClient, type CreatedWorkspace, type ResetWorkspace, type ScenarioReport, type ScenarioState, type ScenarioValidation } from './control/control.client.js';
import { DEFAULT_WORKSPACE, Emulator, type EmulatorOptions, type WorkspaceInput } from './emulator.js';
import { createApp, type App, type AppOptions } from './http/app.js';
import { buildOpenApi } from './http/openapi.js';
import { listen, type RunningServer } from './http/server.js';
import { loadScenario, scenarioRefusal, validateScenario } from './control/scenario.service.js';
import { mergeScenarios, readScenarioFile, ScenarioError, ScenarioFileError } from './scenarios/scenario.load.js';
import type { ScenarioDocument } from './scenarios/scenario.schemas.js';
import { openStateFile, repairMessage } from './persistence/state-file.js';

/**
 * The in-process transport of the control interface (one interface, two transports; see
 * docs/architecture.md, "Add a control action"): each helper runs the control row it is made
 * from (src/control/control.local.ts), checked against the row's schemas as over HTTP, and
 * answers the JSON the route would send. Errors are the same ApiError (code, message, param)
 * the HTTP transport renders as its envelope.
 */
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
  /** The workspaces (`list()`, `describe(id)`, `delete(id)`, `reset()` of this one) as the control API has them, and: */
  workspace: Omit<ControlClient['workspace'], 'create' | 'get'> & {
    /** A new isolated workspace: its id, keys and clock, and helpers bound to it. */
    create(input?: WorkspaceInput): Promise<CreatedWorkspace & { handle: ControlHelpers }>;
    /** Helpers bound to an existing workspace. */
    get(id: string): ControlHelpers;
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
    /**
     * Checks a document (or one file or ready scenario, given its path or name) without loading
     * it; never throws for mistakes in a document (a value that is no object at all is refused
     * with 422, as over HTTP).
     */
    validate(input: unknown): Promise<ScenarioValidation>;
    /**
     * Its expectations (expect:), each passed, failed or pending against the workspace clock now;
     * `final`: the verdict at the end of a run, a still-pending expectation failed.
     */
    report(final?: boolean): Promise<ScenarioReport>;
    /** The same report as a CTRF test report (GET /_emulator/scenario/report?format=ctrf): a pending expectation pending, unless `final`. */
    reportCtrf(final?: boolean): Promise<CtrfReport>;
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

/** Files are read as `--scenario` reads them. */
function scenarioFiles(input: string | readonly string[]): { document: ScenarioDocument; source: string } {
  const files: readonly string[] = typeof input === 'string' ? [input] : input;
  if (files.length === 0) throw fileRefusal(new ScenarioError([{ path: '', message: 'no scenario file given' }], 'an empty list'));
  try {
    return { document: mergeScenarios(files.map((f) => readScenarioFile(f))), source: files.map((f) => basename(f)).join(', ') };
  } catch (err) {
    throw err instanceof ScenarioError ? fileRefusal(err) : err;
  }
}

function fileValidation(input: string): ScenarioValidation {
  try {
    return validateScenario(readScenarioFile(input));
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    return { valid: false, name: null, rules: 0, mistakes: scenarioRefusal(err).details ?? [], warnings: [] };
  }
}

/** The helpers on one workspace: the rows' methods, and scenario files read here. */
function helpers(emulator: Emulator, workspaceId: string, baseUrl: () => string): ControlHelpers {
  const on = onWorkspace(emulator, workspaceId);
  const methods = localMethods(emulator, workspaceId, () => ({ requestId: '', baseUrl: baseUrl(), head: false, apiDocument: buildOpenApi }));
  return {
    ...methods,
    workspaceId,
    workspace: {
      ...methods.workspace,
      create: async (input = {}) => {
        const created = await methods.workspace.create(input as Parameters<typeof methods.workspace.create>[0]);
        return { ...created, handle: helpers(emulator, created.id, baseUrl) };
      },
      get: (id) => {
        emulator.workspace(id); // workspace_not_found now rather than on first use
        return helpers(emulator, id, baseUrl);
      },
    },
    scenario: {
      ...methods.scenario,
      // Files and ready scenarios by name (a string or a list), read here; anything else is the body of PUT /_emulator/scenario, checked as that.
      load: (input) =>
        typeof input === 'string' || Array.isArray(input)
          ? on((ws) => {
              const { document, source } = scenarioFiles(input as string | readonly string[]);
              return loadScenario(ws, document, source);
            })
          : methods.scenario.load(input as ScenarioDocument),
      validate: (input) => (typeof input === 'string' ? Promise.resolve().then(() => fileValidation(input)) : methods.scenario.validate(input as object)),
    },
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
  /**
   * With stateFile: a change log damaged before its end (which otherwise throws) is cut there:
   * the records before it are kept, the log is moved aside, and a process warning says so.
   */
  stateFileRepair?: boolean | undefined;
}

/**
 * In-process use from a Node test suite: the emulator, its Express app (for supertest), a
 * server on 127.0.0.1 when a real port is wanted, and the control helpers on the default
 * workspace.
 */
export function createEmulator(options: InProcessOptions = {}): InProcessEmulator {
  const emulator = new Emulator(options);
  const state = options.stateFile === undefined ? undefined : openStateFile(emulator, { path: options.stateFile, reset: options.resetState, repair: options.stateFileRepair });
  if (state?.repaired) process.emitWarning(repairMessage(state.repaired), 'StateFileRepairWarning');
  // Every answer waits for the state file to hold what its request changed.
  const appOptions = state ? { ...options, commit: () => state.commit() } : options;
  const app = createApp(emulator, appOptions);
  const serve = (port: number, host: string) => listen(emulator, { ...appOptions, port, host });
  let running: Promise<RunningServer> | null = null;
  let url: string | null = null;
  return {
    ...helpers(emulator, DEFAULT_WORKSPACE, () => options.publicUrl ?? url ?? DEFAULT_BASE_URL),
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
