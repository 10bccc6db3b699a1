import type express from 'express';
import type { Fault, FaultInput } from './core/faults.js';
import type { OutboxMail, Workspace } from './core/workspace.js';
import { check, compile } from './core/validation.js';
import { DEFAULT_WORKSPACE, Emulator, type EmulatorOptions, type WorkspaceInput } from './emulator.js';
import { createApp, type AppOptions } from './http/app.js';
import { listen, type RunningServer } from './http/server.js';
import { AdvanceBody, CreateFaultBody, CreateWorkspaceBody, SetClockBody } from './control/control.schemas.js';
import { OutboxQuery } from './control/onboarding-actions.schemas.js';
import * as control from './control/control.service.js';

/**
 * The in-process transport of the control interface (design habit 8): each helper checks its
 * input against the schema the /_emulator route declares, then calls the same function of
 * src/control/control.service.ts the route calls. Errors are the same ApiError (code, message,
 * param) the HTTP transport renders as its envelope. Every helper returns a promise, so an HTTP
 * client can implement the same interface.
 */
const valid = {
  advance: compile<{ by: string | number }>(AdvanceBody),
  set: compile<{ now: string }>(SetClockBody),
  fault: compile<FaultInput>(CreateFaultBody),
  workspace: compile<WorkspaceInput>(CreateWorkspaceBody),
  outbox: compile<control.OutboxFilter>(OutboxQuery),
};

export type ClockState = ReturnType<typeof control.clockState>;
export type ClockMove = Awaited<ReturnType<typeof control.advanceClock>>;
export type KeyInfo = ReturnType<typeof control.listKeys>['data'][number];
export type CreatedWorkspace = ReturnType<typeof control.createWorkspace>;
export type WorkspaceInfo = ReturnType<typeof control.describeWorkspace>;
export type ResetWorkspace = ReturnType<typeof control.resetWorkspace>;
export type { Fault, FaultInput } from './core/faults.js';
export type { OutboxMail } from './core/workspace.js';
export type { OutboxFilter } from './control/control.service.js';

/** The control helpers, acting on one workspace. */
export interface ControlHelpers {
  readonly workspaceId: string;
  clock: {
    /** The workspace's current instant (ISO 8601). */
    now(): Promise<string>;
    state(): Promise<ClockState>;
    /** Seconds (5400), a duration ("90m", "1h30m", "2d") or ISO 8601 ("PT90M"); fires what falls due. */
    advance(by: string | number): Promise<ClockMove>;
    /** Jumps to an instant, never backwards; fires what falls due. */
    set(iso: string): Promise<ClockMove>;
  };
  /** Intercepted mails, oldest first; filter by onboarding_id or recipient (`to`). */
  outbox(filter?: control.OutboxFilter): Promise<OutboxMail[]>;
  keys(): Promise<KeyInfo[]>;
  workspace: {
    /** A new isolated workspace: its id, keys and clock, and helpers bound to it. */
    create(input?: WorkspaceInput): Promise<CreatedWorkspace & { handle: ControlHelpers }>;
    /** Helpers bound to an existing workspace. */
    get(id: string): ControlHelpers;
    /** Back to the fixtures, clock and random sequence this workspace started with. */
    reset(): Promise<ResetWorkspace>;
  };
  faults: {
    add(input: FaultInput): Promise<Fault>;
    list(): Promise<Fault[]>;
    remove(id: string): Promise<{ id: string; deleted: true }>;
    /** Removes every fault; says how many there were. */
    clear(): Promise<{ deleted: number }>;
  };
}

/** Runs fn on the workspace as it is now, so a deleted workspace answers workspace_not_found. */
function helpers(emulator: Emulator, workspaceId: string): ControlHelpers {
  const on = <T>(fn: (ws: Workspace) => T | Promise<T>): Promise<T> =>
    Promise.resolve().then(() => fn(emulator.workspace(workspaceId)));
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
    faults: {
      add: (input) => on((ws) => control.addFault(ws, check(valid.fault, input))),
      list: () => on(control.listFaults),
      remove: (id) => on((ws) => control.removeFault(ws, id)),
      clear: () => on(control.clearFaults),
    },
  };
}

export interface InProcessEmulator extends ControlHelpers {
  emulator: Emulator;
  /** The Express app, for supertest without a port. */
  app: express.Express;
  /** A new server on its own; start() and close() manage the emulator's own one. */
  listen(port?: number, host?: string): Promise<RunningServer>;
  /** Listens on 127.0.0.1 (port 0: a free port); a second call returns the running server's URL. */
  start(port?: number, host?: string): Promise<{ url: string }>;
  /** Stops the server start() began; nothing to do if none runs. */
  close(): Promise<void>;
  /** The base URL while started, otherwise null. */
  readonly url: string | null;
}

/**
 * In-process use from a Node test suite: the emulator, its Express app (for supertest), a
 * server on 127.0.0.1 when a real port is wanted, and the control helpers on the default
 * workspace.
 */
export function createEmulator(options: EmulatorOptions & AppOptions = {}): InProcessEmulator {
  const emulator = new Emulator(options);
  let running: Promise<RunningServer> | null = null;
  let url: string | null = null;
  return {
    ...helpers(emulator, DEFAULT_WORKSPACE),
    emulator,
    app: createApp(emulator, options),
    listen: (port = 0, host = '127.0.0.1') => listen(emulator, { ...options, port, host }),
    async start(port = 0, host = '127.0.0.1') {
      running ??= listen(emulator, { ...options, port, host }).catch((err: unknown) => {
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
    },
    get url() {
      return url;
    },
  };
}
