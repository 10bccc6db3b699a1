import { documentFile } from '../../resources/documents/documents.files.js';
import { codeVoid, confirmCode, findByLinkToken, hasSession, needsCodeMail, sendCode } from '../../resources/onboardings/onboardings.hosted-access.js';
import { employeeSign, employeeSubmit, linkRefusal } from '../../resources/onboardings/onboardings.lifecycle.js';
import type { OnboardingRecord } from '../../resources/onboardings/onboardings.model.js';
import type { Workspace } from '../../core/workspace.js';
import { ANY_ANCESTOR, frameAncestors, sessionCookieAttributes } from '../framing.js';
import { pageHeaders, renderPage, resourcePolicy } from '../layout.js';
import { linkPage, type FormRules, type LinkContext, type LinkPageRoute, type PageLink, type PageReply, type PageResponse, type PageRoute } from '../route.js';
import { checkDetails, DETAIL_FIELDS, MAX_UPLOAD_BYTES, type DetailField } from '../../resources/onboardings/onboardings.employee-form.js';
import {
  codeView, contractView, detailsView, goneView, inReviewView, notFoundView, refusedView, signedView, valuesOf,
  type LinkModel, type View,
} from './hosted.views.js';
import { htmlFile, Redirect } from '../../operations/reply.js';

/**
 * The employee's pages behind hosted_url (spec: "The employee opens that link and confirms
 * with a one-time code"): the code, the form, the contract and its signature. Server-rendered
 * forms that post and redirect (303), so no script is needed. Every change goes through the
 * life-cycle functions the API uses; answers are HTML, never the error envelope.
 */

/** The page session after a correct code: one cookie per link, sent back to that link's pages only. */
const COOKIE = 'hosted_session';

interface Located {
  ws: Workspace;
  record: OnboardingRecord;
  model: LinkModel;
  brand: { name: string; color: string | null };
  /** frame-ancestors: the employer's allowed_origins, and the partner's for a partner's onboarding. */
  ancestors: string;
  session: string | undefined;
}

/**
 * A page of a link speaks for its employer, in a frame of a product its allowed_origins admit;
 * its forms may end in a redirect to the return_url. A page for no link names no one.
 */
function answer(view: View, l?: Pick<Located, 'brand' | 'record' | 'ancestors'>): PageReply {
  const policy = l ? { formAction: returnOrigin(l.record), frameAncestors: l.ancestors } : { frameAncestors: ANY_ANCESTOR };
  const page = renderPage({ title: view.title, body: view.body, brand: l?.brand }, policy);
  return { status: view.status, body: htmlFile(page.html), headers: pageHeaders(page.csp) };
}

/** A return_url's origin: the redirect after a form is a form navigation, so form-action must admit it. */
function returnOrigin(r: OnboardingRecord): string[] {
  if (!r.return_url) return [];
  try {
    return [new URL(r.return_url).origin];
  } catch {
    return [];
  }
}

const HOSTED_LINK: PageLink = {
  find: (workspaces, params) => {
    for (const workspace of workspaces) {
      const found = findByLinkToken(workspace, params.token!);
      if (found) return { workspace, id: found.record.id };
    }
    return undefined;
  },
  notFound: () => answer(notFoundView),
};

/**
 * The link as it stands now (the mount ran what fell due on its clock), or the page of a link
 * that cannot be used (404 unknown; 410 replaced, revoked, expired, cancelled, finished).
 */
function locate(ctx: LinkContext): Located | PageReply {
  const { workspace: ws } = ctx;
  const token = ctx.params.token!;
  const record = ws.store.onboardings.get(ctx.linked);
  if (!record) return answer(notFoundView);
  const org = ws.store.organizations.get(record.organization_id);
  const brand = { name: org?.name ?? record.organization_id, color: org?.branding?.color ?? null };
  const partner = record.partner_id === null ? undefined : ws.store.organizations.get(record.partner_id);
  const ancestors = frameAncestors([org, partner]);
  const link = record.hosted_link;
  const refused = linkRefusal(ws, record, token);
  if (refused || !link) return answer(goneView(refused ?? 'revoked', brand.name, link?.expires_at ?? null), { brand, record, ancestors });
  const session = ctx.cookies[COOKIE];
  return { ws, record, brand, ancestors, model: { token, employer: brand.name, record, framed: ctx.framed }, session: hasSession(link, session) ? session : undefined };
}

const isReply = (x: Located | PageReply): x is PageReply => 'status' in x;

/** The page a signed-in employee sees for the onboarding's status. */
function pageFor(l: Located): View {
  const r = l.record;
  switch (r.status) {
    case 'pending_employee': {
      const previous = r.employee_details;
      return detailsView(l.model, { values: valuesOf(previous), errors: {}, previousDocument: previous?.identity_document ?? undefined });
    }
    case 'in_review':
    case 'contract_ready':
      return inReviewView(l.model);
    case 'awaiting_employee_signature':
      return contractView(l.model);
    default:
      return signedView(l.model);
  }
}

const withRecord = (l: Located, record: OnboardingRecord): Located => ({ ...l, record, model: { ...l.model, record } });

/** Redirect after a post; Referrer-Policy keeps the token in the path away from the return_url's site. */
const seeOther = (location: string, cookies?: string[]): PageReply => ({
  status: 303, body: new Redirect(location), headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }, cookies,
});

const home = (l: Located) => `/hosted/${l.model.token}`;

/** After submit or signature: the return_url when one was given, else the page that says what comes next. */
const done = (l: Located) => seeOther(l.record.return_url ?? home(l));

const TOKEN = { token: 'the token of hosted_url' };
const GONE: Record<number, PageResponse> = {
  404: { description: 'Unknown link' },
  410: { description: 'The link expired, was replaced or revoked, or the onboarding is cancelled or finished' },
};
const NOT_READ = { 400: { description: 'The form could not be read' }, 415: { description: 'Not a web form' } };

/** A page of the link: located first, so a link that cannot be used answers its own page. */
function hostedPage(row: Omit<LinkPageRoute, 'link' | 'params' | 'handle' | 'refused'>, handle: (ctx: LinkContext, l: Located) => PageReply | Promise<PageReply>): PageRoute {
  return linkPage({
    ...row, link: HOSTED_LINK, params: TOKEN,
    handle: (ctx) => {
      const l = locate(ctx);
      return isReply(l) ? l : handle(ctx, l);
    },
    // Refusals of the life cycle and forms that could not be read, on a page in their status.
    refused: (err, ctx) => {
      const l = locate(ctx);
      return isReply(l) ? l : answer(refusedView(l.model, err.status, err.message), l);
    },
  });
}

/** A form post of the link; `needsSession`: only after the code was confirmed in this browser. */
function hostedPost(
  suffix: string, operationId: string, summary: string, description: string, success: string, more: Record<number, PageResponse>,
  needsSession: boolean, handle: (ctx: LinkContext, l: Located) => PageReply | Promise<PageReply>, form?: FormRules,
): PageRoute {
  return hostedPage({
    kind: 'page', method: 'POST', path: `/hosted/:token/${suffix}`, operationId, summary, description,
    responses: { 303: { description: success, location: true }, ...more, ...GONE },
    ...(form ? { form } : {}),
  }, (ctx, l) => {
    if (needsSession && !l.session) {
      return answer(refusedView(l.model, 403, 'Confirm your one-time code first: your session for this link has ended or was never started.'), l);
    }
    return handle(ctx, l);
  });
}

const TEXT = { type: 'string' };
const tooLarge = `The form is too large: the identity document may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`;
const FORM_SAYS = {
  tooLarge,
  notAForm: 'The form must be sent as a web form (multipart/form-data or application/x-www-form-urlencoded).',
  unreadable: 'The form could not be read; send it again from the page.',
};

const open = hostedPage({
  kind: 'page', method: 'GET', path: '/hosted/:token',
  operationId: 'openHostedPage',
  summary: 'The employee\'s hosted page behind hosted_url',
  description:
    'HTML. Without a page session: asks for the one-time code, and the first opening mails it (outbox kind one_time_code, no event). ' +
    'With the session cookie a correct code set: the page for the onboarding\'s status (the form, the review notice, the contract to sign, the thank-you). ' +
    'Forms post and redirect (303), so no script is needed. 404 for an unknown link, 410 when it cannot be used any more.',
  responses: { 200: { description: 'The code page or the page for the onboarding\'s status' }, ...GONE },
}, (ctx, l) => {
  if (l.session) return answer(pageFor(l), l);
  if (!ctx.info.head && needsCodeMail(l.record.hosted_link!)) {
    // Opening the link sends the code: the link's own code the first time, so an invitation's code keeps working.
    l = withRecord(l, sendCode(l.ws, l.record, ctx.info.baseUrl, false));
  }
  const current = l.record.hosted_link!;
  const notice = ctx.query.sent === '1' ? 'A new code is on its way; the previous code no longer works.' : undefined;
  return answer(codeView(l.model, { sentAt: current.code_sent_at, isVoid: codeVoid(current), notice }), l);
});

const code = hostedPost(
  'code', 'confirmHostedCode', 'Confirm the one-time code: activates the link (onboarding.started) and starts the page session',
  'A wrong code is 422 with the attempts left; the fifth makes the code void (422) until a new one is sent.',
  'The code was right: the session cookie is set, on to the link\'s page',
  { 422: { description: 'Wrong, missing or void code' }, ...NOT_READ }, false,
  async (ctx, l) => {
    const form = await ctx.form();
    const typed = (form.text('code') ?? '').replace(/\s+/g, '');
    const link = l.record.hosted_link!;
    if (codeVoid(link)) return answer(codeView(l.model, { sentAt: link.code_sent_at, isVoid: true }, 422), l);
    if (typed === '') {
      return answer(codeView(l.model, { sentAt: link.code_sent_at, isVoid: false, error: 'Enter the 6-digit code from the e-mail.' }, 422), l);
    }
    const result = confirmCode(l.ws, l.record, typed);
    const sent = result.record.hosted_link!.code_sent_at;
    if (result.kind === 'void') {
      return answer(codeView(l.model, { sentAt: sent, isVoid: true, error: 'That code was wrong 5 times and no longer works.' }, 422), l);
    }
    if (result.kind === 'wrong') {
      const error = `That code is not right. ${result.remaining === 1 ? '1 attempt is' : `${result.remaining} attempts are`} left before the code stops working.`;
      return answer(codeView(l.model, { sentAt: sent, isVoid: false, error }, 422), l);
    }
    return seeOther(home(l), [`${COOKIE}=${result.session}; Path=${home(l)}; HttpOnly; ${sessionCookieAttributes(ctx.info.baseUrl, ctx.framed)}`]);
  },
  { maxBytes: 2 * MAX_UPLOAD_BYTES, fields: { code: TEXT }, required: ['code'], says: FORM_SAYS },
);

const newCode = hostedPost(
  'code/new', 'sendHostedCode', 'Mail a new one-time code (the previous one stops working)', 'The mail goes to the outbox (kind one_time_code).',
  'Back to the code page', {}, false,
  (ctx, l) => {
    if (l.session) return seeOther(home(l)); // already confirmed in this browser
    sendCode(l.ws, l.record, ctx.info.baseUrl, true);
    return seeOther(`${home(l)}?sent=1`);
  },
);

const details = hostedPost(
  'details', 'submitHostedDetails', 'Send the employee\'s data: address, date of birth, IBAN, BSN and the identity document',
  'Every field is checked (IBAN mod-97, BSN 11-check, the document a JPEG, PNG or PDF of at most 4 MB); a mistake answers the form again (422) with a message at each field and stores nothing. ' +
    'Success submits as the API\'s life cycle does (onboarding.employee_submitted, ...).',
  'Submitted: to the return_url when the onboarding has one, else to the thank-you page',
  {
    403: { description: 'No page session: confirm the code first' }, 409: { description: 'Refused by the life cycle (sent already)' },
    413: { description: 'The form is too large' }, 422: { description: 'A field is wrong' }, ...NOT_READ,
  },
  true,
  async (ctx, l) => {
    const form = await ctx.form();
    const fields = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, form.text(f) ?? ''])) as Record<DetailField, string>;
    const upload = await form.file('identity_document');
    const previousDocument = l.record.employee_details?.identity_document ?? undefined;
    const checked = checkDetails(fields, upload, { today: l.ws.now().slice(0, 10), previousDocument });
    if (!checked.ok) {
      // Nothing is stored: the form comes back with what was typed and a message at each wrong field.
      return answer(detailsView(l.model, { values: checked.values, errors: checked.errors, previousDocument }, 422), l);
    }
    const next = employeeSubmit(l.ws, l.record, { details: checked.details, newDocument: upload !== null && upload.size > 0 });
    return done({ ...l, record: next });
  },
  {
    multipart: true,
    // The whole body at most: the file limit plus room for the fields, so a file just over its limit still gets its inline message.
    maxBytes: 2 * MAX_UPLOAD_BYTES,
    fields: {
      street: TEXT, house_number: TEXT, postcode: TEXT, city: TEXT, birth_date: { type: 'string', format: 'date' }, iban: TEXT, bsn: TEXT,
      identity_document: { type: 'string', contentMediaType: 'application/octet-stream', description: 'JPEG, PNG or PDF; may be left out on a returned form that keeps the earlier one' },
    },
    required: ['street', 'house_number', 'postcode', 'city', 'birth_date', 'iban', 'bsn'],
    says: FORM_SAYS,
  },
);

const contract = hostedPage({
  kind: 'page', method: 'GET', path: '/hosted/:token/contract.pdf',
  operationId: 'hostedContract', summary: 'The contract to sign, for the employee with a page session',
  responses: {
    200: { description: 'The contract', media: 'application/pdf' },
    403: { description: 'No page session' }, 404: { description: 'Unknown link, or no contract yet' }, 410: { description: 'The link cannot be used any more' },
    405: { description: 'Another method than GET or HEAD (an HTML page, with Allow)' },
  },
}, (_ctx, l) => {
  if (!l.session) return answer(refusedView(l.model, 403, 'Confirm your one-time code first to read the contract.'), l);
  const document = l.record.documents.find((d) => d.kind === 'contract');
  const file = document && documentFile(document.file);
  if (!file) return answer(refusedView(l.model, 404, 'There is no contract to read yet.'), l);
  return {
    status: 200,
    body: file,
    headers: {
      'Content-Disposition': 'inline; filename="contract.pdf"', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff',
      // Read in the frame of a partner's page the link admits (a new tab there would not have the frame's partitioned session).
      'Content-Security-Policy': resourcePolicy(l.ancestors),
    },
  };
});

const sign = hostedPost(
  'sign', 'signHostedContract', 'The employee signs the contract (contract.signed_by_employee)', 'Through the API\'s life cycle: refused (409) unless the contract awaits the employee\'s signature.',
  'Signed: to the return_url when the onboarding has one, else to the thank-you page',
  { 403: { description: 'No page session' }, 409: { description: 'Refused by the life cycle' } }, true,
  (_ctx, l) => done({ ...l, record: employeeSign(l.ws, l.record) }),
);

export const hostedPageRoutes: PageRoute[] = [open, code, newCode, details, contract, sign];
