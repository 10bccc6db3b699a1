import { html, type Html } from '../html.js';
import { INSPECTOR_PATH } from '../inspector/inspector.paths.js';
import { EXPLORER_CSS_PATH, EXPLORER_JS_PATH, LIBRARY_CSS_PATH, LIBRARY_JS_PATH } from './explorer.paths.js';

/**
 * The explorer's HTML shell: a bar, the list of keys the script fills, and the element Swagger
 * UI renders into. `version` goes into the library's addresses, so they can be cached for good.
 */
export function explorerDocument(version: string): Html {
  const v = `?v=${encodeURIComponent(version)}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API explorer · onboarding emulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${LIBRARY_CSS_PATH + v}">
<link rel="stylesheet" href="${EXPLORER_CSS_PATH}">
<script src="${LIBRARY_JS_PATH + v}" defer></script>
<script src="${EXPLORER_JS_PATH}" defer></script>
</head>
<body>
<header class="bar">
  <h1>Onboarding emulator · API explorer</h1>
  <nav aria-label="Emulator"><a href="${INSPECTOR_PATH}">Inspector</a> · <a href="/openapi.json">OpenAPI document</a></nav>
</header>
<section class="keys" aria-labelledby="keys-title">
  <h2 id="keys-title">Keys for “Try it out”</h2>
  <p>Requests go to this emulator with the bearer key <code id="key-current">…</code>: open an operation and press Execute. The well-known keys of the default workspace (<code>GET /_emulator/keys</code>); choose another to see how it is answered:</p>
  <ul id="key-list" aria-busy="true"><li class="muted">Loading…</li></ul>
  <p id="explorer-status" class="status" role="alert"></p>
</section>
<noscript><p class="keys">The explorer needs JavaScript. The document it shows is at /openapi.json.</p></noscript>
<main id="swagger-ui"></main>
</body>
</html>
`;
}
