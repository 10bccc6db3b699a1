import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import { ApiError, fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import type { Emulator } from '../../emulator.js';
import { REVIEWING_ROLES, ROLES, type Role } from '../../resources/organizations/organizations.model.js';
import type { ReviewSessionRecord } from '../../resources/reviews/reviews.model.js';
import {
  approveAs, confirmIdentity, framingOrganizations, openReviewSession, refreshed, resumeReviewSession, returnData, signIn,
  type ReviewContext, type ReviewOutcome,
} from '../../resources/reviews/reviews.page.js';
import { findReviewSession } from '../../resources/reviews/reviews.service.js';
import { EMBED_JS, MESSAGE_TYPE, PAGE_CSS, PAGE_JS } from '../../pages/review/review.assets.js';
import { frameAncestors, reviewPolicy } from '../../pages/review/review.frame.js';
import { html } from '../../pages/html.js';
import {
  document, goneBodies, notFoundBody, reviewView, signInView, type Notice, type Page, type ReviewMessage, type ReviewModel,
} from '../../pages/review/review.views.js';
import { RETURN_REASON_MAX } from '../../resources/onboardings/onboardings.model.js';

/**
 * The embedded review (spec: POST .../review-sessions, "embed.js with review_url"): the page
 * behind review_url, its four forms, embed.js for the partner's page and the page's own script
 * and style. Answers are HTML, not the envelope: a person reads them inside a partner's iframe.
 */
export const REVIEW_PAGE_ROUTES = [
  { method: 'GET', path: '/review/:token' },
  { method: 'POST', path: '/review/:token/sign-in' },
  { method: 'POST', path: '/review/:token/identity-verification' },
  { method: 'POST', path: '/review/:token/approvals' },
  { method: 'POST', path: '/review/:token/return' },
  { method: 'GET', path: '/embed.js' },
  { method: 'GET', path: '/embed/review-page.js' },
  { method: 'GET', path: '/embed/review-page.css' },
] as const;

function send(res: Response, page: Page, ancestors: string): void {
  res.status(page.status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', reviewPolicy(ancestors));
  // The token is in the URL and the forms carry the action token: keep both out of caches and Referer headers.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(document(page));
}

function model(ws: Workspace, c: ReviewContext): ReviewModel {
  const org = c.organization;
  return {
    context: c,
    clientName: ws.store.organizations.get(c.session.client_id)?.name ?? c.session.client_id,
    locationName: org.locations.find((l) => l.id === c.onboarding.employment.location_id)?.name ?? c.onboarding.employment.location_id,
    userName: (id) => ws.store.users.get(id)?.name ?? id,
    reviewers: ws.store.users.values().filter((u) => u.organization_id === org.id && u.roles.some((r) => REVIEWING_ROLES.includes(r))),
  };
}

/** The review (or the sign-in, until there is a reviewer), with the message for the parent page. */
function reviewPage(ws: Workspace, c: ReviewContext, status: number, n?: Notice | null, outcome?: ReviewOutcome): Page {
  const m = model(ws, c);
  const origin = c.page.parent_origin;
  const message: ReviewMessage | null = outcome
    ? {
        type: MESSAGE_TYPE,
        outcome: outcome.outcome,
        review_session_id: c.session.id,
        onboarding_id: c.onboarding.id,
        role: outcome.outcome === 'approved' ? outcome.role : null,
        returned_to: outcome.outcome === 'returned' ? outcome.returned_to : null,
        status: c.onboarding.status,
        data_version: c.onboarding.data_version,
      }
    : null;
  return {
    status,
    title: c.user ? 'Review onboarding' : 'Sign in to review',
    body: c.user ? reviewView(m, c.user, n) : signInView(m, n),
    data: origin ? { target_origin: origin, message } : undefined,
  };
}

const refusal = (err: ApiError): Notice => ({ kind: 'error', text: err.message, code: err.code });

function done(outcome: ReviewOutcome, c: ReviewContext): Notice {
  if (outcome.outcome === 'identity_verified') return { kind: 'ok', text: 'Identity check confirmed. The approvals are open.' };
  if (outcome.outcome === 'returned') return { kind: 'ok', text: `Returned to the ${outcome.returned_to} for correction.` };
  const all = c.onboarding.status === 'contract_ready' ? ' Every approval is given: the onboarding is approved.' : '';
  return { kind: 'ok', text: `Approved as ${outcome.role.replace('_', ' ')}.${all}` };
}

function located(emulator: Emulator, token: string): { ws: Workspace; session: ReviewSessionRecord } | undefined {
  for (const ws of emulator.workspaces()) {
    const session = findReviewSession(ws, token);
    if (session) return { ws, session };
  }
  return undefined;
}

const notFound = (res: Response) =>
  // Names nothing, so any product may show it in its frame.
  send(res, { status: 404, title: 'Review link not found', body: notFoundBody }, '*');

const ancestorsOf = (ws: Workspace, session: ReviewSessionRecord) => frameAncestors(framingOrganizations(ws, session));

/** GET /review/:token. HEAD answers the same without using up the one opening. */
function open(emulator: Emulator): RequestHandler {
  return (req: Request, res: Response): void => {
    const found = located(emulator, String(req.params.token));
    if (!found) return notFound(res);
    const { ws, session } = found;
    ws.scheduler.runDue(); // a realtime clock may have passed timers since the last request
    const origin = typeof req.query.origin === 'string' ? req.query.origin : undefined;
    const result = openReviewSession(ws, session, req.method !== 'HEAD', origin);
    const ancestors = ancestorsOf(ws, session);
    if (result.kind === 'open') return send(res, reviewPage(ws, result.context, 200), ancestors);
    const body = result.kind === 'expired' ? goneBodies.expired(session.expires_at) : goneBodies[result.kind]();
    const titles = { used: 'Review link used', expired: 'Review link expired', no_longer_in_review: 'Review over' };
    send(res, { status: 410, title: titles[result.kind], body }, ancestors);
  };
}

type Form = Record<string, unknown>;
const field = (form: Form, name: string): string | undefined => (typeof form[name] === 'string' ? (form[name] as string) : undefined);

/** The page's action: throws an ApiError to refuse (shown on the page), else returns the outcome. */
type Act = (ws: Workspace, c: ReviewContext, form: Form) => ReviewOutcome | ReviewContext;

const act: Record<'sign-in' | 'identity-verification' | 'approvals' | 'return', Act> = {
  'sign-in': (ws, c, form) => {
    const email = field(form, 'email')?.trim();
    return signIn(ws, c, email ? { email } : { user_id: field(form, 'user_id') });
  },
  'identity-verification': (ws, c) => confirmIdentity(ws, c),
  approvals: (ws, c, form) => {
    const role = field(form, 'role');
    if (!role || !(ROLES as readonly string[]).includes(role)) throw fail('parameter_invalid', 'Choose the role you approve in.', 'role');
    const version = Number(field(form, 'data_version'));
    if (!Number.isInteger(version)) throw fail('parameter_invalid', 'The form lacks the data version it showed; open the review again.', 'data_version');
    return approveAs(ws, c, role as Role, version);
  },
  return: (ws, c, form) => {
    const to = field(form, 'to');
    if (to !== 'employee' && to !== 'manager') throw fail('parameter_invalid', 'Choose whether the data goes back to the employee or to the manager.', 'to');
    const reason = field(form, 'reason')?.trim() || undefined;
    if (reason !== undefined && reason.length > RETURN_REASON_MAX) {
      throw fail('parameter_invalid', `Keep the reason to ${RETURN_REASON_MAX} characters.`, 'reason');
    }
    return returnData(ws, c, to, reason);
  },
};

/** POST /review/:token/<suffix>: the form's action token resumes the opened page's session. */
function post(emulator: Emulator, suffix: keyof typeof act): RequestHandler {
  return (req: Request, res: Response): void => {
    const found = located(emulator, String(req.params.token));
    if (!found) return notFound(res);
    const { ws, session } = found;
    ws.scheduler.runDue();
    const ancestors = ancestorsOf(ws, session);
    const form = (req.body ?? {}) as Form;
    const resumed = resumeReviewSession(ws, session, field(form, 'action_token'));
    if (resumed.kind === 'invalid') return send(res, { status: 403, title: 'Review not open', body: goneBodies.invalid() }, ancestors);
    if (resumed.kind === 'expired') {
      return send(res, { status: 410, title: 'Review timed out', body: goneBodies.page_expired(resumed.page.expires_at) }, ancestors);
    }
    let c = resumed.context;
    if (suffix !== 'sign-in' && !c.user) {
      return send(res, reviewPage(ws, c, 403, { kind: 'error', text: 'Sign in first: the review needs your account.' }), ancestors);
    }
    try {
      const result = act[suffix](ws, c, form);
      ws.scheduler.runDue(); // deliveries of the events this action made start now
      if (!('outcome' in result)) return send(res, reviewPage(ws, result, 200), ancestors);
      c = refreshed(ws, c);
      send(res, reviewPage(ws, c, 200, done(result, c), result), ancestors);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      send(res, reviewPage(ws, refreshed(ws, c), err.status, refusal(err)), ancestors);
    }
  };
}

function asset(body: string, type: string, crossOrigin: boolean): RequestHandler {
  return (_req: Request, res: Response): void => {
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // embed.js is included by the partner's page on another origin.
    if (crossOrigin) {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Access-Control-Allow-Origin', '*');
    }
    res.end(body);
  };
}

/** Form bodies are parsed on these routes only, small and flat. */
const FORM_LIMIT_KB = 16;
const parse = express.urlencoded({ extended: false, limit: `${FORM_LIMIT_KB}kb`, parameterLimit: 20 });

/** Why a form body was not read (body-parser's error types), in words for the reviewer. */
function unreadable(err: unknown): ApiError {
  const { status, type } = err as { status?: unknown; type?: unknown };
  if (type === 'entity.too.large') {
    return fail('body_too_large', `The form is larger than ${FORM_LIMIT_KB} kB and was not read. Go back, keep the reason to ${RETURN_REASON_MAX} characters and send it again.`);
  }
  if (type === 'parameters.too.many') return fail('body_too_large', 'The form has more fields than the review page sends. Open the review again and use its buttons.');
  if (status === 415) return fail('content_type_unsupported', 'The form was sent in an encoding the page cannot read. Open the review again and use its buttons.');
  return fail('request_malformed', 'The form could not be read. Open the review again and send it from the page.');
}

/** The form parser, its refusals a page in the session's frame (not the envelope); nothing was changed. */
function forms(emulator: Emulator): RequestHandler {
  return (req: Request, res: Response, next): void => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const found = located(emulator, String(req.params.token));
      if (!found) return notFound(res);
      const e = unreadable(err);
      const body = html`<h1>The form was not sent</h1><p class="notice error" role="alert">${e.message}</p><p>Nothing was changed.</p>`;
      send(res, { status: e.status, title: e.status === 413 ? 'Form too large' : 'Form not readable', body }, ancestorsOf(found.ws, found.session));
    });
  };
}

export function mountReviewPages(app: Express, emulator: Emulator): void {
  app.get('/review/:token', open(emulator));
  for (const suffix of Object.keys(act) as (keyof typeof act)[]) app.post(`/review/:token/${suffix}`, forms(emulator), post(emulator, suffix));
  app.get('/embed.js', asset(EMBED_JS, 'text/javascript', true));
  app.get('/embed/review-page.js', asset(PAGE_JS, 'text/javascript', false));
  app.get('/embed/review-page.css', asset(PAGE_CSS, 'text/css', false));
}
