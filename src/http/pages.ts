import type { Express, Request, Response } from 'express';
import type { Emulator } from '../emulator.js';
import type { Workspace } from '../core/workspace.js';
import type { Organization } from '../resources/organizations/organizations.model.js';
import type { ReviewSessionRecord } from '../resources/reviews/reviews.model.js';
import { findReviewSession, openReviewSession, type ReviewPage } from '../resources/reviews/reviews.service.js';

/**
 * The pages behind the links the API hands out (design section 10). They answer in HTML, not
 * in the error envelope: a person reads them, often inside a partner's iframe.
 */
export const PAGE_ROUTES = [{ method: 'GET', path: '/review/:token' }] as const;

/** For the OpenAPI document: the same routes, answering text/html. */
export const PAGE_OPERATIONS = {
  '/review/{token}': {
    get: {
      operationId: 'openReviewPage',
      summary: 'The embedded review page behind review_url: opens once, within 15 minutes',
      description:
        'HTML. 200 on the first opening (records it and links the reviewer for 30 days); 410 once used or expired; 404 for an unknown link. ' +
        "Content-Security-Policy frame-ancestors admits the employer's allowed_origins (and the partner's, for a partner's session).",
      tags: ['Pages'],
      security: [{}],
      parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string' } }],
      responses: Object.fromEntries(
        [['200', 'The review page'], ['404', 'Unknown link'], ['410', 'Link already used, expired, or the review is over']].map(([status, description]) => [
          status,
          { description, content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } } } },
        ]),
      ),
    },
  },
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** allowed_origins entries are host names (a scheme, port or path in one is ignored, as for return_url). */
const HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/**
 * frame-ancestors for a session: the employer's allowed_origins, and the partner's when a
 * partner's key made it (the partner's product embeds the page). Scheme-less sources with any
 * port, so an http or https ancestor on that host may frame the page. Entries that are not
 * host names are left out, so no setting can inject another directive.
 */
export function frameAncestors(organizations: (Organization | undefined)[]): string {
  const hosts = organizations
    .flatMap((o) => o?.allowed_origins ?? [])
    .map((entry) => entry.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[:/].*$/, '').toLowerCase())
    .filter((host) => HOST.test(host));
  return ["'self'", ...new Set(hosts.map((h) => `${h}:*`))].join(' ');
}

function send(res: Response, status: number, ancestors: string, title: string, body: string): void {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;margin:1.5rem;color:#1d2733}` +
    `code{background:#eef2f6;padding:0 .25rem}.note{color:#5b6b7b;font-size:.875rem}</style></head>` +
    `<body><main>${body}</main></body></html>`;
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`,
  );
  // The token is in the URL: keep it out of caches and of Referer headers.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(html);
}

function reviewBody({ session, organization, onboarding, link, newlyLinked }: ReviewPage): string {
  const reviewer = session.reviewer;
  const who = reviewer.name === null ? escapeHtml(reviewer.email) : `${escapeHtml(reviewer.name)} (${escapeHtml(reviewer.email)})`;
  const signIn = newlyLinked
    ? `First review from this product: the reviewer signed in with an own account (emulated). User <code>${escapeHtml(reviewer.external_id)}</code> is now linked until ${link.expires_at}.`
    : `User <code>${escapeHtml(reviewer.external_id)}</code> is linked since ${link.linked_at}; the review opened directly.`;
  return (
    `<h1>Review the onboarding of ${escapeHtml(onboarding.employee.first_name)}</h1>` +
    `<p>Onboarding <code>${escapeHtml(onboarding.id)}</code> at ${escapeHtml(organization.name)}, data version ${onboarding.data_version}.</p>` +
    `<p>Reviewer: ${who}.</p><p>${signIn}</p>` +
    `<p class="note">Emulator page. The national ID number and the identity document stay with the service. ` +
    `Approve through <code>POST /v1/onboardings/{id}/approvals</code> or the sandbox advance.</p>`
  );
}

const AGAIN = '<p>Ask the product for a new review.</p>';

/** The 410 pages: title and body for each way a link can be over. */
const GONE: Record<'used' | 'expired' | 'no_longer_in_review', (s: ReviewSessionRecord) => [string, string]> = {
  used: () => ['Review link used', `<h1>This review link was already used</h1><p>A review link opens once.</p>${AGAIN}`],
  expired: (s) => ['Review link expired', `<h1>This review link has expired</h1><p>It was valid until ${s.expires_at}.</p>${AGAIN}`],
  no_longer_in_review: () => ['Review over', '<h1>This onboarding is no longer in review</h1><p>There is nothing left to review through this link.</p>'],
};

function ancestorsOf(ws: Workspace, session: ReviewSessionRecord): string {
  const partner = session.partner_id === null ? undefined : ws.store.organizations.get(session.partner_id);
  return frameAncestors([ws.store.organizations.get(session.organization_id), partner]);
}

/** GET /review/:token. HEAD answers the same without using up the one opening. */
function reviewPage(emulator: Emulator) {
  return (req: Request, res: Response): void => {
    const token = String(req.params.token);
    for (const ws of emulator.workspaces()) {
      const session = findReviewSession(ws, token);
      if (!session) continue;
      ws.scheduler.runDue(); // a realtime clock may have passed timers since the last request
      const result = openReviewSession(ws, session, req.method !== 'HEAD');
      const ancestors = ancestorsOf(ws, session);
      if (result.kind === 'open') return send(res, 200, ancestors, 'Review onboarding', reviewBody(result.page));
      const [title, body] = GONE[result.kind](session);
      return send(res, 410, ancestors, title, body);
    }
    // Names nothing, so any product may show it in its frame.
    send(res, 404, '*', 'Review link not found', '<h1>Review link not found</h1><p>Check the link, or ask the product for a new review.</p>');
  };
}

export function mountPages(app: Express, emulator: Emulator): void {
  app.get('/review/:token', reviewPage(emulator));
}
