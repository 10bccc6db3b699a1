import type { Request, Response, Router } from 'express';
import { actFor, asItself, findCaller } from '../resources/organizations/organizations.access.js';
import { fail } from '../core/errors.js';
import { check, compile, type Validator } from '../core/validation.js';
import { CURRENT_API_VERSION, isKnownVersion } from '../core/versions.js';
import type { Workspace } from '../core/workspace.js';
import type { Emulator } from '../emulator.js';
import { RawFile, type ApiRoute, type ControlRoute, type RequestInfo } from '../resources/route.js';
import { readJsonBody } from './body.js';
import { dropAnswer, faultDelay, takeFault, writeSlowly } from './faults.js';
import { beginIdempotency, fingerprintOf } from './idempotency.js';
import { journalRequest } from './journal.js';
import type { RateLimiter } from './rate-limit.js';
import { jsonAnswer, replyText, requestIdOf, send, writeReply } from './reply.js';

type Lower = 'get' | 'post' | 'patch' | 'put' | 'delete';
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export interface MountOptions {
  publicUrl?: string | undefined;
  /** --rate-limit: one limiter per app, shared by every /v1 route; none when off. */
  limiter?: RateLimiter | undefined;
}

interface Compiled {
  body?: Validator<unknown>;
  query?: Validator<unknown>;
  /** Query parameters declared as integers: written in decimal digits only. */
  integers: string[];
}

/** Every schema is compiled once, when the app is built. */
function compileRoute(route: ApiRoute | ControlRoute<never>): Compiled {
  const properties = (route.query as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return {
    ...(route.body ? { body: compile(route.body) } : {}),
    ...(route.query ? { query: compile(route.query, { coerce: true }) } : {}),
    integers: Object.entries(properties).filter(([, schema]) => schema.type === 'integer').map(([name]) => name),
  };
}

/**
 * Coercion alone reads `0x10`, `1e1` and ` 16` as numbers; the real service's integer
 * parameters take decimal digits, so anything else is refused before the schema sees it.
 */
function checkIntegerSpelling(compiled: Compiled, query: Record<string, unknown>): void {
  for (const name of compiled.integers) {
    const value = query[name];
    if (typeof value === 'string' && !/^-?[0-9]+$/.test(value)) {
      throw fail('parameter_invalid', `${name}: must be an integer written in decimal digits, such as 25.`, name);
    }
  }
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

/**
 * Due work runs around every request, so no service or page has to ask for it: before, what a
 * realtime clock passed since the last request; after, what the request made due (the deliveries
 * of its events) starts at once.
 */
export const beforeRequest = (workspace: Workspace): void => void workspace.scheduler.runDue();
export const afterRequest = (workspace: Workspace): void => void workspace.scheduler.runDue();

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

function validateQuery(compiled: Compiled, req: Request): unknown {
  // A copy: coercion writes into it, and Express's req.query is a getter.
  const query = { ...(req.query as Record<string, unknown>) };
  checkIntegerSpelling(compiled, query);
  return compiled.query ? check(compiled.query, query) : query;
}

async function validatedBody(route: ApiRoute | ControlRoute<never>, compiled: Compiled, req: Request, res: Response): Promise<unknown> {
  if (!WRITES.has(route.method)) return undefined;
  const body = await readJsonBody(req, res, route.bodyTypes, route.bodyLimit, route.bodyDepth);
  route.guard?.(body);
  return compiled.body ? check(compiled.body, body) : body;
}

export function mountApiRoute(router: Router, emulator: Emulator, route: ApiRoute, options: MountOptions): void {
  const compiled = compileRoute(route);
  const write = WRITES.has(route.method);
  router[route.method.toLowerCase() as Lower](route.path, async (req: Request, res: Response) => {
    const version = requestedVersion(req, res);
    const token = bearer(req);
    if (token === undefined) throw fail('api_key_missing', 'No API key: send Authorization: Bearer <API_KEY>.');
    const workspace = emulator.workspaceForKey(token);
    if (!workspace) throw fail('api_key_invalid', 'The API key is not valid.');
    journalRequest(req, res, workspace, token); // from here on, every answer is recorded
    options.limiter?.take(token); // --rate-limit: 429 when the key's bucket is empty
    const fault = takeFault(workspace, req, res); // injected faults: a 429 or 500 throws here
    if (fault.reset) return; // the connection is gone before anything ran, the key unreserved
    beforeRequest(workspace);
    const caller = findCaller(workspace.store, token, version);
    res.setHeader('Service-Version', caller.apiVersion);
    const orgHeader = req.get('Service-Organization');
    const principal = route.acting === false ? asItself(caller, route.scope) : actFor(workspace.store, caller, orgHeader, route.scope);
    const query = validateQuery(compiled, req);
    const idem = write ? beginIdempotency(req, res, workspace, caller.key.key) : undefined;
    try {
      await faultDelay(fault.latencyMs); // after the reservation: a duplicate meanwhile gets 409 idempotency_in_progress
      const body = await validatedBody(route, compiled, req, res);
      const replay = idem?.check(fingerprintOf(req, body));
      if (replay) {
        if (fault.dropResponse) return void (await dropAnswer(res, { status: replay.status, text: replay.body, replayed: true }));
        const headers = { ...replay.headers, 'Idempotent-Replayed': 'true' };
        if (fault.slow) return void (await writeSlowly(req, res, replay.status, replay.body, headers, fault.slow, true));
        void send(req, res, jsonAnswer(replay.status, replay.body, headers));
        return;
      }
      const reply = await route.handle({ workspace, caller, principal, params: req.params as Record<string, string>, query, body, info: infoOf(req, options) });
      if (fault.dropResponse) {
        // Everything an answered request does, the record a retry replays included; then no answer.
        const text = replyText(reply);
        idem?.finish(reply.status, text, { 'Service-Version': caller.apiVersion });
        afterRequest(workspace);
        await dropAnswer(res, { status: reply.status, text, replayed: false });
        return;
      }
      if (fault.slow && !(reply.body instanceof RawFile)) {
        // The request is done and kept before the slow answer begins, as for a dropped one.
        const text = replyText(reply);
        idem?.finish(reply.status, text, { 'Service-Version': caller.apiVersion });
        afterRequest(workspace);
        await writeSlowly(req, res, reply.status, text, reply.headers, fault.slow, false);
        return;
      }
      const text = writeReply(req, res, reply);
      idem?.finish(reply.status, text, { 'Service-Version': caller.apiVersion });
      afterRequest(workspace);
    } catch (err) {
      idem?.release();
      throw err;
    }
  });
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

export function mountControlRoute(router: Router, emulator: Emulator, route: ControlRoute<Emulator>, options: MountOptions): void {
  const compiled = compileRoute(route as ControlRoute<never>);
  const paths = route.perWorkspace ? [route.path, route.path.replace('/_emulator/', '/_emulator/workspaces/:workspaceId/')] : [route.path];
  for (const path of paths) {
    router[route.method.toLowerCase() as Lower](path, async (req: Request, res: Response) => {
      const workspace = selectWorkspace(emulator, req);
      const query = validateQuery(compiled, req);
      const body = await validatedBody(route as ControlRoute<never>, compiled, req, res);
      beforeRequest(workspace);
      // A client that hangs up before its answer: long work (a receiver check) stops.
      const hangup = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) hangup.abort();
      });
      const info = { ...infoOf(req, options), signal: hangup.signal };
      writeReply(req, res, await route.handle({ emulator, workspace, params: req.params as Record<string, string>, query, body, info }));
      afterRequest(workspace);
    });
  }
}

