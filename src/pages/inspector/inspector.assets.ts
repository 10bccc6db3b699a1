/**
 * The inspector's script, kept as a string constant so `tsc` ships it in dist with the rest
 * (no copy step, no front-end build, nothing fetched at run time); the style sheet is inspector.style.ts.
 *
 * The script is one more client of the control API: it polls the workspace's reads every
 * POLL_MS and posts the same control actions a test would. Every value is put on the page as
 * DOM text (textContent, createElement, setAttribute for plain attributes); there is no
 * innerHTML anywhere, so no value can become markup, and the page's policy admits no inline
 * script should one try.
 */
export const POLL_MS = 1500;
/** Deliveries per address shown until "Show all" asks for the rest through the paged read. */
export const LATEST_DELIVERIES = 5;
/** Page size of that read (its maximum). */
const DELIVERY_PAGE = 100;

export const INSPECTOR_JS = String.raw`/* onboarding-emulator inspector: a client of /_emulator, rendering through DOM text only. */
(function () {
  'use strict';
  var POLL_MS = ${POLL_MS};
  var LATEST = ${LATEST_DELIVERIES};
  var PAGE = ${DELIVERY_PAGE};
  var query = new URLSearchParams(location.search);
  var state = {
    workspace: query.get('workspace') || 'default',
    onboarding: query.get('onboarding') || null,
    shown: {},
    allDeliveries: {},
    busy: false,
    current: Promise.resolve(),
    live: true
  };

  // ----- DOM helpers: every value becomes a text node or a plain attribute, never markup.
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
        else if (k === 'text') el.textContent = String(v);
        else el.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { add(el, c); }); return; }
    el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  function $(id) { return document.getElementById(id); }
  function time(iso) { return iso ? String(iso).replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—'; }
  function list(values) { return values && values.length ? values.join(', ') : '—'; }
  function table(headers, rows, caption) {
    return h('table', null,
      caption ? h('caption', { class: 'visually-hidden', text: caption }) : null,
      h('thead', null, h('tr', null, headers.map(function (t) { return h('th', { scope: 'col', text: t }); }))),
      h('tbody', null, rows));
  }
  function empty(text) { return h('p', { class: 'muted', text: text }); }
  function badge(value) { return h('span', { class: 'badge s-' + String(value).replace(/[^a-z_]/g, ''), text: value }); }

  // ----- The control API.
  function base() {
    return state.workspace === 'default' ? '/_emulator' : '/_emulator/workspaces/' + encodeURIComponent(state.workspace);
  }
  function api(method, path, body) {
    var init = { method: method, headers: { Accept: 'application/json' } };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!res.ok) {
          var err = new Error(data && data.error ? data.error.code + ': ' + data.error.message : 'HTTP ' + res.status);
          err.status = res.status;
          err.code = data && data.error ? data.error.code : null;
          throw err;
        }
        return data;
      });
    });
  }

  function say(text, isError) {
    var m = $('message');
    m.textContent = text;
    m.className = 'message' + (isError ? ' error' : '');
    m.hidden = false;
  }
  function act(method, path, body, done) {
    return api(method, path, body).then(function (result) {
      say(done(result), false);
    }, function (err) {
      say('Refused: ' + err.message, true);
    }).then(poll);
  }

  function remember() {
    var q = new URLSearchParams();
    if (state.workspace !== 'default') q.set('workspace', state.workspace);
    if (state.onboarding) q.set('onboarding', state.onboarding);
    var s = q.toString();
    history.replaceState(null, '', location.pathname + (s ? '?' + s : ''));
  }
  function select(id) {
    state.onboarding = id;
    remember();
    poll().then(function () { var t = $('onboarding-heading'); if (t) t.focus(); });
  }

  // ----- Sections. Each is redrawn only when its data changed, so focus survives an update.
  function fill(id, data, draw) {
    var key = JSON.stringify(data);
    if (state.shown[id] === key) return;
    state.shown[id] = key;
    var box = $(id + '-content');
    box.replaceChildren(draw(data));
    box.setAttribute('aria-busy', 'false');
  }

  function drawWorkspaces(ws) {
    var sel = $('workspace');
    var ids = ws.data.map(function (w) { return w.id; });
    if (ids.indexOf(state.workspace) < 0) ids.push(state.workspace);
    var key = ids.join('\n');
    if (sel.dataset.ids === key) return;
    sel.dataset.ids = key;
    sel.replaceChildren.apply(sel, ids.map(function (id) { return h('option', { value: id, text: id }); }));
    sel.value = state.workspace;
  }

  // What the next timer is about: its payload's fields, named for people (others as they come).
  var PAYLOAD_NAMES = { onboarding_id: 'onboarding', step: 'step', delivery_id: 'delivery', event_id: 'event',
    webhook_id: 'address', review_session_id: 'review session', reviewer_link_id: 'reviewer link' };
  function timerDetails(t) {
    return Object.keys(t).filter(function (k) { return k !== 'kind' && k !== 'due_at'; }).map(function (k) {
      var label = Object.prototype.hasOwnProperty.call(PAYLOAD_NAMES, k) ? PAYLOAD_NAMES[k] : k;
      var value = typeof t[k] === 'string' ? t[k] : JSON.stringify(t[k]);
      if (k === 'onboarding_id' && typeof t[k] === 'string') {
        return [' · ' + label + ' ', h('button', { type: 'button', class: 'link', onclick: function () { select(t[k]); }, 'aria-label': 'Show onboarding ' + t[k], text: t[k] })];
      }
      return [' · ' + label + ' ', h('code', { text: value })];
    });
  }
  function nextTimer(t) {
    if (!t) return h('dd', { id: 'clock-next-timer', text: 'none' });
    return h('dd', { id: 'clock-next-timer', 'data-kind': t.kind }, h('code', { class: 'timer-kind', text: t.kind }), timerDetails(t));
  }

  function drawClock(c) {
    return h('dl', { class: 'facts' },
      h('dt', { text: 'Now' }), h('dd', { id: 'clock-now', text: time(c.now) }),
      h('dt', { text: 'Mode' }), h('dd', { id: 'clock-mode', text: c.mode }),
      h('dt', { text: 'Pending timers' }), h('dd', { text: c.pending_timers }),
      h('dt', { text: 'Next due' }), h('dd', { id: 'clock-next', text: time(c.next_due_at) }),
      h('dt', { text: 'Next timer' }), nextTimer(c.next_timer));
  }

  function drawOnboardings(o) {
    if (!o.data.length) return empty('No onboardings in this workspace yet.');
    return h('div', null,
      table(['Onboarding', 'Employee', 'Status', 'Waiting on', 'Version', 'Env'], o.data.map(function (r) {
        return h('tr', { class: r.id === state.onboarding ? 'selected' : null, 'aria-current': r.id === state.onboarding ? 'true' : null },
          h('td', null, h('button', { type: 'button', class: 'link', onclick: function () { select(r.id); }, 'aria-label': 'Show onboarding ' + r.id, text: r.id })),
          h('td', { text: r.employee.first_name + ' ' + r.employee.last_name }),
          h('td', null, badge(r.status)),
          h('td', { text: list(r.waiting_on) }),
          h('td', { text: r.data_version }),
          h('td', { text: r.environment }));
      }), 'Onboardings'),
      o.total > o.data.length ? h('p', { class: 'muted', text: 'Showing ' + o.data.length + ' of ' + o.total + '.' }) : null);
  }

  // One form per allowed action; the body fields come from the action's shape.
  function actionForm(d, a) {
    var o = d.onboarding;
    var fields = [];
    var body = function () { return {}; };
    var uid = 'act-' + a.action.replace(/[^a-z]/g, '-');
    if (a.action === 'employee/open') {
      fields.push(h('label', { for: uid + '-code', text: 'Code (optional)' }), h('input', { id: uid + '-code', name: 'code', size: 8, autocomplete: 'off' }));
      body = function (f) { return f.code.value ? { code: f.code.value } : {}; };
    } else if (a.action === 'approve') {
      var roles = o.approvals.required.length ? o.approvals.required : ['manager'];
      var role = roles.indexOf(o.waiting_on[0]) >= 0 ? o.waiting_on[0] : roles[0];
      var holder = d.people.filter(function (p) { return p.roles.indexOf(role) >= 0; })[0];
      fields.push(h('label', { for: uid + '-role', text: 'Role' }),
        h('select', { id: uid + '-role', name: 'role' }, roles.map(function (r) { return h('option', { value: r, text: r, selected: r === role }); })),
        h('label', { for: uid + '-user', text: 'User' }),
        h('select', { id: uid + '-user', name: 'user_id' }, d.people.map(function (p) {
          return h('option', { value: p.id, text: p.name + ' (' + list(p.roles) + ')', selected: holder && p.id === holder.id });
        })));
      body = function (f) { return { role: f.role.value, user_id: f.user_id.value }; };
    } else if (a.action === 'return') {
      fields.push(h('label', { for: uid + '-to', text: 'To' }),
        h('select', { id: uid + '-to', name: 'to' }, h('option', { value: 'employee', text: 'employee' }), h('option', { value: 'manager', text: 'manager' })));
      body = function (f) { return { to: f.to.value }; };
    } else if (a.action === 'change-terms') {
      fields.push(h('label', { for: uid + '-wage', text: 'Hourly wage (cents)' }),
        h('input', { id: uid + '-wage', name: 'hourly_wage_cents', type: 'number', min: 1, required: true, size: 6, value: o.employment.hourly_wage_cents }));
      body = function (f) { return { hourly_wage_cents: Number(f.hourly_wage_cents.value) }; };
    } else if (a.action === 'payroll/fail') {
      fields.push(h('label', { for: uid + '-code', text: 'Error code (optional)' }), h('input', { id: uid + '-code', name: 'error_code', size: 14, autocomplete: 'off' }));
      body = function (f) { return f.error_code.value ? { error_code: f.error_code.value } : {}; };
    }
    return h('form', {
      class: 'action',
      onsubmit: function (e) {
        e.preventDefault();
        act('POST', base() + a.path.replace(/^\/_emulator/, ''), body(e.target), function (r) {
          return a.action + ': ' + r.onboarding.id + ' is now ' + r.onboarding.status + '.';
        });
      }
    }, fields, h('button', { type: 'submit', title: a.summary, text: a.action }));
  }

  function drawOnboarding(d) {
    if (!d) return empty(state.onboarding ? 'No onboarding ' + state.onboarding + ' in this workspace.' : 'Choose an onboarding in the list to see its timeline and actions.');
    var o = d.onboarding;
    return h('div', null,
      h('h3', { id: 'onboarding-heading', tabindex: '-1', text: o.id + ' · ' + o.employee.first_name + ' ' + o.employee.last_name }),
      h('dl', { class: 'facts' },
        h('dt', { text: 'Status' }), h('dd', null, badge(o.status)),
        h('dt', { text: 'Waiting on' }), h('dd', { text: list(o.waiting_on) }),
        h('dt', { text: 'data_version' }), h('dd', { text: o.data_version }),
        h('dt', { text: 'Reference' }), h('dd', { text: o.reference === null ? '—' : o.reference }),
        h('dt', { text: 'Organization' }), h('dd', { text: d.organization_id + (d.partner_id ? ' (via ' + d.partner_id + ')' : '') }),
        h('dt', { text: 'Environment' }), h('dd', { text: d.environment + ' · ' + o.source }),
        h('dt', { text: 'Hosted link' }), h('dd', { text: o.hosted_link ? o.hosted_link.status + ', expires ' + time(o.hosted_link.expires_at) : '—' })),
      h('h4', { text: 'Allowed actions' }),
      d.allowed_actions.length
        ? h('div', { class: 'actions' }, d.allowed_actions.map(function (a) { return actionForm(d, a); }))
        : empty('None: the onboarding is ' + o.status + '.'),
      h('h4', { text: 'Timeline' }),
      h('ol', { class: 'timeline' }, d.timeline.map(function (t) {
        return h('li', null,
          h('span', { class: 'when', text: time(t.at) }), ' ',
          h('strong', { text: t.trigger || 'event' }), ' ',
          h('span', { text: (t.from || 'new') + ' → ' + t.to }),
          t.data_version !== null ? h('span', { class: 'muted', text: ' · v' + t.data_version }) : null,
          t.detail ? h('span', { class: 'muted', text: ' · ' + t.detail }) : null,
          t.events.length ? h('ul', { class: 'events' }, t.events.map(function (e) { return h('li', null, h('code', { text: e.type }), ' ', h('span', { class: 'muted', text: e.id })); })) : null);
      })),
      h('h4', { text: 'Approvals' }),
      d.approvals.length
        ? table(['Role', 'User', 'Version', 'Valid', 'At'], d.approvals.map(function (a) {
            return h('tr', null, h('td', { text: a.role }), h('td', { text: a.user_name || a.user_id }), h('td', { text: a.data_version }), h('td', { text: a.valid ? 'yes' : 'no (lapsed)' }), h('td', { text: time(a.at) }));
          }), 'Approvals')
        : empty('Required: ' + list(o.approvals.required) + '; none given yet.'));
  }

  function drawEvents(e) {
    if (!e.data.length) return empty('No events yet.');
    return table(['Time', 'Type', 'Onboarding', 'Version', 'Env', 'Deliveries'], e.data.map(function (ev) {
      return h('tr', null,
        h('td', { class: 'when', text: time(ev.created_at) }),
        h('td', null, h('code', { text: ev.type })),
        h('td', null, h('button', { type: 'button', class: 'link', onclick: function () { select(ev.data.onboarding_id); }, 'aria-label': 'Show onboarding ' + ev.data.onboarding_id, text: ev.data.onboarding_id })),
        h('td', { text: ev.data.data_version === null ? '—' : ev.data.data_version }),
        h('td', { text: ev.environment }),
        h('td', { text: ev.deliveries }));
    }), 'Events');
  }

  function attempts(d) {
    if (!d.attempt_log.length) return empty('No attempt yet; next at ' + time(d.next_attempt_at) + '.');
    return h('ol', { class: 'attempts' }, d.attempt_log.map(function (a) {
      return h('li', null,
        h('span', { class: 'when', text: time(a.at) }), ' ',
        h('strong', { text: a.status_code === null ? 'no answer' : 'HTTP ' + a.status_code }),
        a.error ? h('span', { text: ' · ' + a.error }) : null,
        a.manual ? h('span', { class: 'muted', text: ' · manual retry' }) : null,
        h('span', { class: 'muted', text: ' · next: ' + (a.next_attempt_at ? time(a.next_attempt_at) : 'none') }));
    }));
  }

  // "Show all" fetches every delivery of the address page by page; "Show the latest" goes back.
  function toggleAll(hook, all) {
    if (all) state.allDeliveries[hook.id] = true;
    else delete state.allDeliveries[hook.id];
    poll().then(function () {
      var b = document.querySelector('button[data-toggle-hook="' + CSS.escape(hook.id) + '"]');
      if (b) b.focus();
    });
  }
  function deliveriesToggle(hook) {
    var all = !!hook.all;
    if (!all && hook.deliveries_total <= hook.deliveries.length) return null;
    return h('p', null, h('button', {
      type: 'button', 'data-toggle-hook': hook.id, 'aria-expanded': all ? 'true' : 'false', 'aria-controls': 'deliveries-' + hook.id,
      text: all ? 'Show the latest ' + LATEST : 'Show all ' + hook.deliveries_total + ' deliveries',
      'aria-label': (all ? 'Show the latest ' + LATEST : 'Show all ' + hook.deliveries_total) + ' deliveries to ' + hook.url,
      onclick: function () { toggleAll(hook, !all); }
    }));
  }

  function drawWebhooks(w) {
    if (!w.data.length) return empty('No webhook addresses. Register one with POST /v1/webhooks.');
    return h('div', null, w.data.map(function (hook) {
      return h('article', { class: 'hook' },
        h('h3', null, h('code', { text: hook.url })),
        h('p', { class: 'muted' }, badge(hook.status), ' ' + hook.id + ' · ' + hook.organization_id + ' · ' + hook.environment + ' · events ' + list(hook.events) +
          ' · dead in a row ' + hook.dead_in_a_row + ' · ' + hook.deliveries_total + ' deliveries' +
          (hook.all ? ', all below' : hook.deliveries_total > hook.deliveries.length ? ', the latest ' + hook.deliveries.length + ' below' : '')),
        deliveriesToggle(hook),
        h('div', { id: 'deliveries-' + hook.id }, hook.deliveries.length
          ? table(['Event', 'Status', 'Attempts', 'Next attempt', ''], hook.deliveries.map(function (d) {
              return [
                h('tr', { 'data-delivery': d.id },
                  h('td', null, h('code', { text: d.event_type }), h('div', { class: 'muted', text: d.id })),
                  h('td', null, badge(d.status)),
                  h('td', { class: 'attempt-count', text: d.attempts }),
                  h('td', { class: 'when', text: time(d.next_attempt_at) }),
                  h('td', null, h('button', {
                    type: 'button', 'aria-label': 'Retry delivery ' + d.id, text: 'Retry',
                    disabled: d.status === 'in_progress' || hook.status === 'disabled',
                    onclick: function () {
                      act('POST', base() + '/deliveries/' + encodeURIComponent(d.id) + '/retry', {}, function (r) {
                        return 'Retried ' + r.id + ': ' + (r.last_status_code === null ? 'no answer' : 'HTTP ' + r.last_status_code) + ', now ' + r.status + '.';
                      });
                    }
                  }))),
                h('tr', { class: 'sub' }, h('td', { colspan: 5 }, attempts(d)))
              ];
            }), 'Deliveries to ' + hook.url)
          : empty('No deliveries yet.')));
    }));
  }

  function drawOutbox(o) {
    if (!o.data.length) return empty('No mails yet.');
    return table(['Sent', 'To', 'Kind', 'Code', 'Link'], o.data.slice().reverse().slice(0, 50).map(function (m) {
      var safe = typeof m.link === 'string' && /^https?:\/\//.test(m.link);
      return h('tr', null,
        h('td', { class: 'when', text: time(m.sent_at) }),
        h('td', null, h('div', { text: m.to }), h('div', { class: 'muted', text: m.subject })),
        h('td', { text: m.kind }),
        h('td', null, m.code ? h('code', { text: m.code }) : '—'),
        h('td', null, safe ? h('a', { href: m.link, rel: 'noreferrer', target: '_blank', text: m.link.replace(/^https?:\/\/[^/]+/, '') }) : (m.link || '—')));
    }), 'Outbox');
  }

  function drawScenario(s) {
    if (!s.loaded) return empty('No scenario loaded. Onboardings of the magic e-mail addresses still play by themselves (' + s.magic_addresses.length + ' addresses).');
    return h('div', null,
      h('dl', { class: 'facts' },
        h('dt', { text: 'Name' }), h('dd', { text: s.name || '(unnamed)' }),
        h('dt', { text: 'Source' }), h('dd', { text: s.source }),
        h('dt', { text: 'Loaded' }), h('dd', { text: time(s.loaded_at) }),
        h('dt', { text: 'Rules' }), h('dd', { text: s.document && s.document.rules ? s.document.rules.length : 0 })),
      s.planned.length
        ? table(['Onboarding', 'Next step', 'Due'], s.planned.map(function (p) {
            return h('tr', null, h('td', { text: p.onboarding_id }), h('td', { text: p.step }), h('td', { class: 'when', text: time(p.due_at) }));
          }), 'Planned steps')
        : empty('Nothing planned.'));
  }

  // Every delivery of one address, following next_cursor; null once the address is gone. A
  // cursor purged between two pages (the clock moved meanwhile) starts the walk over, once.
  function allDeliveries(b, id, after, acc, retried) {
    var path = b + '/webhooks/' + encodeURIComponent(id) + '/deliveries?limit=' + PAGE + (after ? '&starting_after=' + encodeURIComponent(after) : '');
    return api('GET', path).then(function (page) {
      acc = (acc || []).concat(page.data);
      return page.has_more ? allDeliveries(b, id, page.next_cursor, acc, retried) : acc;
    }, function (e) {
      if (e.status === 404) return null;
      if (e.code === 'cursor_invalid' && !retried) return allDeliveries(b, id, null, [], true);
      throw e;
    });
  }
  function withAllDeliveries(w, all) {
    w.data.forEach(function (hook) {
      if (all[hook.id]) { hook.deliveries = all[hook.id]; hook.all = true; }
    });
    return w;
  }

  // ----- Polling: every read at once; one poll at a time.
  function poll() {
    // One poll at a time; a call meanwhile (after an action) runs once the current one ends.
    if (state.busy) return state.current.then(function () { return state.busy ? state.current : poll(); });
    state.busy = true;
    var b = base();
    var detail = state.onboarding
      ? api('GET', b + '/onboardings/' + encodeURIComponent(state.onboarding)).catch(function (e) { if (e.status === 404) return null; throw e; })
      : Promise.resolve(null);
    var reads = [api('GET', '/_emulator/workspaces'), api('GET', b + '/clock'), api('GET', b + '/onboardings?limit=200'), detail,
      api('GET', b + '/events?limit=100'), api('GET', b + '/webhooks?deliveries=' + LATEST), api('GET', b + '/outbox'), api('GET', b + '/scenario')];
    var expanded = Object.keys(state.allDeliveries);
    reads.push(Promise.all(expanded.map(function (id) { return allDeliveries(b, id); })).then(function (lists) {
      var all = {};
      expanded.forEach(function (id, i) { if (lists[i]) all[id] = lists[i]; });
      return all;
    }));
    state.current = Promise.all(reads).then(function (r) {
      drawWorkspaces(r[0]);
      fill('clock', r[1], drawClock);
      fill('onboardings', { o: r[2], selected: state.onboarding }, function (x) { return drawOnboardings(x.o); });
      fill('onboarding', { d: r[3], selected: state.onboarding }, function (x) { return drawOnboarding(x.d); });
      fill('events', r[4], drawEvents);
      fill('webhooks', withAllDeliveries(r[5], r[8]), drawWebhooks);
      fill('outbox', r[6], drawOutbox);
      fill('scenario', r[7], drawScenario);
      // The viewer's own time on purpose: it shows the page is still polling, which a frozen
      // emulated clock could not; the emulated time is on the page from the clock read.
      $('status').textContent = 'Updated ' + new Date().toLocaleTimeString();
      document.body.setAttribute('data-polls', String(Number(document.body.getAttribute('data-polls') || 0) + 1));
    }, function (err) {
      $('status').textContent = 'Cannot read the emulator: ' + err.message;
    }).then(function () { state.busy = false; });
    return state.current;
  }

  function advance(by) {
    act('POST', base() + '/clock/advance', { by: by }, function (r) {
      return 'Clock at ' + time(r.now) + '; ' + r.fired.length + ' timer' + (r.fired.length === 1 ? '' : 's') + ' fired.';
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    Array.prototype.forEach.call(document.querySelectorAll('[data-advance]'), function (button) {
      button.addEventListener('click', function () {
        var by = button.getAttribute('data-advance');
        advance(by === '0' ? 0 : by);
      });
    });
    $('advance-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var value = $('advance-by').value.trim();
      advance(/^\d+$/.test(value) ? Number(value) : value);
    });
    $('workspace').addEventListener('change', function (e) {
      state.workspace = e.target.value;
      state.onboarding = null;
      state.allDeliveries = {};
      state.shown = {};
      remember();
      poll();
    });
    $('live').addEventListener('change', function (e) { state.live = e.target.checked; if (state.live) poll(); });
    // Runs in the viewer's browser, not in the emulator: polling is paced by real time whatever
    // the workspace clock does, and reads nothing but the control API.
    setInterval(function () { if (state.live && !document.hidden) poll(); }, POLL_MS);
    document.addEventListener('visibilitychange', function () { if (!document.hidden && state.live) poll(); });
    poll();
  });
})();
`;
