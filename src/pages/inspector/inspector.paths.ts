/** Where the inspector lives; `/` redirects to the page. */
export const INSPECTOR_PATH = '/_emulator/ui';
export const INSPECTOR_JS_PATH = '/_emulator/ui/inspector.js';
export const INSPECTOR_CSS_PATH = '/_emulator/ui/inspector.css';

/** The policy of the page: the emulator's own script, style and requests; nothing inline, never framed. */
export const INSPECTOR_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
