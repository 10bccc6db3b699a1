import type { PageResponse, PageRoute } from '../route.js';
import { browserScript } from '../browser-scripts.js';
import { INSPECTOR_CSS_PATH, INSPECTOR_JS_PATH, INSPECTOR_PATH, INSPECTOR_POLICY } from './inspector.paths.js';
import { inspectorDocument } from './inspector.shell.js';
import { INSPECTOR_CSS } from './inspector.style.js';
import { RawFile, Redirect } from '../../operations/reply.js';

/**
 * The inspector at /_emulator/ui: a static shell, one script and one style sheet. The script is
 * one more client of the control API; the server adds no data here. With the UI off (--no-ui)
 * every path answers 404 in the envelope, like the rest of /_emulator.
 */
/** The errors of every file of the browser UI under /_emulator (the inspector's and the explorer's). */
export const UI_ERRORS: Record<number, PageResponse> = {
  404: { description: 'The browser UI is off (--no-ui)', envelope: true },
  405: { description: 'Another method than GET or HEAD', envelope: true },
};

const HEADERS = {
  'Content-Security-Policy': INSPECTOR_POLICY,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function file(path: string, operationId: string, summary: string, description: string, type: string, bytes: () => string): PageRoute {
  return {
    kind: 'page', method: 'GET', path, operationId, summary, description, inspector: true,
    responses: { 200: { description: summary, media: type }, ...UI_ERRORS },
    handle: () => ({ status: 200, body: new RawFile(bytes(), `${type}; charset=utf-8`), headers: HEADERS }),
  };
}

const shell = inspectorDocument().text;

export const inspectorPageRoutes: PageRoute[] = [
  file(
    INSPECTOR_PATH,
    'inspectorPage',
    'The inspector: the workspace live (onboardings and their timelines, events, deliveries and attempts, outbox, clock, scenario, recorded /v1 requests) with buttons for the control actions',
    'HTML shell; its script reads and acts through the control API only (GET /_emulator/onboardings, /events, /webhooks, /outbox, /clock, /scenario, /requests, ' +
      'POST /_emulator/onboardings/{id}/{action}, /clock/advance, /deliveries/{id}/retry), polling every 1.5 seconds. `/` redirects here. ' +
      "Content-Security-Policy: only the emulator's own script, style and requests. 404 with --no-ui.",
    'text/html',
    () => shell,
  ),
  file(INSPECTOR_JS_PATH, 'inspectorScript', "The inspector's script", 'Renders every value as DOM text.', 'text/javascript', () => browserScript('inspector')),
  file(INSPECTOR_CSS_PATH, 'inspectorStyle', "The inspector's style sheet", 'Static.', 'text/css', () => INSPECTOR_CSS),
  // For people typing the address.
  {
    kind: 'page', method: 'GET', path: '/', operationId: 'inspectorRedirect', summary: 'A redirect to the inspector, for people typing the address', inspector: true,
    responses: { 302: { description: 'To the inspector', location: true }, ...UI_ERRORS },
    handle: () => ({ status: 302, body: new Redirect(INSPECTOR_PATH), headers: { 'Cache-Control': 'no-cache' } }),
  },
];
