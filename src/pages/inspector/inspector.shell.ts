import { EMULATOR_VERSION } from '../../core/product.js';
import { FAULT_METHODS } from '../../core/faults.js';
import { EXPLORER_PATH } from '../explorer/explorer.paths.js';
import { html, type Html } from '../html.js';
import { INSPECTOR_CSS_PATH, INSPECTOR_JS_PATH } from './inspector.paths.js';

/**
 * The inspector's HTML shell: headings, the regions the script fills, and the controls that
 * stay put while the regions refresh (so focus and typed values survive an update). It holds
 * no workspace data: everything shown comes from the control API, rendered as DOM text.
 */
const region = (id: string, title: string, body: Html | string = '') => html`
<section class="panel" id="${id}" aria-labelledby="${id}-title">
  <h2 id="${id}-title">${title}</h2>
  ${body}
  <div class="content" id="${id}-content" aria-busy="true"><p class="muted">Loading…</p></div>
</section>`;

const clockControls = html`
<div class="controls" role="group" aria-label="Move the clock">
  <button type="button" data-advance="1h">+1 hour</button>
  <button type="button" data-advance="1d">+1 day</button>
  <form id="advance-form" class="inline">
    <label for="advance-by">Advance by</label>
    <input id="advance-by" name="by" type="text" inputmode="text" size="8" placeholder="90m, 2d, PT1H" required>
    <button type="submit">Advance</button>
  </form>
  <button type="button" data-advance="0" title="Run what is due now and wait for deliveries in flight">Settle (by 0)</button>
</div>`;

// The request journal's filters (GET /_emulator/requests): a form that stays put while the list refreshes.
const requestFilters = html`
<form id="requests-filter" class="controls" role="search" aria-label="Filter the requests">
  <label for="requests-method">Method</label>
  <select id="requests-method" name="method"><option value="">any</option>${FAULT_METHODS.map((m) => html`<option value="${m}">${m}</option>`)}</select>
  <label for="requests-status">Status or error code</label>
  <input id="requests-status" name="status" type="text" size="14" placeholder="422, not_found" autocomplete="off">
  <label for="requests-onboarding">Onboarding</label>
  <input id="requests-onboarding" name="onboarding_id" type="text" size="14" placeholder="onb_…" autocomplete="off">
  <button type="submit">Filter</button>
  <button type="reset">Clear</button>
</form>`;

/** The webhook deliveries head their column: what a partner opens the inspector for, on a laptop's first screen however many events there are. */
export function inspectorDocument(): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inspector · onboarding emulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${INSPECTOR_CSS_PATH}">
<script src="${INSPECTOR_JS_PATH}" defer></script>
</head>
<body>
<header class="bar">
  <h1>Onboarding emulator · inspector</h1>
  <div class="workspace">
    <label for="workspace">Workspace</label>
    <select id="workspace" name="workspace"><option value="default">default</option></select>
  </div>
  <div class="live">
    <input type="checkbox" id="live" checked>
    <label for="live">Live updates</label>
    <span id="status" role="status" aria-live="polite" class="muted"></span>
  </div>
  <nav aria-label="Emulator"><a href="${EXPLORER_PATH}">API explorer</a></nav>
</header>
<noscript><p class="notice">The inspector needs JavaScript. The same data is in the control API: /_emulator/onboardings, /_emulator/events, /_emulator/webhooks, /_emulator/outbox, /_emulator/clock, /_emulator/requests.</p></noscript>
<p id="message" class="message" role="alert" aria-live="assertive" hidden></p>
<main class="grid">
  <div class="column">
    ${region('clock', 'Clock', clockControls)}
    ${region('onboardings', 'Onboardings')}
    ${region('onboarding', 'Onboarding')}
  </div>
  <div class="column">
    ${region('webhooks', 'Webhook deliveries')}
    ${region('events', 'Events')}
    ${region('outbox', 'Outbox')}
    ${region('scenario', 'Scenario')}
  </div>
  <div class="wide">
    ${region('requests', 'Requests', requestFilters)}
  </div>
</main>
<footer class="muted">onboarding-emulator ${EMULATOR_VERSION} · reads and acts through /_emulator and /v1 only · <a href="/openapi.json">OpenAPI document</a></footer>
</body>
</html>
`;
}
