import type { RequestListener, Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, fail } from '../core/errors.js';
import { CURRENT_API_VERSION } from '../core/versions.js';
import type { Emulator } from '../emulator.js';
import { infoOf, mountApiRoute, mountControlRoute, type MountOptions } from './mount.js';
import { buildOpenApi } from './openapi.js';
import { holdAnswers } from './hold.js';
import { pageRoutes } from '../pages/pages.routes.js';
import { mountPages, pageErrorHandler } from './pages.js';
import { parseRateLimit, RateLimiter, type RateLimitOptions } from './rate-limit.js';
import { envelopeText, jsonAnswer, send, writeError } from './reply.js';
import { answerDropped, dropAnswer } from './faults.js';
import { originGuard } from './origin-guard.js';
import { loggedError, loggedRequest, requestLog } from './request-log.js';
import { nearRoute, probeHint, recordNoRoute } from './unmatched.js';
import { allControlRoutes, apiRoutes, pathMatcher } from './routes.js';

/** Documents kept per base URL: the addresses one emulator is reached at are few. */
const OPENAPI_CACHE_SIZE = 8;

/**
 * What createApp builds: a Node request listener (`http.createServer(app)`, `supertest(app)`)
 * that can also listen by itself. Typed without Express, so the package's public types need
 * nothing a consumer may not have installed (Express's types are not a dependency).
 */
export interface App extends RequestListener {
  listen(port: number, host: string, ready?: () => void): Server;
}

export interface AppOptions {
  /** The base of every link handed out (--public-url); else the scheme and Host the caller used. */
  publicUrl?: string | undefined;
  /** One JSON line per request; leave out for silence (tests). */
  logger?: Logger | undefined;
  /** Per-key rate limiting of /v1 requests, `"10/s"` or `{requests, per, now?}`; off when left out. */
  rateLimit?: RateLimitOptions | string | undefined;
  /** The inspector at /_emulator/ui (and the redirect from /) and the API explorer at /_emulator/docs; false (--no-ui): 404. Default on. */
  ui?: boolean | undefined;
  /** Host names answered besides IP addresses, localhost, single-label names and the public URL's host (`--allowed-hosts`); `*` for any. */
  allowedHosts?: readonly string[] | string | undefined;
  /**
   * Awaited before every answer is sent (--state-file: the write holding the request's change);
   * a rejection answers 500 state_not_written instead (src/http/hold.ts).
   */
  commit?: (() => Promise<void>) | undefined;
}

/** createApp(emulator): the thin HTTP adapter over the emulator. Express stays in src/http. */
export function createApp(emulator: Emulator, options: AppOptions = {}): App {
  options = { ...options, publicUrl: options.publicUrl ?? emulator.publicUrl };
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  // As on the real service, /v1/ONBOARDINGS and /v1/onboardings/ are other paths than /v1/onboardings.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const id = emulator.requestId();
    (req as Request & { id: string }).id = id;
    res.setHeader('Request-Id', id);
    res.setHeader('Service-Version', CURRENT_API_VERSION);
    next();
  });
  if (options.commit) app.use(holdAnswers(options.commit));
  if (options.logger?.isLevelEnabled('info')) app.use(requestLog(options.logger));
  app.use(originGuard({ allowedHosts: options.allowedHosts, publicUrl: options.publicUrl }));

  // Built on first request (off the start-up path), once per base URL its `servers` names.
  const openapi = new Map<string, string>();
  const extra = [{ method: 'GET', path: '/openapi.json' }, ...pageRoutes];
  const openapiText = (baseUrl: string): string => {
    let text = openapi.get(baseUrl);
    if (text === undefined) {
      // The Host header is the client's to choose: keep a few documents, not one per name ever sent.
      if (openapi.size >= OPENAPI_CACHE_SIZE) openapi.delete(openapi.keys().next().value!);
      openapi.set(baseUrl, (text = JSON.stringify(buildOpenApi(baseUrl))));
    }
    return text;
  };
  app.get('/openapi.json', (req, res) => void send(req, res, jsonAnswer(200, openapiText(infoOf(req, options).baseUrl))));

  // OPTIONS is answered by the fallback below (204 with Allow), not by the router's default.
  const router = express.Router({ strict: true, caseSensitive: true });
  const rateLimit = typeof options.rateLimit === 'string' ? parseRateLimit(options.rateLimit) : options.rateLimit;
  const apiOptions: MountOptions = { ...options, limiter: rateLimit ? new RateLimiter(rateLimit) : undefined };
  for (const route of apiRoutes) mountApiRoute(router, emulator, route, apiOptions);
  const withDocument = { ...options, openapi: (baseUrl: string) => JSON.parse(openapiText(baseUrl)) as unknown };
  for (const route of allControlRoutes) mountControlRoute(router, emulator, route, withDocument);
  app.use((req: Request, res: Response, next: NextFunction) => (req.method === 'OPTIONS' ? next() : router(req, res, next)));

  // Pages answer in HTML; before the fallback, so their paths are known (405 for other methods).
  mountPages(app, emulator, options);

  const matcher = pathMatcher(extra);
  app.use((req: Request, res: Response) => {
    const methods = matcher.methodsAt(req.path);
    if (methods.length === 0) {
      // A readiness probe by another name is named in the message, where a client's log shows it; an
      // edit-distance guess is only a guess, so it stays in the unmatched list.
      const hint = probeHint(req.path);
      const err = fail('route_not_found', hint === null ? `No route ${req.method} ${req.path}.` : `No route ${req.method} ${req.path}: ${hint}`);
      recordNoRoute(emulator, req, err, nearRoute(req.path, matcher.templates));
      throw err;
    }
    res.set('Allow', [...methods, 'OPTIONS'].join(', '));
    if (req.method === 'OPTIONS') return void send(req, res, { status: 204 });
    throw fail('method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${methods.join(', ')}.`);
  });

  // A person's pages (hosted_url, review_url, embed.js) answer their errors as pages, in HTML.
  app.use(pageErrorHandler(options.logger));
  // Every other failure leaves in the envelope; anything unexpected is a 500 without a stack trace.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    // An injected dropped answer drops a refusal as well: the client cannot tell them apart.
    if (err instanceof ApiError && answerDropped(res)) return void dropAnswer(res, { status: err.status, text: envelopeText(req, err), replayed: false });
    if (err instanceof ApiError) return writeError(req, res, err);
    // Express's own 4xx (a path with broken percent-encoding, say) is the client's mistake.
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return writeError(req, res, fail('request_malformed', 'The request could not be read: check the URL encoding of the path.'));
    }
    options.logger?.error({ err: loggedError(err), req: loggedRequest(req) }, 'unexpected error');
    writeError(req, res, fail('internal_error', 'The emulator failed to handle this request; this is a bug in the emulator.'));
  });
  return app;
}
