import type { Express } from 'express';
import type { Emulator } from '../emulator.js';
import { REVIEW_PAGE_OPERATIONS } from '../pages/review/operations.js';
import { mountReviewPages, REVIEW_PAGE_ROUTES } from '../pages/review/routes.js';
import { HOSTED_PAGE_OPERATIONS } from '../pages/hosted/hosted.operations.js';
import { HOSTED_PAGE_ROUTES, mountHostedPages } from '../pages/hosted/hosted.routes.js';
import { INSPECTOR_PAGE_OPERATIONS } from '../pages/inspector/operations.js';
import { INSPECTOR_PAGE_ROUTES, mountInspector } from '../pages/inspector/routes.js';

export { frameAncestors } from '../pages/review/frame.js';

/**
 * The pages behind the links the API hands out (design section 10), mounted in one place.
 * They answer in HTML, not in the error envelope: a person reads them, often inside a
 * partner's iframe. The routes feed the 405/404 matcher; the operations the OpenAPI document.
 */
export const PAGE_ROUTES = [...REVIEW_PAGE_ROUTES, ...HOSTED_PAGE_ROUTES, ...INSPECTOR_PAGE_ROUTES];

/** For the OpenAPI document: the same routes, answering text/html. */
export const PAGE_OPERATIONS = { ...REVIEW_PAGE_OPERATIONS, ...HOSTED_PAGE_OPERATIONS, ...INSPECTOR_PAGE_OPERATIONS };

export function mountPages(app: Express, emulator: Emulator, options: { publicUrl?: string | undefined; ui?: boolean | undefined } = {}): void {
  mountReviewPages(app, emulator);
  mountHostedPages(app, emulator, options);
  mountInspector(app, { enabled: options.ui !== false }); // the inspector; --no-ui: 404
}
