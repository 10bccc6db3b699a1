import type { Request } from 'express';
import type { ApiError } from '../core/errors.js';
import { KEY_IN_TEXT, maskSecret } from '../core/mask.js';
import { filledTemplate, nearest, probeAlias } from '../core/near-miss.js';
import type { Unmatched } from '../core/unmatched.js';
import type { Emulator } from '../emulator.js';
import { headerText } from './journal.js';

/**
 * Records a request that reached no workspace in the emulator's list of unmatched requests
 * (GET /_emulator/requests?unmatched=true), with what it most likely meant: newcomers' first
 * mistakes (no key, a mistyped one, a wrong path) are the ones a workspace journal cannot show.
 */

/** A browser's own requests (its icon, DevTools' probes), never a client's mistake. */
const ignored = (path: string): boolean => path === '/favicon.ico' || path.startsWith('/.well-known/');

function record(emulator: Emulator, req: Request, err: ApiError, key: string, unmatched: Unmatched): void {
  const h = req.headers;
  emulator.unmatched.record({
    at: new Date(emulator.defaultWorkspace.clock.nowMs()).toISOString(),
    key: key === '' ? '' : maskSecret(key),
    method: req.method,
    path: req.path,
    query: req.originalUrl.includes('?') ? { ...(req.query as Record<string, unknown>) } : {},
    headers: { idempotency_key: headerText(h['idempotency-key']), service_version: headerText(h['service-version']), service_organization: headerText(h['service-organization']) },
    body: null,
    body_bytes: null,
    status: err.status,
    error_code: err.code,
    replayed: false,
    answered: true,
    duration_ms: null,
    onboarding_ids: [],
    unmatched,
  });
}

const knownKeys = (emulator: Emulator): string[] => emulator.workspaces().flatMap((ws) => ws.store.keys.values().map((k) => k.key));

/** A /v1 request refused for its key: none (perhaps sent elsewhere), or one no workspace holds (perhaps mistyped). */
export function recordKeyRefusal(emulator: Emulator, req: Request, err: ApiError, token: string | undefined): void {
  if (token !== undefined) {
    // Masked like every key the journals show: enough to recognise it, never the whole.
    const near = nearest(token, knownKeys(emulator));
    const shown = near === null ? null : maskSecret(near);
    record(emulator, req, err, token, { reason: 'unknown_key', near_route: null, near_key: shown, hint: shown ? `a key one slip from ${shown}` : null });
    return;
  }
  // A key sent another way: another header, the query, or Authorization without "Bearer".
  const elsewhere = Object.entries(req.headers).find(([, v]) => KEY_IN_TEXT.test(headerText(v) ?? ''));
  const inQuery = KEY_IN_TEXT.exec(req.originalUrl)?.[0];
  const found = elsewhere ? KEY_IN_TEXT.exec(headerText(elsewhere[1])!)![0] : inQuery;
  const where = elsewhere ? `the ${elsewhere[0]} header` : inQuery ? 'the query' : null;
  record(emulator, req, err, '', {
    reason: 'no_key', near_route: null, near_key: found === undefined ? null : maskSecret(found),
    hint: where ? `the key was sent in ${where}: send it as Authorization: Bearer <key>` : 'send the key as Authorization: Bearer <key>',
  });
}

/** For a readiness probe by another name, where the emulator's is: sure enough to tell the client in the error message. */
export function probeHint(path: string): string | null {
  const health = probeAlias(path);
  return health === null ? null : `the readiness and liveness check is GET ${health} (200 once the emulator serves requests)`;
}

/** The route a path no route serves most likely meant: a readiness probe by another name, or a slip of a route's path. */
export function nearRoute(path: string, templates: readonly { method: string; path: string }[]): Unmatched {
  const health = probeAlias(path);
  if (health !== null) return { reason: 'no_route', near_route: `GET ${health}`, near_key: null, hint: probeHint(path) };
  const near = nearest(path, templates.map((t) => t.path), (t) => filledTemplate(t, path));
  const methods = near === null ? [] : [...new Set(templates.filter((t) => t.path === near).map((t) => t.method))];
  const route = near === null ? null : `${methods.join(', ')} ${near}`;
  return { reason: 'no_route', near_route: route, near_key: null, hint: route ? `did you mean ${route}?` : null };
}

/** A path no route serves, with the route it most likely meant. */
export function recordNoRoute(emulator: Emulator, req: Request, err: ApiError, near: Unmatched): void {
  if (ignored(req.path)) return;
  record(emulator, req, err, '', near);
}
