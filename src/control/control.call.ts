import type { Workspace } from '../core/workspace.js';
import type { Reply, RequestInfo } from '../resources/route.js';
import { afterRequest, beforeRequest, checkedBody, checkedQuery, compileInput, isWrite } from '../resources/route.run.js';
import type { ControlRoute } from './control.row.js';

/** A control request as a transport has it: the body as parsed or given (left out on a read). */
export interface ControlInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
}

type Run<E> = <T>(emulator: E, workspace: Workspace, input: ControlInput, info: RequestInfo, answer: (reply: Reply) => T) => Promise<T>;

/**
 * One control row, checked and run the same way whoever calls it (the HTTP adapter, the
 * in-process helpers): the query and body against the row's schemas (a write without a body is
 * `{}`, as an empty HTTP body reads), due work before, the handler, the answer taken (written,
 * or returned), then what the request made due.
 */
export function controlRunner<E>(row: ControlRoute<E>): Run<E> {
  const compiled = compileInput(row);
  return async (emulator, workspace, input, info, answer) => {
    const query = checkedQuery(compiled, { ...input.query });
    const body = isWrite(row) ? checkedBody(row, compiled, input.body === undefined ? {} : input.body) : undefined;
    beforeRequest(workspace);
    const reply = await row.handle({ emulator, workspace, params: input.params, query, body, info });
    const taken = answer(reply);
    afterRequest(workspace);
    return taken;
  };
}
