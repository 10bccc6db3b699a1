import { fail } from '../core/errors.js';
import { maskJson, maskSecrets } from '../core/mask.js';
import { bodyAsSent } from '../core/request-body.js';
import type { Workspace } from '../core/workspace.js';
import { JsonFile, RawFile, RawJson, Redirect, type Reply, type RequestInfo, type RouteBase } from './reply.js';
import { checkedBody, checkedQuery, compileInput, isWrite, serve } from './serve.js';
import type { ControlRoute } from './control-row.js';

/** A control request as a transport has it: the body as parsed or given (left out on a read). */
export interface ControlInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  /** The values of the headers the row declares, by their declared names; one not sent is left out or undefined. */
  headers?: Record<string, string | undefined>;
}

/** A query value as a query string carries it: text, an object (a wait's body_includes) as its JSON. */
export const queryText = (value: unknown): string => (value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * What a caller with no wire in between hands a row (the in-process helpers, and MCP through
 * them) as an HTTP request would have carried it: each query value as its text (an unset one left
 * out), a write's body as its JSON read back, with the checks a body read off the wire gets
 * (core/request-body.ts). So `{ hours_per_week: undefined }` is `{}`, `limit: true` is "true",
 * and `[]` is no object, as over HTTP, and the row's checks see the same input either way.
 */
export function sentInput(row: RouteBase, input: ControlInput): ControlInput {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.query)) if (value !== undefined) query[name] = queryText(value);
  const headers = sentHeaders(input.headers);
  if (!isWrite(row)) return { params: input.params, query, headers };
  return { params: input.params, query, headers, body: bodyAsSent(input.body, row.bodyLimit, row.bodyDepth) };
}

/** What a header value can hold: tabs, printable ASCII and the bytes past it, which a request reads as Latin-1. */
const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A row's declared headers as a request carries them, for the in-process helpers and the HTTP
 * client alike: each value as its text without the spaces and tabs at its ends (the wire drops
 * them), an unset one left out. A value no request can carry (a line break, a character past
 * Latin-1) is refused, 422 parameter_invalid naming the header, on both ways, rather than
 * reaching the row in process and failing to be sent over HTTP.
 */
export function sentHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const text = String(value).replace(/^[\t ]+|[\t ]+$/g, '');
    if (!HEADER_TEXT.test(text)) throw fail('parameter_invalid', `The ${name} header cannot hold this value: a header carries no line breaks, control characters or characters past Latin-1.`, name);
    sent[name] = text;
  }
  return sent;
}

type Run<E> = <T>(emulator: E, workspace: Workspace, input: ControlInput, info: RequestInfo, deliver: (reply: Reply) => T) => Promise<T>;

/**
 * The answer with every key, webhook secret and link token in it masked (src/core/mask.ts),
 * whatever its form: JSON, a JSON document (HAR) or a text file (JUnit).
 */
function masked(reply: Reply): Reply {
  const { body } = reply;
  if (body instanceof JsonFile) {
    // Its text is made already: read that, and make the document again only when it held a secret.
    const text = maskSecrets(body.bytes as string);
    return text === body.bytes ? reply : { ...reply, body: new JsonFile(JSON.parse(text) as unknown, body.contentType) };
  }
  if (body instanceof RawJson) return { ...reply, body: new RawJson(maskSecrets(body.text)) };
  if (body instanceof RawFile) return typeof body.bytes === 'string' ? { ...reply, body: new RawFile(maskSecrets(body.bytes), body.contentType) } : reply;
  if (body instanceof Redirect) return reply;
  return { ...reply, body: maskJson(body) };
}

/**
 * One control row, run the same way whoever calls it (the HTTP adapter, which writes the reply;
 * the in-process helpers, which return it): its query and body, as a request carries them (what
 * the adapter read, or `sentInput`), checked against the row's guard and schemas (a write without
 * a body is `{}`, as an empty HTTP body reads), then the one pipeline. Its answer is masked
 * unless the row hands secrets out by design (`showsSecrets`): a row added later is masked
 * unless it says otherwise.
 */
export function controlRunner<E>(row: ControlRoute<E>): Run<E> {
  const compiled = compileInput(row);
  return (emulator, workspace, input, info, deliver) => {
    // Checked before the pipeline: a refused request runs no due work.
    const query = checkedQuery(compiled, { ...input.query });
    const body = isWrite(row) ? checkedBody(row, compiled, input.body === undefined ? {} : input.body) : undefined;
    const run = async () => {
      const reply = await row.handle({ emulator, workspace, params: input.params, query, body, headers: input.headers ?? {}, info });
      return row.showsSecrets ? reply : masked(reply);
    };
    return serve({ workspace, run, deliver });
  };
}
