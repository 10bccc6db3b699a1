/**
 * The review pages' static files, kept as string constants so `tsc` ships them in dist with
 * the rest (no copy step, nothing fetched at run time). Served by routes.ts with their own
 * content types; the pages' Content-Security-Policy admits scripts and styles from 'self' only.
 */

/** The message types the review page posts to its parent (README, docs/decisions.md). */
export const MESSAGE_TYPE = 'onboarding-review';
const RESIZE_TYPE = 'onboarding-review.resize';

/**
 * GET /embed.js: included by the partner's page. `OnboardingReview.mount(target, reviewUrl,
 * {onMessage})` appends an iframe for review_url, telling the page its own origin (the only
 * origin the review page will post to, once allowed_origins admits it); messages from that
 * frame are passed to onMessage and dispatched as an `onboarding-review` DOM event on the
 * container. `<div data-onboarding-review="REVIEW_URL">` mounts without any script of one's own.
 */
export const EMBED_JS = `/* onboarding-emulator embed.js: mounts the review behind review_url in an iframe. */
(function () {
  'use strict';
  if (window.OnboardingReview && window.OnboardingReview.mount) return;
  var TYPE = '${MESSAGE_TYPE}';
  var RESIZE = '${RESIZE_TYPE}';

  function mount(target, reviewUrl, options) {
    options = options || {};
    var container = typeof target === 'string' ? document.querySelector(target) : target;
    if (!container) throw new Error('OnboardingReview.mount: no element ' + target);
    var url = new URL(reviewUrl, window.location.href);
    url.searchParams.set('origin', window.location.origin);
    var frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = options.title || 'Onboarding review';
    frame.style.width = '100%';
    frame.style.border = '0';
    frame.style.height = (options.height || 640) + 'px';
    function onMessage(event) {
      if (event.source !== frame.contentWindow || event.origin !== url.origin) return;
      var data = event.data;
      if (!data || typeof data !== 'object') return;
      if (data.type === RESIZE) {
        if (typeof data.height === 'number' && data.height > 0) frame.style.height = Math.ceil(data.height) + 'px';
        return;
      }
      if (data.type !== TYPE) return;
      if (typeof options.onMessage === 'function') options.onMessage(data);
      container.dispatchEvent(new CustomEvent(TYPE, { detail: data, bubbles: true }));
    }
    window.addEventListener('message', onMessage);
    container.appendChild(frame);
    return {
      iframe: frame,
      unmount: function () {
        window.removeEventListener('message', onMessage);
        if (frame.parentNode) frame.parentNode.removeChild(frame);
      }
    };
  }

  window.OnboardingReview = { mount: mount };

  function auto() {
    var nodes = document.querySelectorAll('[data-onboarding-review]');
    for (var i = 0; i < nodes.length; i++) {
      if (nodes[i].hasAttribute('data-onboarding-review-mounted')) continue;
      nodes[i].setAttribute('data-onboarding-review-mounted', '');
      mount(nodes[i], nodes[i].getAttribute('data-onboarding-review'));
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', auto);
  else auto();
})();
`;

/**
 * GET /embed/review-page.js: the review page's only script. It reads the page's JSON data
 * block (never executed) and, inside a frame whose origin allowed_origins admitted, posts the
 * outcome and the page height to that exact origin; never to '*'.
 */
export const PAGE_JS = `(function () {
  'use strict';
  var block = document.getElementById('review-data');
  if (!block || window.parent === window) return;
  var data;
  try { data = JSON.parse(block.textContent || '{}'); } catch (e) { return; }
  var target = data.target_origin;
  if (typeof target !== 'string' || !target) return;
  if (data.message) window.parent.postMessage(data.message, target);
  var last = 0;
  function size() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: '${RESIZE_TYPE}', height: height }, target);
  }
  size();
  window.addEventListener('resize', size);
})();
`;

/** GET /embed/review-page.css */
export const PAGE_CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1.25rem;color:#1d2733;background:#fff}
h1{font-size:1.375rem;margin:0 0 .5rem}h2{font-size:1.0625rem;margin:1.25rem 0 .5rem}
code{background:#eef2f6;padding:0 .25rem}.note{color:#5b6b7b;font-size:.875rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dt{color:#5b6b7b}dd{margin:0}
.notice{padding:.625rem .875rem;border-radius:.375rem;margin:.75rem 0}
.ok{background:#e6f4ea;border:1px solid #8cc59a}.error{background:#fdecea;border:1px solid #e6a39c}
form{margin:.5rem 0 1rem}fieldset{border:1px solid #d3dbe3;border-radius:.375rem;padding:.5rem .875rem}
legend{font-weight:600}label{display:block;margin:.25rem 0}
input[type=email],input[type=text],select,textarea{font:inherit;padding:.25rem .375rem;max-width:100%}
button{font:inherit;padding:.375rem .875rem;border-radius:.375rem;border:1px solid #1d4f91;background:#1d4f91;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d4f91}button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #0b0c0c;outline-offset:2px;box-shadow:0 0 0 8px #ffdd00}
`;
