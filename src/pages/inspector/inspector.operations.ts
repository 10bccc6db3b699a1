import { ErrorSchema } from '../../resources/common.schemas.js';
import { INSPECTOR_CSS_PATH, INSPECTOR_JS_PATH, INSPECTOR_PATH } from './inspector.paths.js';

/**
 * The inspector in the OpenAPI document: the page and its two static files. `/` (a redirect
 * to the page, for people typing the address) is no operation of the document: it carries
 * nothing a client of the API would call.
 */
const off = { description: 'The inspector is off (--no-ui)', content: { 'application/json': { schema: ErrorSchema } } };
const notGet = { description: 'Another method than GET or HEAD', content: { 'application/json': { schema: ErrorSchema } } };

const get = (operationId: string, summary: string, description: string, type: string) => ({
  get: {
    operationId, summary, description, tags: ['Pages'], security: [{}],
    responses: {
      '200': { description: summary, content: { [type]: { schema: { type: 'string', contentMediaType: type } } } },
      '404': off,
      '405': notGet,
    },
  },
});

export const INSPECTOR_PAGE_OPERATIONS = {
  [INSPECTOR_PATH]: get(
    'inspectorPage',
    'The inspector: the workspace live (onboardings and their timelines, events, deliveries and attempts, outbox, clock, scenario) with buttons for the control actions',
    'HTML shell; its script reads and acts through the control API only (GET /_emulator/onboardings, /events, /webhooks, /outbox, /clock, /scenario, ' +
      'POST /_emulator/onboardings/{id}/{action}, /clock/advance, /deliveries/{id}/retry), polling every 1.5 seconds. `/` redirects here. ' +
      "Content-Security-Policy: only the emulator's own script, style and requests. 404 with --no-ui.",
    'text/html',
  ),
  [INSPECTOR_JS_PATH]: get('inspectorScript', "The inspector's script", 'Renders every value as DOM text.', 'text/javascript'),
  [INSPECTOR_CSS_PATH]: get('inspectorStyle', "The inspector's style sheet", 'Static.', 'text/css'),
};
