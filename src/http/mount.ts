import type { Request, Response, Router } from 'express';
import { actFor, asItself, findCaller } from '../resources/organizations/organizations.access.js';
import { ApiError, fail } from '../core/errors.js';
import { CURRENT_API_VERSION, isKnownVersion } from '../core/versions.js';
import type { Workspace } from '../core/workspace.js';
import type { Emulator } from '../emulator.js';
import { RawFile, RawJson, type Reply, type RequestInfo, type RouteBase } from '../operations/reply.js';
import type { ApiRoute } from '../resources/route.js';
import { checkedBody, checkedQuery, compileInput, isWrite, serve, type CheckedInput } from '../operations/serve.js';
import { controlRunner } from '../operations/control-runner.js';
import { servedPaths, type ControlRoute } from '../operations/control-row.js';
import { readJsonBody } from './body.js';
import { recordKeyRefusal } from './unmatched.js';
import { dropAnswer, faultDelay, takeFault, writeSlowly, type FaultEffect } from './faults.js';
import { beginIdempotency, fingerprintOf, type IdempotencyGuard } from './idempotency.js';
import { journalRequest } from './journal.js';
import { serverSpans } from './tracing.js';
import { within } from '../core/tracing.js';
import type { RateLimiter } from './rate-limit.js';
import { replyText, requestIdOf, writeReply } from './reply.js';

type Lower = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface MountOptions {
  publicUrl?: string | undefined;
  /** --rate-limit: one limiter per app, shared by every /v1 route; none when off. */
  limiter?: RateLimiter | undefined;
}

/**
 * The base of every link handed out (hosted_url, review_url, links in mails): --public-url
 * when set (Docker, proxies), else the scheme and Host the caller used.
 */
function baseUrlOf(req: Request, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/** What every kind of route (API, control, page) is told about its request. */
export function infoOf(req: Request, options: { publicUrl?: string | undefined }): RequestInfo {
  return { requestId: requestIdOf(req), baseUrl: baseUrlOf(req, options.publicUrl), head: req.method === 'HEAD' };
}

function bearer(req: Request): string | undefined {
  const header = req.get('Authorization');
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw fail('api_key_invalid', 'Send the key as Authorization: Bearer <API_KEY>.');
  return match[1];
}

/** Service-Version: a known version, else 400; without it, the version the key was made with. */
function requestedVersion(req: Request, res: Response): string | undefined {
  const v = req.get('Service-Version');
  if (v !== undefined && !isKnownVersion(v)) {
    throw fail('service_version_unknown', `Unknown Service-Version ${v}; the known version is ${CURRENT_API_VERSION}.`, 'Service-Version');
  }
  if (v) res.setHeader('Service-Version', v);
  return v;
}

async function validatedBody(route: RouteBase, compiled: CheckedInput, req: Request, res: Response): Promise<unknown> {
  if (!isWrite(route)) return undefined;
  return checkedBody(route, compiled, await readJsonBody(req, res, route.bodyTypes, route.bodyLimit, route.bodyDepth, route.admitBody));
}

/**
 * A reply of the API as a fault may have it: dropped (after the request committed, its
 * idempotency record kept), written slowly, or written. `finish` keeps the idempotency record.
 */
function deliverApi(req: Request, res: Response, reply: Reply, fault: FaultEffect, replayed: boolean, finish: (text: string) => void): Promise<void> | undefined {
  if (fault.dropResponse) {
    const text = replyText(reply);
    finish(text);
    return dropAnswer(res, { status: reply.status, text, replayed });
  }
  if (fault.slow && !(reply.body instanceof RawFile)) {
    // The request is done and kept before the slow answer begins, as for a dropped one.
    const text = replyText(reply);
    finish(text);
    return writeSlowly(req, res, reply.status, text, reply.headers, fault.slow, replayed);
  }
  finish(writeReply(req, res, reply));
  return undefined;
}

/**
 * An API row: the version and key checked, the request journaled, the rate limit and the faults
 * taken before it runs (a reset connection ends it there); then, in the pipeline, the caller's
 * rights, the query, the Idempotency-Key (a replay answers what was recorded), the body, the
 * handler.
 */
export function mountApiRoute(router: Router, emulator: Emulator, route: ApiRoute, options: MountOptions): void {
  const compiled = compileInput(route);
  const write = isWrite(route);
  const traced = serverSpans(route.method, route.path);
  router[route.method.toLowerCase() as Lower](route.path, (req: Request, res: Response) => traced(req, res, async (span) => {
    const version = requestedVersion(req, res);
    const { token, workspace } = keyedWorkspace(emulator, req);
    journalRequest(req, res, workspace, token); // from here on, every answer is recorded
    options.limiter?.take(token); // --rate-limit: 429 when the key's bucket is empty
    const fault = takeFault(workspace, req, res); // injected faults: a 429 or 500 throws here
    if (fault.reset) return; // the connection is gone before anything ran, the key unreserved
    let idem: IdempotencyGuard | undefined;
    let replayed = false;
    let apiVersion = '';
    await serve({
      workspace,
      run: async () => {
        const caller = findCaller(workspace.store, token, version);
        apiVersion = caller.apiVersion;
        res.setHeader('Service-Version', apiVersion);
        const orgHeader = req.get('Service-Organization');
        const principal = route.acting === false ? asItself(caller, route.scope) : actFor(workspace.store, caller, orgHeader, route.scope);
        const query = checkedQuery(compiled, { ...(req.query as Record<string, unknown>) });
        idem = write ? beginIdempotency(req, workspace, caller.key.key) : undefined;
        await faultDelay(fault.latencyMs); // after the reservation: a duplicate meanwhile gets 409 idempotency_in_progress
        const body = await validatedBody(route, compiled, req, res);
        const replay = idem?.check(fingerprintOf(req, body));
        if (replay) {
          replayed = true;
          return { status: replay.status, body: new RawJson(replay.body), headers: { ...replay.headers, 'Idempotent-Replayed': 'true' } };
        }
        // The request's span is current for the handler: the events it emits keep it for their deliveries.
        return within(span, () => route.handle({ workspace, caller, principal, params: req.params as Record<string, string>, query, body, info: infoOf(req, options) }));
      },
      deliver: (reply) => deliverApi(req, res, reply, fault, replayed, (text) => idem?.finish(reply.status, text, { 'Service-Version': apiVersion })),
      abandon: () => idem?.release(),
    });
  }));
}

/** The bearer key and the workspace it names; a refusal is also kept among the unmatched requests, with its near miss. */
function keyedWorkspace(emulator: Emulator, req: Request): { token: string; workspace: Workspace } {
  let token: string | undefined;
  try {
    token = bearer(req);
    if (token === undefined) throw fail('api_key_missing', 'No API key: send Authorization: Bearer <API_KEY>.');
    const workspace = emulator.workspaceForKey(token);
    if (!workspace) throw fail('api_key_invalid', 'The API key is not valid.');
    return { token, workspace };
  } catch (err) {
    if (err instanceof ApiError) recordKeyRefusal(emulator, req, err, token);
    throw err;
  }
}

/** The control API picks its workspace by path, else by bearer key, else the default one. */
function selectWorkspace(emulator: Emulator, req: Request): Workspace {
  const id = (req.params as Record<string, string | undefined>).workspaceId;
  if (id !== undefined) return emulator.workspace(id);
  const token = bearer(req);
  if (token === undefined) return emulator.defaultWorkspace;
  const ws = emulator.workspaceForKey(token);
  if (!ws) throw fail('api_key_invalid', 'The API key is not valid for any workspace.');
  return ws;
}

/** Aborted when the client hangs up before its answer: long work (a wait, a receiver check) stops there. */
function hangupSignal(res: Response): AbortSignal {
  const hangup = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) hangup.abort();
  });
  return hangup.signal;
}

/**
 * A control row: a key the row refuses (`admitKey`), the workspace by path, key or default, the
 * body read (refused by its bytes first where the row says so, `admitBody`), then the runner.
 * `openapi`: the document for a base URL, for the rows that build on it (the Postman collection,
 * MCP's resource).
 */
export function mountControlRoute(router: Router, emulator: Emulator, route: ControlRoute<Emulator>, options: MountOptions & { openapi(baseUrl: string): unknown }): void {
  const run = controlRunner(route);
  for (const path of servedPaths(route)) {
    router[route.method.toLowerCase() as Lower](path, async (req: Request, res: Response) => {
      const key = route.admitKey ? bearer(req) : undefined;
      if (key !== undefined) route.admitKey!(key);
      const workspace = selectWorkspace(emulator, req);
      const body = isWrite(route) ? await readJsonBody(req, res, route.bodyTypes, route.bodyLimit, route.bodyDepth, route.admitBody) : undefined;
      const info = { ...infoOf(req, options), signal: hangupSignal(res), apiDocument: options.openapi };
      const headers = Object.fromEntries(Object.keys(route.headers ?? {}).map((name) => [name, req.get(name)]));
      const input = { params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body, headers };
      await run(emulator, workspace, input, info, (reply) => writeReply(req, res, reply));
    });
  }
}
