import { uiPolicy } from '../inspector/inspector.paths.js';

/** Where the API explorer lives, and its files. */
export const EXPLORER_PATH = '/_emulator/docs';
export const EXPLORER_JS_PATH = '/_emulator/docs/explorer.js';
export const EXPLORER_CSS_PATH = '/_emulator/docs/explorer.css';
export const LIBRARY_JS_PATH = '/_emulator/docs/swagger-ui-bundle.js';
export const LIBRARY_CSS_PATH = '/_emulator/docs/swagger-ui.css';

/**
 * The explorer's policy: scripts, styles and requests of the emulator only, nothing inline.
 * The library sets element styles from script (style properties, which a policy does not
 * govern) and never writes style elements or attributes, so 'unsafe-inline' is not needed
 * for styles either. Its style sheet draws icons as data: images. Nothing is submitted as a
 * form: "try it" sends its requests with fetch, which connect-src keeps on this origin.
 */
export const EXPLORER_POLICY = uiPolicy("'none'");
