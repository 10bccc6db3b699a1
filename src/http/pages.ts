import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import type { Emulator } from '../emulator.js';
import { html } from '../pages/html.js';
import { ANY_ANCESTOR } from '../pages/framing.js';
import { pageHeaders, renderPage, RESOURCE_POLICY } from '../pages/layout.js';
import { pageRoutes } from '../pages/pages.routes.js';
import type { PageContext, PageForm, PageRoute } from '../pages/route.js';
import { readForm } from './form.js';
import { lingeringClose } from './lingering-close.js';
import { loggedError, loggedRequest } from './request-log.js';
import { htmlFile } from '../operations/reply.js';
import { serve } from '../operations/serve.js';
import { infoOf } from './mount.js';
import { requestIdOf, writeReply } from './reply.js';

/**
 * The pages a person opens (hosted_url, review_url and embed.js, and the inspector): rows of
 * src/pages, mounted here by one function (docs/architecture.md, "Add a page").
 * They answer in HTML, not in the error envelope: a person reads them, often inside a
 * partner's iframe.
 */

/**
 * The first path segments a person's browser opens (hosted_url, review_url, embed.js and the
 * review's files): everything under them answers as a page, errors included. The inspector
 * lives under /_emulator and keeps the envelope there.
 */
const PAGE_SEGMENTS = new Set(pageRoutes.filter((r) => !r.inspector).map((r) => r.path.split('/')[1]!));

const isPagePath = (path: string): boolean => PAGE_SEGMENTS.has(path.split('/')[1] ?? '');

export interface PageMountOptions {
  publicUrl?: string | undefined;
  /** The inspector and the API explorer (--no-ui: false): their rows answer 404 in the envelope. */
  ui?: boolean | undefined;
}

function cookiesOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] ??= part.slice(eq + 1).trim();
  }
  return out;
}

const isFramed = (req: Request): boolean => ['iframe', 'frame'].includes(req.get('sec-fetch-dest') ?? '');

/**
 * One page row on the app: finds the workspace of the row's link (an unknown link answers its
 * page), then the one pipeline: the handler, reading the form on demand with the one reader, and
 * a refusal answered with the row's page for it (else the plain error page, below).
 */
function mountPageRoute(app: Express, emulator: Emulator, route: PageRoute, options: PageMountOptions): void {
  const method = route.method === 'GET' ? 'get' : 'post';
  app[method](route.path, async (req: Request, res: Response) => {
    if (route.inspector && options.ui === false) throw fail('route_not_found', `No route ${req.method} ${req.path}: the inspector and the API explorer are off (--no-ui).`);
    const params = req.params as Record<string, string>;
    let workspace: Workspace | undefined;
    let linked: string | undefined;
    if (route.link) {
      const target = route.link.find(emulator.workspaces(), params);
      if (!target) return void writeReply(req, res, route.link.notFound());
      ({ workspace, id: linked } = target);
    }
    let form: Promise<PageForm> | undefined;
    const ctx: PageContext = {
      workspace, linked, params, query: req.query as Record<string, unknown>, cookies: cookiesOf(req), framed: isFramed(req), info: infoOf(req, options),
      form: () => (form ??= route.form ? readForm(req, route.form) : Promise.reject(new Error(`${route.path} reads no form`))),
    };
    await serve({
      workspace,
      run: () => route.handle(ctx),
      refused: (err) => {
        if (!(err instanceof ApiError)) return undefined;
        if (err.status === 413) lingeringClose(req, res); // the rest of a body over the limit is drained after the page
        return route.refused?.(err, ctx);
      },
      deliver: (reply) => void writeReply(req, res, reply),
    });
  });
}

export function mountPages(app: Express, emulator: Emulator, options: PageMountOptions = {}): void {
  // A floor for every answer under the page paths (the contract PDF, redirects, OPTIONS, errors):
  // the pages and files replace it with their own policy.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isPagePath(req.path)) res.setHeader('Content-Security-Policy', RESOURCE_POLICY);
    next();
  });
  for (const route of pageRoutes) mountPageRoute(app, emulator, route, options);
}

/** What a person reads for an error of the envelope's vocabulary: routing and bugs in plain words, else the error's own message. */
function wording(err: ApiError): { title: string; text: string } {
  switch (err.code) {
    case 'route_not_found':
      return { title: 'Page not found', text: 'There is no page at this address. Check that you opened the whole link from the e-mail or the application.' };
    case 'method_not_allowed':
      return { title: 'Not possible here', text: 'This page cannot be used this way. Open the link again and use the buttons on the page.' };
    case 'internal_error':
      return { title: 'Something went wrong', text: 'The page could not be shown because of an error in the emulator. Try again; if it keeps happening, it is a bug in the emulator.' };
    default:
      return { title: 'This did not work', text: err.message };
  }
}

/** Express's own refusal (a path with broken percent-encoding: the pages read no body through Express) in the one vocabulary. */
function pageError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const { status } = err as { status?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return fail('request_malformed', 'This address could not be read: part of it is not valid. Check that you opened the whole link, exactly as it was sent.');
}

/**
 * Errors under the page paths (a wrong method, an unknown path, a path Express could not decode, a bug)
 * as a page in the shell with its policy, never the envelope and never a stack trace. Review
 * pages may be framed by any product (the page names nothing, like the review's 404); the others
 * never. Headers set before the error (Allow on a 405) stay.
 */
export function pageErrorHandler(logger: Logger | undefined): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (!isPagePath(req.path)) return next(err);
    if (res.headersSent) return;
    let error = pageError(err);
    if (!error) {
      logger?.error({ err: loggedError(err), req: loggedRequest(req) }, 'unexpected error');
      error = fail('internal_error', 'The emulator failed to handle this request; this is a bug in the emulator.');
    }
    const { title, text } = wording(error);
    // An error page of a person's link names no organization: any product may show it in its frame.
    const framing = req.path.startsWith('/review/') || req.path.startsWith('/hosted/') ? ANY_ANCESTOR : "'none'";
    const page = renderPage({ title, body: html`<h1>${title}</h1><p class="notice error" role="alert">${text}</p>` }, { frameAncestors: framing });
    writeReply(req, res, { status: error.status, headers: { ...error.headers, ...pageHeaders(page.csp) }, body: htmlFile(page.html) });
  };
}
