import type { Workspace } from '../core/workspace.js';
import type { ControlHost } from './control.host.js';
import { JsonFile, RawJson, type Reply, type RequestInfo } from '../operations/reply.js';
import { controlRunner, sentInput } from '../operations/control-runner.js';
import { clientMethods, type ControlMethods } from './control.client.js';
import type { ControlRoute } from '../operations/control-row.js';

/**
 * The control methods run in this process on one workspace, each given its input as a request
 * would carry it (sentInput) and checked as over HTTP: what createEmulator()'s helpers are made
 * of, and what the MCP endpoint calls.
 */
const runners = new Map<ControlRoute<ControlHost>, ReturnType<typeof controlRunner<ControlHost>>>();
const runnerOf = (row: ControlRoute<ControlHost>) => runners.get(row) ?? runners.set(row, controlRunner(row)).get(row)!;

/** What the route would send, read back: the same values as over HTTP, and no live object of the store. */
const answerOf = (reply: Reply): unknown =>
  JSON.parse(reply.body instanceof RawJson ? reply.body.text : reply.body instanceof JsonFile ? String(reply.body.bytes) : JSON.stringify(reply.body)) as unknown;

/**
 * Runs fn on the workspace as it is now, so a deleted workspace answers workspace_not_found;
 * then says the workspace may have changed (what the HTTP transport does after a request).
 */
export function onWorkspace(emulator: ControlHost, workspaceId: string): <T>(fn: (ws: Workspace) => T | Promise<T>) => Promise<T> {
  return (fn) =>
    Promise.resolve().then(async () => {
      const ws = emulator.workspace(workspaceId);
      try {
        return await fn(ws);
      } finally {
        emulator.changed(ws);
      }
    });
}

/** The client methods of the control rows, run in process on the workspace `workspaceId`. */
export function localMethods(emulator: ControlHost, workspaceId: string, info: () => RequestInfo): ControlMethods {
  const on = onWorkspace(emulator, workspaceId);
  return clientMethods((row, input) => on((ws) => runnerOf(row as ControlRoute<ControlHost>)(emulator, ws, sentInput(row, input), info(), answerOf)));
}
