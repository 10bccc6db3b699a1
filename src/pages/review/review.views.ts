import type { Role, User } from '../../resources/organizations/organizations.model.js';
import type { ReviewContext } from '../../resources/reviews/reviews.page.js';
import { readableDate, readableInstant } from '../dates.js';
import { html, jsonForScript, trusted, type Html } from '../html.js';
import { MESSAGE_TYPE } from './review.assets.js';
import { RETURN_REASON_MAX, type EmployeeDetails, type OnboardingStatus } from '../../resources/onboardings/onboardings.model.js';
import { testId } from '../test-ids.js';

/**
 * The review pages, every value through the auto-escaping `html` template. No inline script:
 * the outcome for the parent page travels in a JSON data block that the page's own script
 * file (/embed/review-page.js) reads and posts.
 */

/** The message the parent page receives (README "Embedding the review"). */
export interface ReviewMessage {
  type: typeof MESSAGE_TYPE;
  outcome: 'identity_verified' | 'approved' | 'returned';
  review_session_id: string;
  onboarding_id: string;
  role: Role | null;
  returned_to: 'employee' | 'manager' | null;
  /** The onboarding's status after the action: contract_ready once the last approval is given. */
  status: string;
  data_version: number;
}

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
  code?: string | undefined;
}

export interface Page {
  status: number;
  title: string;
  body: Html;
  /** The framing page's admitted origin and the message for it; no script at all without one. */
  data?: { target_origin: string; message: ReviewMessage | null } | undefined;
}

export function document({ title, body, data }: Page): string {
  const script = data
    ? html`<script type="application/json" id="review-data">${jsonForScript(data)}</script><script src="/embed/review-page.js" defer></script>`
    : '';
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="/embed/review-page.css">${script}</head><body><main>${body}</main></body></html>`.text;
}

const ROLE_NAMES: Record<Role, string> = { manager: 'manager', payroll_reviewer: 'payroll reviewer', owner: 'owner' };
const roleList = (roles: readonly Role[]) => roles.map((r) => ROLE_NAMES[r]).join(', ') || 'no role';

function notice(n: Notice | null | undefined): Html | string {
  if (!n) return '';
  const code = n.code ? html` <span class="note">(<code>${n.code}</code>)</span>` : '';
  return n.kind === 'ok'
    ? html`<p class="notice ok" role="status"${testId('notice')}>${n.text}</p>`
    : html`<p class="notice error" role="alert"${testId('notice')}>${n.text}${code}</p>`;
}

const hidden = (actionToken: string) => html`<input type="hidden" name="action_token" value="${actionToken}">`;

/** What a review page needs beyond the context: names the record only refers to. */
export interface ReviewModel {
  context: ReviewContext;
  /** The product the reviewer came from: the employer itself or the partner. */
  clientName: string;
  locationName: string;
  userName: (id: string) => string;
  /** The employer's users who may review, for the sign-in. */
  reviewers: User[];
}

const action = (m: ReviewModel, suffix: string) => `/review/${m.context.session.token}/${suffix}`;

export function signInView(m: ReviewModel, n?: Notice | null): Html {
  const { session, organization, page } = m.context;
  const preferred = m.reviewers.find((u) => u.email.toLowerCase() === session.reviewer.email.toLowerCase())?.id;
  const asked = session.reviewer.name === null ? '' : html` (${session.reviewer.name})`;
  const options = m.reviewers.map(
    (u) => html`<label><input type="radio" name="user_id" value="${u.id}"${u.id === preferred ? trusted(' checked') : ''}${testId('sign-in-user')}> ${u.name}, ${u.email} <span class="note">(${roleList(u.roles)})</span></label>`,
  );
  return html`<h1${testId('page-title')}>Sign in to review</h1>
<p>${m.clientName} asks you to review onboarding <code>${session.onboarding_id}</code> at ${organization.name}, for its user <code>${session.reviewer.external_id}</code>${asked}.</p>
${notice(n)}
<p>The first review from this product needs your own account at ${organization.name}; after you sign in, the product's user stays linked to your account for 30 days and later reviews open directly.</p>
<form method="post" action="${action(m, 'sign-in')}"${testId('sign-in-form')}>${hidden(page.action_token)}
<fieldset><legend>Your account at ${organization.name}</legend>${options}</fieldset>
<p><label for="email">Or type the e-mail address of your account</label><input id="email" name="email" type="email" autocomplete="username"${testId('sign-in-email')}></p>
<button type="submit"${testId('sign-in-submit')}>Sign in</button>
</form>
<p class="note">Emulator: a fictitious sign-in, no password. The national ID number and the identity document stay with the service.</p>`;
}

const euros = (cents: number) => `€ ${(cents / 100).toFixed(2)}`;

function employeeData(m: ReviewModel): Html {
  const r = m.context.onboarding;
  const e = r.employee;
  const documents = r.documents.filter((d) => d.kind !== 'identity_document').map((d) => d.title ?? d.kind);
  return html`<h2>Employee</h2><dl${testId('employee-data')}>
<dt>Name</dt><dd>${e.first_name} ${e.last_name}</dd>
<dt>E-mail</dt><dd>${e.email}</dd>
${e.phone === null ? '' : html`<dt>Phone</dt><dd>${e.phone}</dd>`}
<dt>Position</dt><dd>${r.employment.position}</dd>
<dt>Location</dt><dd>${m.locationName}</dd>
<dt>Start date</dt><dd>${readableDate(r.employment.start_date)}</dd>
<dt>Contract</dt><dd>${r.employment.contract_type.replace('_', ' ')}, ${r.employment.hours_per_week} hours a week, ${euros(r.employment.hourly_wage_cents)} an hour</dd>
<dt>Submitted</dt><dd>${r.submitted_at ? readableInstant(r.submitted_at) : 'not yet'}</dd>
${details(r.employee_details)}
<dt>Documents</dt><dd>${documents.join(', ') || 'none'}</dd>
</dl>
<p class="note">The national ID number and the identity document stay with the service; they are not shown here.</p>`;
}

/** What the employee filled in on the hosted form, without the BSN (the national ID number). */
function details(d: EmployeeDetails | null | undefined): Html | string {
  if (!d) return '';
  return html`<dt>Address</dt><dd>${d.street} ${d.house_number}, ${d.postcode} ${d.city}</dd>
<dt>Date of birth</dt><dd>${readableDate(d.birth_date)}</dd>
<dt>IBAN</dt><dd>${d.iban}</dd>`;
}

/** Where an onboarding stands, in words, for a reviewer who arrives after the review. */
const STATUS_WORDS: Record<OnboardingStatus, string> = {
  pending_employee: 'waiting for the employee',
  in_review: 'in review',
  contract_ready: 'approved, its contract about to be sent',
  awaiting_employee_signature: "waiting for the employee's signature",
  awaiting_employer_signature: "waiting for the employer's signature",
  processing: 'being registered with payroll',
  action_required: 'waiting for the employer to resolve a payroll problem',
  completed: 'completed',
  cancelled: 'cancelled',
};

const reasonOf = (r: ReviewModel['context']['onboarding']) => (r.return_reason ? html` Reason given: ${r.return_reason}` : '');

/** The state after the review: what happened, and that nothing is left to do here. */
function over(m: ReviewModel): Html | null {
  const r = m.context.onboarding;
  if (r.status === 'in_review' && r.returned_to === 'manager') return html`<p${testId('review-over')}>The data was returned to the manager for correction; the review continues once it is corrected.${reasonOf(r)}</p>`;
  if (r.status === 'in_review') return null;
  if (r.status === 'pending_employee' && r.returned_to === 'employee') return html`<p${testId('review-over')}>The data was returned to the employee for correction.${reasonOf(r)}</p>`;
  if (r.status === 'contract_ready') return html`<p${testId('review-over')}>Every approval is given: the onboarding is approved and the contract can be sent.</p>`;
  return html`<p${testId('review-over')}>This onboarding is ${STATUS_WORDS[r.status]}; there is nothing left to review here.</p>`;
}

function actions(m: ReviewModel, user: User): Html {
  const r = m.context.onboarding;
  const token = m.context.page.action_token;
  const current = r.approvals.filter((a) => a.data_version === r.data_version);
  const given = current.map((a) => html`<li>As ${ROLE_NAMES[a.role]}: ${m.userName(a.user_id)}, ${readableInstant(a.at)}</li>`);
  const open = r.required_roles.filter((role) => !current.some((a) => a.role === role));
  const mine = current.find((a) => a.user_id === user.id);
  const canApprove = open.filter((role) => user.roles.includes(role));

  const identity = r.identity_verified_at
    ? html`<p>The identity check was confirmed on ${readableInstant(r.identity_verified_at)}.</p>`
    : user.roles.includes('manager')
      ? html`<form method="post" action="${action(m, 'identity-verification')}">${hidden(token)}<p>Check the identity document in the service, then confirm.</p><button type="submit"${testId('identity-confirm')}>Confirm identity check</button></form>`
      : html`<p>Waiting for a manager to confirm the identity check.</p>`;

  let approval: Html;
  if (mine) {
    approval = html`<p>You approved data version ${r.data_version} as ${ROLE_NAMES[mine.role]}. Four-eyes: one person cannot fulfil two roles, ${open.length ? html`so the ${roleList(open)} approval must come from someone else.` : 'and every approval is given.'}</p>`;
  } else if (!r.identity_verified_at) {
    approval = html`<p>Approvals open once the identity check is confirmed. Still to approve: ${roleList(open)}.</p>`;
  } else if (canApprove.length === 0) {
    approval = html`<p>Still to approve: ${roleList(open)}. You do not hold ${open.length > 1 ? 'any of these roles' : 'this role'}, so someone else approves.</p>`;
  } else {
    const choices = canApprove.map((role, i) => html`<label><input type="radio" name="role" value="${role}"${i === 0 ? trusted(' checked') : ''}${testId('approve-role')}> as ${ROLE_NAMES[role]}</label>`);
    approval = html`<form method="post" action="${action(m, 'approvals')}">${hidden(token)}<input type="hidden" name="data_version" value="${r.data_version}">
<fieldset><legend>Approve data version ${r.data_version}</legend>${choices}</fieldset><button type="submit"${testId('approve-button')}>Approve</button></form>`;
  }

  return html`<h2>Identity check</h2>${identity}
<h2>Approvals</h2>${given.length ? html`<ul>${given}</ul>` : ''}${approval}
<h2>Return for correction</h2>
<form method="post" action="${action(m, 'return')}">${hidden(token)}
<fieldset><legend>Return the data to</legend>
<label><input type="radio" name="to" value="employee" checked${testId('return-to-employee')}> the employee</label>
<label><input type="radio" name="to" value="manager"${testId('return-to-manager')}> the manager</label></fieldset>
<label for="return-reason">Reason (optional; the employee sees it above the form)</label>
<textarea id="return-reason"${testId('return-reason')} name="reason" maxlength="${RETURN_REASON_MAX}" rows="3"></textarea>
<button type="submit" class="secondary"${testId('return-button')}>Return for correction</button></form>`;
}

export function reviewView(m: ReviewModel, user: User, n?: Notice | null): Html {
  const { session, organization, onboarding: r, link, newlyLinked } = m.context;
  const linkLine = link === null
    ? ''
    : newlyLinked
      ? html`Your account is now linked to user <code>${session.reviewer.external_id}</code> of ${m.clientName} until ${readableInstant(link.expires_at)}, so later reviews open directly.`
      : html`User <code>${session.reviewer.external_id}</code> of ${m.clientName} has been linked to your account since ${readableInstant(link.linked_at)}, so the review opened directly.`;
  const done = over(m);
  return html`<h1${testId('page-title')}>Review the onboarding of ${r.employee.first_name} ${r.employee.last_name}</h1>
<p>Onboarding <code>${r.id}</code> at ${organization.name}, data version ${r.data_version}.</p>
<p>Signed in as ${user.name} (${roleList(user.roles)}). ${linkLine}</p>
${notice(n)}
${employeeData(m)}
${done ?? actions(m, user)}`;
}

export const notFoundBody = html`<h1${testId('page-title')}>Review link not found</h1><p>Check the link, or ask the product for a new review.</p>`;

const AGAIN = html`<p>Ask the product for a new review.</p>`;
export const goneBodies = {
  used: () => html`<h1${testId('page-title')}>This review link was already used</h1><p>A review link opens once.</p>${AGAIN}`,
  expired: (until: string) => html`<h1${testId('page-title')}>This review link has expired</h1><p>It was valid until ${readableInstant(until)}.</p>${AGAIN}`,
  no_longer_in_review: () => html`<h1${testId('page-title')}>This onboarding is no longer in review</h1><p>There is nothing left to review through this link.</p>`,
  page_expired: (until: string) => html`<h1${testId('page-title')}>This review has timed out</h1><p>The page accepted changes until ${readableInstant(until)}.</p>${AGAIN}`,
  invalid: () => html`<h1${testId('page-title')}>This form does not belong to an open review</h1><p>Open the review again from the product.</p>`,
};
