/** Where the inspector lives; `/` redirects to the page. */
export const INSPECTOR_PATH = '/_emulator/ui';
export const INSPECTOR_JS_PATH = '/_emulator/ui/inspector.js';
export const INSPECTOR_CSS_PATH = '/_emulator/ui/inspector.css';

/**
 * The policy of the browser UI under /_emulator (the inspector, the API explorer): the
 * emulator's own scripts, styles and requests, nothing inline, never framed; `formAction` is
 * where the page's forms may go.
 */
export const uiPolicy = (formAction: string): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
  ].join('; ');

/** The inspector's forms post to the emulator itself. */
export const INSPECTOR_POLICY = uiPolicy("'self'");
