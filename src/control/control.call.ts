import type { Workspace } from '../core/workspace.js';
import type { Reply, RequestInfo } from '../resources/route.js';
import { checkedBody, checkedQuery, compileInput, isWrite, serve } from '../resources/route.run.js';
import type { ControlRoute } from './control.row.js';

/** A control request as a transport has it: the body as parsed or given (left out on a read). */
export interface ControlInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  /** The values of the headers the row declares; left out where the transport has none (in process). */
  headers?: Record<string, string | undefined>;
}

type Run<E> = <T>(emulator: E, workspace: Workspace, input: ControlInput, info: RequestInfo, deliver: (reply: Reply) => T) => Promise<T>;

/**
 * One control row, run the same way whoever calls it (the HTTP adapter, which writes the reply;
 * the in-process helpers, which return it): its query and body checked against the row's schemas
 * (a write without a body is `{}`, as an empty HTTP body reads), then the one pipeline.
 */
export function controlRunner<E>(row: ControlRoute<E>): Run<E> {
  const compiled = compileInput(row);
  return (emulator, workspace, input, info, deliver) => {
    // Checked before the pipeline: a refused request runs no due work.
    const query = checkedQuery(compiled, { ...input.query });
    const body = isWrite(row) ? checkedBody(row, compiled, input.body === undefined ? {} : input.body) : undefined;
    return serve({ workspace, run: () => row.handle({ emulator, workspace, params: input.params, query, body, headers: input.headers ?? {}, info }), deliver });
  };
}
