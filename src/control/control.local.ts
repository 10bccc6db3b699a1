import type { Workspace } from '../core/workspace.js';
import type { ControlHost } from './control.host.js';
import { JsonFile, RawJson, type Reply, type RequestInfo } from '../operations/reply.js';
import { controlRunner, sentInput } from '../operations/control-runner.js';
import { serve } from '../operations/serve.js';
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
 * Runs fn on the workspace as it is now (a deleted workspace answers workspace_not_found) through
 * the one pipeline, as a row runs: due work before and after, then the workspace's change
 * notice. For what the in-process helpers do beside the rows (a scenario read from files).
 */
export function onWorkspace(emulator: ControlHost, workspaceId: string): <T>(fn: (ws: Workspace) => T | Promise<T>) => Promise<T> {
  return <T>(fn: (ws: Workspace) => T | Promise<T>) =>
    Promise.resolve().then(() => {
      const workspace = emulator.workspace(workspaceId);
      return serve<T>({ workspace, run: async () => ({ status: 200, body: await fn(workspace) }), deliver: (reply) => reply.body as T });
    });
}

/**
 * The client methods of the control rows, run in process on the workspace `workspaceId` as it is
 * when called. The runner takes each through the pipeline, which raises the change notice.
 */
export function localMethods(emulator: ControlHost, workspaceId: string, info: () => RequestInfo): ControlMethods {
  return clientMethods((row, input) =>
    Promise.resolve().then(() => runnerOf(row as ControlRoute<ControlHost>)(emulator, emulator.workspace(workspaceId), sentInput(row, input), info(), answerOf)));
}
