import { UI_ERRORS } from '../inspector/inspector.routes.js';
import type { PageContext, PageRoute } from '../route.js';
import { browserScript } from '../browser-scripts.js';
import { EXPLORER_CSS } from './explorer.style.js';
import { libraryFile, libraryVersion, type LibraryFile } from './explorer.library.js';
import { EXPLORER_CSS_PATH, EXPLORER_JS_PATH, EXPLORER_PATH, EXPLORER_POLICY, LIBRARY_CSS_PATH, LIBRARY_JS_PATH } from './explorer.paths.js';
import { explorerDocument } from './explorer.shell.js';
import { htmlFile, RawFile } from '../../operations/reply.js';

/**
 * The API explorer at /_emulator/docs: Swagger UI (swagger-ui-dist, served from the installed
 * package) over /openapi.json, with "Try it out" authorized by a well-known key. It is part of
 * the browser UI under /_emulator, so --no-ui turns it off with the inspector, and its errors
 * stay in the envelope.
 */

const SECURITY = {
  'Content-Security-Policy': EXPLORER_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
// The shell and the emulator's own files change with the emulator: asked again each time.
const FRESH = { ...SECURITY, 'Cache-Control': 'no-cache' };
// A library file asked for by its version (as the shell does) never changes at that address.
const KEPT = { ...SECURITY, 'Cache-Control': 'public, max-age=31536000, immutable' };

function row(path: string, operationId: string, summary: string, description: string, type: string, handle: PageRoute['handle']): PageRoute {
  return {
    kind: 'page', method: 'GET', path, operationId, summary, description, inspector: true,
    responses: { 200: { description: summary, media: type }, ...UI_ERRORS },
    handle,
  };
}

let shell: string | undefined;

function library(name: LibraryFile, type: string) {
  return (ctx: PageContext) => ({
    status: 200,
    body: new RawFile(libraryFile(name), `${type}; charset=utf-8`),
    headers: ctx.query.v === libraryVersion() ? KEPT : FRESH,
  });
}

export const explorerPageRoutes: PageRoute[] = [
  row(
    EXPLORER_PATH,
    'explorerPage',
    'The API explorer: this document, browsable, with "Try it out" authorized by a well-known test key',
    'Swagger UI, served by the emulator from its installed swagger-ui-dist (no network needed). Its script loads /openapi.json and the ' +
      'default workspace\'s keys (GET /_emulator/keys), lists the keys and authorizes "Try it out" with hrs_test_acme_owner; another key is one click. ' +
      "Content-Security-Policy: only the emulator's own scripts, styles and requests, nothing inline. 404 with --no-ui.",
    'text/html',
    () => ({ status: 200, body: htmlFile((shell ??= explorerDocument(libraryVersion()).text)), headers: FRESH }),
  ),
  row(EXPLORER_JS_PATH, 'explorerScript', "The explorer's script", 'Starts Swagger UI and fills the list of keys as DOM text.', 'text/javascript',
    () => ({ status: 200, body: new RawFile(browserScript('explorer'), 'text/javascript; charset=utf-8'), headers: FRESH })),
  row(EXPLORER_CSS_PATH, 'explorerStyle', "The explorer's style sheet", 'Static.', 'text/css',
    () => ({ status: 200, body: new RawFile(EXPLORER_CSS, 'text/css; charset=utf-8'), headers: FRESH })),
  row(LIBRARY_JS_PATH, 'explorerLibraryScript', "Swagger UI's script (swagger-ui-bundle.js of the installed swagger-ui-dist)",
    'Cached for good when asked for with ?v= and the installed version, as the explorer does.', 'text/javascript', library('swagger-ui-bundle.js', 'text/javascript')),
  row(LIBRARY_CSS_PATH, 'explorerLibraryStyle', "Swagger UI's style sheet (swagger-ui.css of the installed swagger-ui-dist)",
    'Cached for good when asked for with ?v= and the installed version, as the explorer does.', 'text/css', library('swagger-ui.css', 'text/css')),
];
