import { ApiError, fail } from '../../core/errors.js';
import type { Workspace } from '../../core/workspace.js';
import { RETURN_REASON_MAX } from '../../resources/onboardings/onboardings.model.js';
import { REVIEWING_ROLES, ROLES, type Role } from '../../resources/organizations/organizations.model.js';
import type { ReviewSessionRecord } from '../../resources/reviews/reviews.model.js';
import {
  approveAs, confirmIdentity, framingOrganizations, openReviewSession, refreshed, resumeReviewSession, returnData, signIn,
  type ReviewContext, type ReviewOutcome,
} from '../../resources/reviews/reviews.page.js';
import { findReviewSession } from '../../resources/reviews/reviews.service.js';
import { html } from '../html.js';
import { linkPage, type FormRules, type LinkContext, type PageForm, type PageLink, type PageReply, type PageRoute, type PageResponse } from '../route.js';
import { EMBED_JS, MESSAGE_TYPE, PAGE_CSS, PAGE_JS } from './review.assets.js';
import { reviewPolicy } from './review.frame.js';
import { ANY_ANCESTOR, frameAncestors } from '../framing.js';
import {
  document, goneBodies, notFoundBody, reviewView, signInView, type Notice, type Page, type ReviewMessage, type ReviewModel,
} from './review.views.js';
import { htmlFile, RawFile } from '../../operations/reply.js';
import { testId } from '../test-ids.js';

/**
 * The embedded review (spec: POST .../review-sessions, "embed.js with review_url"): the page
 * behind review_url, its four forms, embed.js for the partner's page and the page's own script
 * and style. Answers are HTML, not the envelope: a person reads them inside a partner's iframe.
 */

/** The page in the frame it may be shown in. */
function answer(page: Page, ancestors: string): PageReply {
  return {
    status: page.status,
    body: htmlFile(document(page)),
    headers: {
      'Content-Security-Policy': reviewPolicy(ancestors),
      // The token is in the URL and the forms carry the action token: keep both out of caches and Referer headers.
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    },
  };
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

/** The link's session; the mount found its workspace by the same token. */
const sessionOf = (ctx: LinkContext): ReviewSessionRecord => ctx.workspace.store.reviewSessions.get(ctx.linked)!;

const ancestorsOf = (ws: Workspace, session: ReviewSessionRecord) => frameAncestors(framingOrganizations(ws, session));

const REVIEW_LINK: PageLink = {
  find: (workspaces, params) => {
    for (const workspace of workspaces) {
      const session = findReviewSession(workspace, params.token!);
      if (session) return { workspace, id: session.id };
    }
    return undefined;
  },
  notFound: () => answer({ status: 404, title: 'Review link not found', body: notFoundBody }, ANY_ANCESTOR),
};

const TOKEN = { token: 'the token of review_url' };
const html200 = (description: string): Record<number, PageResponse> => ({ 200: { description } });

/** GET /review/:token. HEAD answers the same without using up the one opening. */
const open = linkPage({
  kind: 'page', method: 'GET', path: '/review/:token', link: REVIEW_LINK, params: TOKEN,
  operationId: 'openReviewPage',
  summary: 'The embedded review page behind review_url: opens once, within 15 minutes',
  description:
    'HTML. 200 on the first opening: the sign-in (first review from this product) or, for a linked user, the review itself; 410 once used or expired; 404 for an unknown link. ' +
    "Content-Security-Policy frame-ancestors admits the employer's allowed_origins (and the partner's, for a partner's session). " +
    'embed.js adds `origin` (the framing page\'s origin): when allowed_origins admits it, the page posts its outcomes to it.',
  query: { origin: { description: "the framing page's origin (set by embed.js)" } },
  responses: { ...html200('The sign-in or the review page'), 404: { description: 'Unknown link' }, 410: { description: 'Link already used, expired, or the review is over' } },
  handle: (ctx) => {
    const ws = ctx.workspace;
    const session = sessionOf(ctx);
    const origin = typeof ctx.query.origin === 'string' ? ctx.query.origin : undefined;
    const result = openReviewSession(ws, session, !ctx.info.head, origin);
    const ancestors = ancestorsOf(ws, session);
    if (result.kind === 'open') return answer(reviewPage(ws, result.context, 200), ancestors);
    const body = result.kind === 'expired' ? goneBodies.expired(session.expires_at) : goneBodies[result.kind]();
    const titles = { used: 'Review link used', expired: 'Review link expired', no_longer_in_review: 'Review over' };
    return answer({ status: 410, title: titles[result.kind], body }, ancestors);
  },
});

/** The page's action: throws an ApiError to refuse (shown on the page), else returns the outcome. */
type Act = (ws: Workspace, c: ReviewContext, form: PageForm) => ReviewOutcome | ReviewContext;

/** Form bodies are small and flat: the longest field is the return reason. */
const FORM_LIMIT_KB = 16;
const FORM: Omit<FormRules, 'fields' | 'required'> = {
  maxBytes: FORM_LIMIT_KB * 1024,
  maxFields: 20,
  says: {
    tooLarge: `The form is larger than ${FORM_LIMIT_KB} kB and was not read. Go back, keep the reason to ${RETURN_REASON_MAX} characters and send it again.`,
    tooManyFields: 'The form has more fields than the review page sends. Open the review again and use its buttons.',
    notAForm: 'The form was sent in an encoding the page cannot read. Open the review again and use its buttons.',
    unreadable: 'The form could not be read. Open the review again and send it from the page.',
  },
};

const FORM_RESPONSES: Record<number, PageResponse> = {
  ...html200('The review page after the action'),
  403: { description: 'Not this page\'s action token, not signed in, or a role not held' },
  404: { description: 'Unknown link' },
  409: { description: 'Refused by the life cycle (four-eyes, state)' },
  410: { description: 'The page timed out' },
  422: { description: 'A field is missing or wrong' },
  400: { description: 'The form could not be read' },
  413: { description: `The form is larger than ${FORM_LIMIT_KB} kB or has too many fields` },
  415: { description: 'Not a web form' },
};

/** POST /review/:token/<suffix>: the form's action token resumes the opened page's session. */
function formRoute(suffix: string, operationId: string, summary: string, fields: Record<string, unknown>, required: string[], act: Act): PageRoute {
  return linkPage({
    kind: 'page', method: 'POST', path: `/review/:token/${suffix}`, link: REVIEW_LINK, params: TOKEN, operationId, summary,
    description: 'HTML form post from the opened review page. A refusal (four-eyes, role, state) answers the page again with the message, in the status of the API\'s error code.',
    form: {
      ...FORM,
      fields: { action_token: { type: 'string', description: 'the hidden field of the opened page' }, ...fields },
      required: ['action_token', ...required],
    },
    responses: FORM_RESPONSES,
    handle: async (ctx) => {
      const ws = ctx.workspace;
      const session = sessionOf(ctx);
      const ancestors = ancestorsOf(ws, session);
      const form = await ctx.form();
      const resumed = resumeReviewSession(ws, session, form.text('action_token'));
      if (resumed.kind === 'invalid') return answer({ status: 403, title: 'Review not open', body: goneBodies.invalid() }, ancestors);
      if (resumed.kind === 'expired') {
        return answer({ status: 410, title: 'Review timed out', body: goneBodies.page_expired(resumed.page.expires_at) }, ancestors);
      }
      let c = resumed.context;
      if (suffix !== 'sign-in' && !c.user) {
        return answer(reviewPage(ws, c, 403, { kind: 'error', text: 'Sign in first: the review needs your account.' }), ancestors);
      }
      try {
        const result = act(ws, c, form);
        if (!('outcome' in result)) return answer(reviewPage(ws, result, 200), ancestors);
        c = refreshed(ws, c);
        return answer(reviewPage(ws, c, 200, done(result, c), result), ancestors);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return answer(reviewPage(ws, refreshed(ws, c), err.status, refusal(err)), ancestors);
      }
    },
    // A form that could not be read, in the session's frame; nothing was changed.
    refused: (err, ctx) => {
      const body = html`<h1${testId('page-title')}>The form was not sent</h1><p class="notice error" role="alert"${testId('notice')}>${err.message}</p><p>Nothing was changed.</p>`;
      const title = err.status === 413 ? 'Form too large' : 'Form not readable';
      return answer({ status: err.status, title, body }, ancestorsOf(ctx.workspace, sessionOf(ctx)));
    },
  });
}

const ROLE = { type: 'string', enum: [...ROLES] };

const forms: PageRoute[] = [
  formRoute('sign-in', 'signInReviewPage', 'The emulated sign-in: links the client\'s user to the account for 30 days', {
    user_id: { type: 'string' }, email: { type: 'string', description: 'instead of user_id' },
  }, [], (ws, c, form) => {
    const email = form.text('email')?.trim();
    return signIn(ws, c, email ? { email } : { user_id: form.text('user_id') });
  }),
  formRoute('identity-verification', 'verifyIdentityReviewPage', 'Confirm the identity check (role manager)', {}, [], (ws, c) => confirmIdentity(ws, c)),
  formRoute('approvals', 'approveReviewPage', 'Approve in a role the reviewer holds; four-eyes as for the API', {
    role: ROLE, data_version: { type: 'string', pattern: '^[0-9]+$' },
  }, ['role', 'data_version'], (ws, c, form) => {
    const role = form.text('role');
    if (!role || !(ROLES as readonly string[]).includes(role)) throw fail('parameter_invalid', 'Choose the role you approve in.', 'role');
    const version = Number(form.text('data_version'));
    if (!Number.isInteger(version)) throw fail('parameter_invalid', 'The form lacks the data version it showed; open the review again.', 'data_version');
    return approveAs(ws, c, role as Role, version);
  }),
  formRoute('return', 'returnReviewPage', 'Return the data for correction', {
    to: { type: 'string', enum: ['employee', 'manager'] },
    reason: { type: 'string', maxLength: RETURN_REASON_MAX, description: 'optional; shown to the employee on the hosted form' },
  }, ['to'], (ws, c, form) => {
    const to = form.text('to');
    if (to !== 'employee' && to !== 'manager') throw fail('parameter_invalid', 'Choose whether the data goes back to the employee or to the manager.', 'to');
    const reason = form.text('reason')?.trim() || undefined;
    if (reason !== undefined && reason.length > RETURN_REASON_MAX) {
      throw fail('parameter_invalid', `Keep the reason to ${RETURN_REASON_MAX} characters.`, 'reason');
    }
    return returnData(ws, c, to, reason);
  }),
];

/** A static file of the review; embed.js is included by the partner's page on another origin. */
function file(path: string, operationId: string, summary: string, bytes: string, type: string, crossOrigin: boolean): PageRoute {
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
  if (crossOrigin) Object.assign(headers, { 'Cross-Origin-Resource-Policy': 'cross-origin', 'Access-Control-Allow-Origin': '*' });
  return {
    kind: 'page', method: 'GET', path, operationId, summary,
    responses: { 200: { description: summary, media: type }, 405: { description: 'Another method than GET or HEAD (an HTML page, with Allow)' } },
    handle: () => ({ status: 200, body: new RawFile(bytes, `${type}; charset=utf-8`), headers }),
  };
}

export const reviewPageRoutes: PageRoute[] = [
  open,
  ...forms,
  file('/embed.js', 'embedScript', 'embed.js: OnboardingReview.mount(target, reviewUrl, {onMessage}) mounts the review in an iframe', EMBED_JS, 'text/javascript', true),
  file('/embed/review-page.js', 'reviewPageScript', "The review page's own script: posts outcomes to the admitted framing origin", PAGE_JS, 'text/javascript', false),
  file('/embed/review-page.css', 'reviewPageStyle', "The review page's style sheet", PAGE_CSS, 'text/css', false),
];
