/**
 * The explorer's own script and style sheet, kept as string constants so `tsc` ships them in
 * dist with the rest (as the inspector's). The script is a file, not inline, so the page's
 * policy can refuse every inline script.
 *
 * The script loads the OpenAPI document and the default workspace's keys through the
 * emulator's own API, starts Swagger UI on the document and authorizes its "Try it out" with
 * the Acme owner's key, so one click on Execute sends a request. The keys are listed on the
 * page as DOM text, each with a button that authorizes with it instead.
 */

/** The key "Try it out" starts with: the happy path of the README. */
export const PREFERRED_KEY = 'hrs_test_acme_owner';

export const EXPLORER_JS = String.raw`/* onboarding-emulator API explorer: Swagger UI over /openapi.json, with the workspace's keys. */
(function () {
  'use strict';
  var PREFERRED = ${JSON.stringify(PREFERRED_KEY)};
  var state = { ui: null, scheme: null, key: null };

  function $(id) { return document.getElementById(id); }
  // Every value becomes a text node or a plain attribute, never markup.
  function h(tag, attrs) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else if (k === 'text') el.textContent = String(v);
      else el.setAttribute(k, String(v));
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c !== null && c !== undefined) el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
    return el;
  }
  function getJson(path) {
    return fetch(path, { headers: { Accept: 'application/json' } }).then(function (res) {
      if (!res.ok) throw new Error(path + ' answered HTTP ' + res.status);
      return res.json();
    });
  }

  // The bearer scheme by what it is, not by its name, so a renamed scheme still gets the key.
  function bearerScheme(spec) {
    var schemes = (spec.components && spec.components.securitySchemes) || {};
    return Object.keys(schemes).filter(function (name) {
      return schemes[name].type === 'http' && /^bearer$/i.test(schemes[name].scheme || '');
    })[0] || null;
  }

  // The document may name another address than the one this page came from (the usual port,
  // say); the policy lets "Try it out" reach this origin only, so it is offered first.
  function withThisServer(spec) {
    var here = location.origin;
    var servers = Array.isArray(spec.servers) ? spec.servers : [];
    var named = servers.some(function (s) { return s && (s.url === here || s.url === here + '/' || s.url === '/'); });
    if (!named) spec.servers = [{ url: here, description: 'This emulator' }].concat(servers);
    return spec;
  }

  function use(key) {
    state.key = key;
    if (state.ui && state.scheme) state.ui.preauthorizeApiKey(state.scheme, key);
    $('key-current').textContent = key;
    Array.prototype.forEach.call(document.querySelectorAll('#key-list button[data-key]'), function (b) {
      b.setAttribute('aria-pressed', b.getAttribute('data-key') === key ? 'true' : 'false');
    });
  }

  function drawKeys(keys) {
    var list = $('key-list');
    list.replaceChildren.apply(list, keys.map(function (k) {
      var who = [k.name, k.organization_id, k.environment].filter(Boolean).join(' · ');
      return h('li', null,
        h('button', { type: 'button', 'data-key': k.key, 'aria-pressed': 'false', 'aria-label': 'Use ' + k.key, text: 'Use', onclick: function () { use(k.key); } }),
        ' ', h('code', { text: k.key }), ' ', h('span', { class: 'muted', text: who }));
    }));
    list.setAttribute('aria-busy', 'false');
  }

  function failed(err) {
    $('explorer-status').textContent = 'The explorer could not start: ' + err.message;
  }

  Promise.all([getJson('/openapi.json'), getJson('/_emulator/keys')]).then(function (r) {
    var spec = withThisServer(r[0]);
    var keys = (r[1] && r[1].data) || [];
    state.scheme = bearerScheme(spec);
    drawKeys(keys);
    var first = keys.filter(function (k) { return k.key === PREFERRED; })[0] || keys.filter(function (k) { return /^hrs_test_/.test(k.key); })[0] || keys[0];
    state.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      // "Execute" at once: the key is already in place.
      tryItOutEnabled: true,
      displayRequestDuration: true,
      filter: true,
      // No badge asking an online validator about the document: the page stays on this origin.
      validatorUrl: null,
      onComplete: function () {
        // A key chosen while the document was still loading wins over the default.
        if (state.key || first) use(state.key || first.key);
        document.body.setAttribute('data-explorer', 'ready');
      }
    });
  }).catch(failed);
})();
`;

export const EXPLORER_CSS = `/* onboarding-emulator API explorer: the bar above Swagger UI and the list of keys. */
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b2631;background:#fff}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 2rem;background:#1f4e79;color:#fff;padding:.6rem 1rem}
.bar h1{font-size:1.1rem;margin:0;flex:1 1 auto}
.bar a{color:#fff}
.keys{max-width:1460px;margin:0 auto;padding:.8rem 1.25rem 0}
.keys h2{font-size:1rem;margin:0 0 .3rem}
.keys p{margin:.3rem 0}
.keys ul{list-style:none;margin:.4rem 0;padding:0;columns:2 32rem;column-gap:2rem}
.keys li{margin:.15rem 0;break-inside:avoid}
.keys button{font:inherit;font-size:.85rem;padding:.05rem .5rem;margin-right:.3rem;cursor:pointer;border:1px solid #1f4e79;border-radius:3px;background:#fff;color:#1f4e79}
.keys button[aria-pressed="true"]{background:#1f4e79;color:#fff}
.keys button:focus-visible{outline:2px solid #e67e22;outline-offset:1px}
.keys code{font-size:.9rem}
.muted{color:#5d6d7e}
.status{color:#a93226;font-weight:600}
`;
