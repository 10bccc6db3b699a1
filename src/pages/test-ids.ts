import { DETAIL_FIELDS, type DetailField } from '../resources/onboardings/onboardings.employee-form.js';
import { trusted, type Html } from './html.js';

/**
 * The selector contract of the pages a partner's tests click through: the employee's hosted
 * pages and the embedded review. Every element a test needs carries `data-testid` with one of
 * these ids, and only these; `test-ids.json` in the package and docs/pages.md publish the table.
 * Adding an id keeps the version; renaming or removing one raises it, and says so in the docs.
 */
export const TEST_IDS_VERSION = 1;

const fieldIds = Object.fromEntries(
  DETAIL_FIELDS.flatMap((f) => [
    [`field-${f}`, { page: 'hosted: details', what: `the ${f.replace('_', ' ')} input` }],
    [`field-error-${f}`, { page: 'hosted: details', what: `the ${f.replace('_', ' ')} field's error, when it has one` }],
  ]),
) as Record<`field-${DetailField}` | `field-error-${DetailField}`, { page: string; what: string }>;

export const PAGE_TEST_IDS = {
  'page-title': { page: 'every page', what: "the page's heading" },
  notice: { page: 'hosted, review', what: 'a notice: what just happened (role status) or what went wrong (role alert)' },
  // The employee's hosted pages.
  'code-form': { page: 'hosted: code', what: 'the one-time code form' },
  'code-input': { page: 'hosted: code', what: 'the one-time code input' },
  'code-error': { page: 'hosted: code', what: "the code's error, when it was wrong" },
  'code-submit': { page: 'hosted: code', what: 'the button that sends the code' },
  'code-resend': { page: 'hosted: code', what: 'the button that sends a new code' },
  'details-form': { page: 'hosted: details', what: 'the form of the employee details' },
  'error-summary': { page: 'hosted: details', what: 'the summary of the fields to correct, a link to each' },
  'returned-notice': { page: 'hosted: details', what: 'the employer returned the data: the reason, when given' },
  ...fieldIds,
  'document-input': { page: 'hosted: details', what: 'the identity document upload' },
  'document-error': { page: 'hosted: details', what: "the document's error, when it has one" },
  'details-submit': { page: 'hosted: details', what: 'the button that sends the details' },
  'submitted-status': { page: 'hosted: in review', what: 'the details were sent' },
  'contract-pdf': { page: 'hosted: contract', what: 'the link to the contract as PDF' },
  'sign-button': { page: 'hosted: contract', what: 'the button that signs the contract' },
  'signed-status': { page: 'hosted: signed', what: 'the contract was signed' },
  'back-link': { page: 'hosted: refused', what: 'the way back to the onboarding' },
  // The embedded review.
  'sign-in-form': { page: 'review: sign-in', what: "the reviewer's sign-in form" },
  'sign-in-user': { page: 'review: sign-in', what: "one of the employer's reviewers to sign in as (a radio, its value the user id)" },
  'sign-in-email': { page: 'review: sign-in', what: 'the e-mail address to sign in with instead' },
  'sign-in-submit': { page: 'review: sign-in', what: 'the button that signs in' },
  'employee-data': { page: 'review', what: "the employee's data as the reviewer sees it" },
  'identity-confirm': { page: 'review', what: 'the button that confirms the identity check (a manager)' },
  'approve-role': { page: 'review', what: 'a role to approve in (a radio, its value the role)' },
  'approve-button': { page: 'review', what: 'the button that approves' },
  'return-to-employee': { page: 'review', what: 'return the data to the employee (a radio)' },
  'return-to-manager': { page: 'review', what: 'return the data to the manager (a radio)' },
  'return-reason': { page: 'review', what: 'the reason for the return' },
  'return-button': { page: 'review', what: 'the button that returns the data for correction' },
  'review-over': { page: 'review', what: 'what the review came to, once nothing is left to do' },
} as const;

export type PageTestId = keyof typeof PAGE_TEST_IDS;

/** ` data-testid="…"`, for an element's opening tag: the id must be one of the table's. */
export const testId = (id: PageTestId): Html => trusted(` data-testid="${id}"`);

/** The contract as the package publishes it (test-ids.json). */
export function testIdsDocument(): { version: number; ids: { id: PageTestId; page: string; what: string }[] } {
  return { version: TEST_IDS_VERSION, ids: Object.entries(PAGE_TEST_IDS).map(([id, { page, what }]) => ({ id: id as PageTestId, page, what })) };
}

/** The contract as docs/pages.md shows it. */
export function testIdsMarkdown(): string {
  const rows = testIdsDocument().ids.map((t) => `| \`${t.id}\` | ${t.page} | ${t.what} |`);
  return [`Version ${TEST_IDS_VERSION}.`, '', '| `data-testid` | page | what it marks |', '| --- | --- | --- |', ...rows, ''].join('\n');
}
