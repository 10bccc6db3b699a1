/**
 * Playwright helpers for the pages partners embed (onboarding-emulator/playwright): the
 * employee's hosted pages and the embedded review, driven through the selector contract and the
 * control API only. playwright-core (or @playwright/test, which brings it) is an optional peer:
 * the helpers take the Page or Frame your suite already has.
 */
export { HostedPages, type HostedOptions, type UploadFile } from './employee.js';
export { ReviewPage, type ReviewOptions } from './reviewer.js';
export { frameShowing, PageRefusal, type Surface } from './surface.js';
export {
  TEST_VALUES_VERSION, VALID_DETAILS, FIELD_VALUES, TEST_DOCUMENTS, documentBytes,
  type TestValue, type FieldMistake, type TestDocument, type DocumentMistake,
} from '../resources/onboardings/onboardings.test-values.js';
export { PAGE_TEST_IDS, TEST_IDS_VERSION, type PageTestId } from '../pages/test-ids.js';
