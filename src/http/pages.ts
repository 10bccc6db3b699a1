import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, fail } from '../core/errors.js';
import type { Emulator } from '../emulator.js';
import { html } from '../pages/html.js';
import { pageHeaders, renderPage, RESOURCE_POLICY } from '../pages/layout.js';
import { REVIEW_PAGE_OPERATIONS } from '../pages/review/review.operations.js';
import { mountReviewPages, REVIEW_PAGE_ROUTES } from './pages/review.routes.js';
import { HOSTED_PAGE_OPERATIONS } from '../pages/hosted/hosted.operations.js';
import { HOSTED_PAGE_ROUTES, mountHostedPages } from './pages/hosted.routes.js';
import { INSPECTOR_PAGE_OPERATIONS } from '../pages/inspector/inspector.operations.js';
import { INSPECTOR_PAGE_ROUTES, mountInspector } from './pages/inspector.routes.js';
import { requestIdOf } from './reply.js';

export { frameAncestors } from '../pages/review/review.frame.js';

/**
 * The pages a person opens (hosted_url, review_url and embed.js, and the inspector), mounted in
 * one place (docs/architecture.md, "Add a page").
 * They answer in HTML, not in the error envelope: a person reads them, often inside a
 * partner's iframe. The routes feed the 405/404 matcher; the operations the OpenAPI document.
 */
export const PAGE_ROUTES = [...REVIEW_PAGE_ROUTES, ...HOSTED_PAGE_ROUTES, ...INSPECTOR_PAGE_ROUTES];

/** For the OpenAPI document: the same routes, answering text/html. */
export const PAGE_OPERATIONS = { ...REVIEW_PAGE_OPERATIONS, ...HOSTED_PAGE_OPERATIONS, ...INSPECTOR_PAGE_OPERATIONS };

/**
 * The first path segments a person's browser opens (hosted_url, review_url, embed.js and the
 * review's files): everything under them answers as a page, errors included. The inspector
 * lives under /_emulator and keeps the envelope there.
 */
const PAGE_SEGMENTS = new Set([...REVIEW_PAGE_ROUTES, ...HOSTED_PAGE_ROUTES].map((r) => r.path.split('/')[1]!));

export const isPagePath = (path: string): boolean => PAGE_SEGMENTS.has(path.split('/')[1] ?? '');

export function mountPages(app: Express, emulator: Emulator, options: { publicUrl?: string | undefined; ui?: boolean | undefined } = {}): void {
  // A floor for every answer under the page paths (the contract PDF, redirects, OPTIONS, errors):
  // the pages and files replace it with their own policy.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isPagePath(req.path)) res.setHeader('Content-Security-Policy', RESOURCE_POLICY);
    next();
  });
  mountReviewPages(app, emulator);
  mountHostedPages(app, emulator, options);
  mountInspector(app, { enabled: options.ui !== false }); // the inspector; --no-ui: 404
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

/** Express's own refusals (a path with broken percent-encoding, a form body it would not read) in the one vocabulary. */
function pageError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const { status, type } = err as { status?: unknown; type?: unknown };
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413) return fail('body_too_large', 'The form is too large to be read. Go back, shorten what you typed and send it again.');
  if (status === 415) return fail('content_type_unsupported', 'The form was sent in a way the page cannot read. Go back and send it again from the page.');
  // body-parser names its refusals (an aborted upload, a body of another length); the router's path decoding does not.
  if (typeof type === 'string') return fail('request_malformed', 'The form could not be read. Go back and send it again from the page.');
  return fail('request_malformed', 'This address could not be read: part of it is not valid. Check that you opened the whole link, exactly as it was sent.');
}

/**
 * Errors under the page paths (a wrong method, an unknown path, a body Express refused, a bug)
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
      logger?.error({ err, req: { id: requestIdOf(req), method: req.method, path: req.originalUrl } }, 'unexpected error');
      error = fail('internal_error', 'The emulator failed to handle this request; this is a bug in the emulator.');
    }
    const { title, text } = wording(error);
    const framing = req.path.startsWith('/review/') ? '*' : "'none'";
    const page = renderPage({ title, body: html`<h1>${title}</h1><p class="notice error" role="alert">${text}</p>` }, { frameAncestors: framing });
    res.status(error.status).set({ ...error.headers, ...pageHeaders(page.csp) }).end(page.html);
  };
}
