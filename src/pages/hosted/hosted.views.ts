import type { EmployeeDetails, OnboardingRecord } from '../../resources/onboardings/onboardings.model.js';
import type { LinkRefusal } from '../../resources/onboardings/onboardings.lifecycle.js';
import { TEST_IDENTITY } from '../../resources/onboardings/onboardings.personal-data.js';
import { readableDate, readableInstant } from '../dates.js';
import { html, type Html } from '../html.js';
import { ACCEPTED_TYPES, DETAIL_FIELDS, LABELS, MAX_UPLOAD_BYTES, printIban, type FieldErrors, type FieldValues, type FormField } from '../../resources/onboardings/onboardings.employee-form.js';
import { testId } from '../test-ids.js';

/**
 * The employee's hosted pages, every value through the auto-escaping `html` template. Plain
 * forms that post and redirect: they work without any script.
 */
export interface View {
  status: number;
  title: string;
  body: Html;
}

/** What every page of one link knows. */
export interface LinkModel {
  token: string;
  employer: string;
  record: OnboardingRecord;
  /** Shown in a frame of a partner's page: links stay in the frame, where its session cookie is sent. */
  framed?: boolean;
}

const path = (m: LinkModel, suffix = '') => `/hosted/${m.token}${suffix}`;

const AGAIN = (employer: string) => html`<p>Ask ${employer} to send you a new link.</p>`;

export const notFoundView: View = {
  status: 404,
  title: 'Link not found',
  body: html`<h1${testId('page-title')}>This link does not exist</h1><p>Check that you opened the whole link from the e-mail. If it still does not work, ask your employer for a new link.</p>`,
};

/** The page for each way a link cannot be used (linkRefusal). */
export type GoneKind = LinkRefusal;

export function goneView(kind: GoneKind, employer: string, expiresAt: string | null): View {
  switch (kind) {
    case 'expired':
      return { status: 410, title: 'Link expired', body: html`<h1${testId('page-title')}>This link has expired</h1><p>It was valid until ${expiresAt === null ? 'its expiry' : readableInstant(expiresAt)}.</p>${AGAIN(employer)}` };
    case 'replaced':
      return { status: 410, title: 'Link replaced', body: html`<h1${testId('page-title')}>This link was replaced by a newer one</h1><p>Use the link in the most recent e-mail from ${employer}.</p>` };
    case 'revoked':
      return { status: 410, title: 'Link no longer valid', body: html`<h1${testId('page-title')}>This link is no longer valid</h1>${AGAIN(employer)}` };
    case 'cancelled':
      return { status: 410, title: 'Onboarding cancelled', body: html`<h1${testId('page-title')}>This onboarding was cancelled</h1><p>${employer} cancelled it; there is nothing left to do here. Contact ${employer} if you think this is a mistake.</p>` };
    case 'completed':
      return { status: 410, title: 'Onboarding finished', body: html`<h1${testId('page-title')}>Your onboarding is finished</h1><p>You are registered with ${employer}; there is nothing left to do here.</p>` };
  }
}

/** l***@example.test: enough to recognise the address, not enough to learn it. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

export interface CodeState {
  sentAt: string | null | undefined;
  isVoid: boolean;
  error?: string | undefined;
  notice?: string | undefined;
}

export function codeView(m: LinkModel, s: CodeState, status = 200): View {
  const to = maskEmail(m.record.employee.email);
  const errorId = 'code-error';
  const intro = s.isVoid
    ? html`<p class="notice error" role="alert"${testId('notice')}>${s.error ?? 'The code was entered wrongly 5 times and no longer works.'} Send yourself a new code.</p>`
    : html`${s.notice ? html`<p class="notice" role="status"${testId('notice')}>${s.notice}</p>` : ''}<p>We sent a one-time code to ${to}${s.sentAt ? html` on ${readableInstant(s.sentAt)}` : ''}. Enter it to continue.</p>`;
  const form = s.isVoid
    ? ''
    : html`<form method="post" action="${path(m, '/code')}" novalidate${testId('code-form')}>
<label for="code">One-time code <span class="hint">6 digits, from the e-mail</span></label>
${s.error ? html`<p class="field-error" id="${errorId}"${testId('code-error')}>${s.error}</p>` : ''}
<input id="code"${testId('code-input')} name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required${s.error ? html` aria-invalid="true" aria-describedby="${errorId}"` : ''} autofocus>
<button type="submit"${testId('code-submit')}>Continue</button>
</form>`;
  return {
    status,
    title: s.error ? 'Error: confirm your code' : 'Confirm your code',
    body: html`<h1${testId('page-title')}>Welcome to your onboarding at ${m.employer}</h1>
${intro}${form}
<form method="post" action="${path(m, '/code/new')}"><button type="submit" class="${s.isVoid ? '' : 'secondary'}"${testId('code-resend')}>Send a new code</button></form>
<p class="note">Emulator: the mail is in the outbox, <code>GET /_emulator/outbox</code>.</p>`,
  };
}

const INPUTS: Record<(typeof DETAIL_FIELDS)[number], { type: string; autocomplete: string; hint?: string; inputmode?: string }> = {
  street: { type: 'text', autocomplete: 'address-line1' },
  house_number: { type: 'text', autocomplete: 'off', hint: 'With an addition if there is one, like 12A' },
  postcode: { type: 'text', autocomplete: 'postal-code', hint: 'Like 1012 AB' },
  city: { type: 'text', autocomplete: 'address-level2' },
  birth_date: { type: 'date', autocomplete: 'bday', hint: 'Pick or type the date, for example 23 April 1990' },
  iban: { type: 'text', autocomplete: 'off', hint: 'The account your wages are paid into, like NL91 ABNA 0417 1643 00' },
  bsn: { type: 'text', autocomplete: 'off', hint: '9 digits', inputmode: 'numeric' },
};

function field(name: (typeof DETAIL_FIELDS)[number], values: FieldValues, errors: FieldErrors): Html {
  const spec = INPUTS[name];
  const error = errors[name];
  const ids = [spec.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${name}">${LABELS[name]}${spec.hint ? html` <span class="hint" id="${name}-hint">${spec.hint}</span>` : ''}</label>
${error ? html`<p class="field-error" id="${name}-error"${testId(`field-error-${name}`)}>${error}</p>` : ''}
<input id="${name}"${testId(`field-${name}`)} name="${name}" type="${spec.type}" autocomplete="${spec.autocomplete}" value="${values[name]}"${spec.inputmode ? html` inputmode="${spec.inputmode}"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}${error ? html` aria-invalid="true"` : ''} required>`;
}

/** Values to prefill from what was sent before (a returned form). */
export function valuesOf(d: EmployeeDetails | null | undefined): FieldValues {
  return Object.fromEntries(DETAIL_FIELDS.map((f) => [f, d ? (f === 'iban' ? printIban(d.iban) : d[f]) : ''])) as FieldValues;
}

export interface DetailsState {
  values: FieldValues;
  errors: FieldErrors;
  previousDocument: EmployeeDetails['identity_document'] | undefined;
}

export function detailsView(m: LinkModel, s: DetailsState, status = 200): View {
  const r = m.record;
  const order: FormField[] = [...DETAIL_FIELDS.slice(0, 4), 'birth_date', 'iban', 'bsn', 'identity_document'];
  const problems = [...new Set(order)].filter((f) => s.errors[f]);
  const summary = problems.length
    ? html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1"${testId('error-summary')}>
<h2 id="error-summary-title">Please correct ${problems.length === 1 ? 'this field' : html`these ${problems.length} fields`}</h2>
<ul>${problems.map((f) => html`<li><a href="#${f}">${LABELS[f]}: ${s.errors[f]}</a></li>`)}</ul></div>`
    : '';
  const returned = r.returned_to === 'employee'
    ? html`<div class="notice" role="status"${testId('returned-notice')}><p><strong>${m.employer} returned your data for correction.</strong></p>${
        r.return_reason ? html`<p>Their reason: ${r.return_reason}</p>` : html`<p>No reason was given; check every field.</p>`
      }</div>`
    : '';
  const docError = s.errors.identity_document;
  const docIds = ['identity_document-hint', docError ? 'identity_document-error' : ''].filter(Boolean).join(' ');
  const keep = s.previousDocument
    ? html` You sent <em>${s.previousDocument.file_name}</em> before; choose a file only to replace it.`
    : '';
  return {
    status,
    title: problems.length ? 'Error: your details' : 'Your details',
    body: html`${summary}<h1${testId('page-title')}>Hello ${r.employee.first_name}, welcome to ${m.employer}</h1>
${returned}
<p>To register you for payroll, ${m.employer} needs a few details. All fields are required.</p>
<form method="post" action="${path(m, '/details')}" enctype="multipart/form-data" novalidate${testId('details-form')}>
<fieldset><legend>Your home address</legend>
${field('street', s.values, s.errors)}${field('house_number', s.values, s.errors)}${field('postcode', s.values, s.errors)}${field('city', s.values, s.errors)}
</fieldset>
<fieldset><legend>About you</legend>
${field('birth_date', s.values, s.errors)}${field('iban', s.values, s.errors)}${field('bsn', s.values, s.errors)}
<label for="identity_document">${LABELS.identity_document} <span class="hint" id="identity_document-hint">JPEG, PNG or PDF, at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.${keep}</span></label>
${docError ? html`<p class="field-error" id="identity_document-error"${testId('document-error')}>${docError}</p>` : ''}
<input id="identity_document"${testId('document-input')} name="identity_document" type="file" accept="${ACCEPTED_TYPES.join(',')}" aria-describedby="${docIds}"${docError ? html` aria-invalid="true"` : ''}${s.previousDocument ? '' : html` required`}>
</fieldset>
<button type="submit"${testId('details-submit')}>Send my details</button>
</form>
<p class="note">Emulator: use fictitious data only. A valid test BSN is ${TEST_IDENTITY.bsn}; a valid IBAN ${TEST_IDENTITY.iban}.</p>`,
  };
}

export function inReviewView(m: LinkModel): View {
  const r = m.record;
  return {
    status: 200,
    title: 'Thank you',
    body: html`<h1${testId('page-title')}>Thank you, ${r.employee.first_name}</h1>
<p class="notice" role="status"${testId('submitted-status')}>Your details were sent to ${m.employer}${r.submitted_at ? html` on ${readableInstant(r.submitted_at)}` : ''}.</p>
<h2>What happens next</h2>
<ol><li>${m.employer} checks your details and your identity document.</li>
<li>You receive an e-mail when your employment contract is ready to sign, with a link back to this page.</li>
<li>After both you and ${m.employer} signed, you are registered for payroll.</li></ol>
<p>If something needs correcting, ${m.employer} returns it to you and you will see it here.</p>`,
  };
}

export function contractView(m: LinkModel): View {
  const r = m.record;
  return {
    status: 200,
    title: 'Sign your contract',
    body: html`<h1${testId('page-title')}>Your employment contract</h1>
<p>${m.employer} sent you your contract for the position of ${r.employment.position}, starting ${readableDate(r.employment.start_date)}.</p>
<p><a href="${path(m, '/contract.pdf')}"${m.framed ? '' : html` target="_blank" rel="noopener"`}${testId('contract-pdf')}>Read the contract (PDF)</a></p>
<form method="post" action="${path(m, '/sign')}">
<p>By signing you agree to the contract as it is in the PDF.</p>
<button type="submit"${testId('sign-button')}>Sign the contract</button>
</form>`,
  };
}

export function signedView(m: LinkModel): View {
  const r = m.record;
  return {
    status: 200,
    title: 'Contract signed',
    body: html`<h1${testId('page-title')}>Thank you, ${r.employee.first_name}</h1>
<p class="notice" role="status"${testId('signed-status')}>You signed your contract${r.contract.employee_signed_at ? html` on ${readableInstant(r.contract.employee_signed_at)}` : ''}.</p>
<h2>What happens next</h2>
<ol><li>${m.employer} signs the contract too.</li><li>You are registered for payroll; ${m.employer} lets you know when everything is done.</li></ol>
<p>There is nothing more for you to do now.</p>`,
  };
}

/** A refusal of the life cycle (a form sent twice, say): its message, and the way back. */
export function refusedView(m: LinkModel | null, status: number, message: string): View {
  return {
    status,
    title: 'This did not work',
    body: html`<h1${testId('page-title')}>This did not work</h1><p class="notice error" role="alert"${testId('notice')}>${message}</p>${m ? html`<p><a href="${path(m)}"${testId('back-link')}>Back to your onboarding</a></p>` : ''}`,
  };
}
