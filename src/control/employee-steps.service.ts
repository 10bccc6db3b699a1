import { fail, type ApiError } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import type { OnboardingRecord } from '../resources/onboardings/onboardings.model.js';
import * as life from '../resources/onboardings/onboardings.lifecycle.js';
import { codeRefusal, confirmCodeWithoutSession } from '../resources/onboardings/onboardings.hosted-access.js';
import { checkDetails, DETAIL_FIELDS, type FieldErrors, type FormField, type Upload } from '../resources/onboardings/onboardings.employee-form.js';
import { documentBytes, TEST_DOCUMENTS, VALID_DETAILS } from '../resources/onboardings/onboardings.test-values.js';
import type { OpenBody, SubmitBody } from './onboarding-actions.schemas.js';
import { requireAllowed } from './onboarding-actions.service.js';

/**
 * The employee's hosted steps as shortcuts of the control API, each taken as the page takes it:
 * the one-time code through the page's own confirmCode (a wrong one counted, the fifth voids
 * it), the form through the page's own checkDetails (its messages, nothing stored on a mistake)
 * and the same life-cycle calls, so the events and the stored record are the page's.
 */

/** Without a code the link opens unchecked, as before; with one, the code is typed as on the page. */
export function employeeOpen(ws: Workspace, r: OnboardingRecord, body: OpenBody): OnboardingRecord {
  if (body.code === undefined) return life.employeeOpen(ws, r);
  requireAllowed(r, 'employee_open');
  life.checkOpen(ws, r);
  // The page drops the spaces a person types or pastes within the code.
  const typed = body.code.replace(/\s+/g, '');
  if (typed === '') throw fail('parameter_invalid', 'code: Enter the 6-digit code from the e-mail.', 'code');
  const result = confirmCodeWithoutSession(ws, r, typed);
  if (result.kind !== 'ok') throw codeRefusal(result);
  return result.record;
}

/** The base64 alphabet, padded: Node's decoder would skip what is not base64 rather than refuse it. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The identity document as the form's reader would hand it over: a file of the request, a test document by name, or the test JPEG. */
function uploadOf(document: SubmitBody['identity_document']): Upload {
  if (document === undefined || 'test_document' in document) {
    const entry = TEST_DOCUMENTS.valid.find((d) => d.file_name === (document?.test_document ?? TEST_DOCUMENTS.valid[0]!.file_name))!;
    const bytes = documentBytes(entry);
    return { name: entry.file_name, type: entry.content_type, size: bytes.length, bytes };
  }
  const text = document.content_base64;
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw fail('parameter_invalid', 'identity_document.content_base64: not base64 (the standard alphabet, padded with =).', 'identity_document.content_base64');
  }
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  return { name: document.file_name, type: 'application/octet-stream', size: bytes.length, bytes };
}

const pathOf = (field: FormField): string => (field === 'identity_document' ? field : `details.${field}`);

/** The form's mistakes as one refusal: the first wrong field is `param`, each one a detail with the form's message. */
function formRefusal(errors: FieldErrors): ApiError {
  const wrong = [...DETAIL_FIELDS, 'identity_document' as const].filter((f) => errors[f] !== undefined);
  const first = wrong[0]!;
  const more = wrong.length > 1 ? ` (${wrong.length} fields are wrong: see details)` : '';
  const err = fail('parameter_invalid', `${pathOf(first)}: ${errors[first]!}${more}`, pathOf(first));
  err.details = wrong.map((f) => ({ path: pathOf(f), message: errors[f]! }));
  return err;
}

/**
 * The employee sends the form. The first time, fields left out take the test values' valid
 * details and the document the test JPEG. A form returned for correction starts, as on the page,
 * from what the employee sent before: fields left out keep their stored values, and the earlier
 * document stays unless one is sent (or sent empty). Checked before anything is stored; the life
 * cycle's own refusal comes first.
 */
export function employeeSubmit(ws: Workspace, r: OnboardingRecord, body: SubmitBody): OnboardingRecord {
  requireAllowed(r, 'employee_submit');
  life.checkSubmit(r);
  const previous = r.employee_details ?? null;
  const previousDocument = previous?.identity_document ?? undefined;
  const defaults = previous ? Object.fromEntries(DETAIL_FIELDS.map((f) => [f, previous[f]])) : VALID_DETAILS;
  const upload = body.identity_document === undefined && previousDocument ? null : uploadOf(body.identity_document);
  const checked = checkDetails({ ...defaults, ...body.details }, upload, { today: ws.now().slice(0, 10), previousDocument });
  if (!checked.ok) throw formRefusal(checked.errors);
  return life.employeeSubmit(ws, r, { details: checked.details, newDocument: upload !== null && upload.size > 0 });
}
