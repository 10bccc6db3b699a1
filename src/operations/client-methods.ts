import type { ControlInput } from './control-runner.js';
import { clientCalls, pathParams, type ClientCall, type ControlRoute } from './control-row.js';

/**
 * A client made from rows: each row's `client` calls become methods, grouped at their dots, that
 * turn their arguments into the parts of a request and hand them to a transport (run in
 * process, or sent over HTTP). No transport lists the methods.
 */

/** What a transport does with one row: runs or sends it with these parts and answers its JSON body. */
export type Transport = (row: ControlRoute<never>, input: ControlInput) => Promise<unknown>;

/** The arguments of a client method as the parts of a request, by the row's `client.args`. */
function inputOf(row: ControlRoute<never>, call: ClientCall, args: unknown[]): ControlInput {
  const input: ControlInput = { params: {}, query: {} };
  if (call.args === 'body') input.body = args[0];
  else if (call.args === 'query') {
    // A filter's unset fields are left out, as a query string leaves them out.
    for (const [name, value] of Object.entries((args[0] ?? {}) as Record<string, unknown>)) if (value !== undefined) input.query[name] = value;
  } else {
    const params = new Set(pathParams(row));
    const headers = row.headers ?? {};
    const query = (row.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const body: Record<string, unknown> = {};
    (call.args ?? []).forEach((name, i) => {
      if (params.has(name)) input.params[name] = String(args[i]);
      else if (Object.hasOwn(headers, name)) {
        // Left out when unset, as a request that does not send the header: the row answers that itself.
        if (args[i] !== undefined) (input.headers ??= {})[name] = args[i] as string;
      } else if (name in query) {
        if (args[i] !== undefined) input.query[name] = args[i];
      } else body[name] = args[i];
    });
    if (Object.keys(body).length > 0) input.body = body;
  }
  Object.assign(input.query, call.query);
  return input;
}

/** The methods of these rows over one transport. */
export function rowMethods(rows: readonly ControlRoute<never>[], transport: Transport): Record<string, unknown> {
  const client: Record<string, unknown> = {};
  for (const row of rows) {
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
  return client;
}
