/*
 * The inspector's script, run in the viewer's browser: one more client of the control API. It
 * polls the workspace's reads every POLL_MS and posts the same control actions a test would.
 * Every value is put on the page as DOM text (textContent, createElement, setAttribute for
 * plain attributes); there is no innerHTML anywhere, so no value can become markup, and the
 * page's policy admits no inline script should one try.
 *
 * A classic script (no import or export), so tsc emits it as it is and the page loads it with a
 * plain <script src>; the server serves the compiled file (browserScript()). The shapes it reads
 * are declared in inspector.types.ts (types only: the page loads nothing of it). The rest stays one
 * closure, a section per panel, since a classic script shares nothing with another but globals.
 */

(function () {
  /** Real time between two polls (the viewer's, not the workspace clock's). */
  const POLL_MS = 1500;
  /** Deliveries per address shown until "Show all" asks for the rest through the paged read. */
  const LATEST_DELIVERIES = 5;
  /** Page size of that read: its maximum (PAGE_LIMIT_MAX on the server). */
  const DELIVERY_PAGE = 100;
  /** Events per page of the events panel. */
  const EVENT_PAGE = 25;
  /** Requests per page of the requests panel. */
  const REQUEST_PAGE = 25;

  const query = new URLSearchParams(location.search);
  const state: PageState = {
    workspace: query.get('workspace') || 'default',
    onboarding: query.get('onboarding') || null,
    shown: {},
    allDeliveries: {},
    events: null,
    requests: { filter: {}, cursors: [], open: {} },
    busy: false,
    current: Promise.resolve(),
    live: true,
  };

  // ----- DOM helpers: every value becomes a text node or a plain attribute, never markup.
  function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
    const el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach((k) => {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        // An `on` key is never an attribute, whatever its value: that would be inline script.
        if (k.slice(0, 2) === 'on') {
          if (typeof v === 'function') el.addEventListener(k.slice(2), v);
        } else if (k === 'text') el.textContent = String(v);
        else el.setAttribute(k, v === true ? '' : String(v));
      });
    }
    children.forEach((c) => add(el, c));
    return el;
  }
  function add(el: Node, child: Child): void {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach((c) => add(el, c)); return; }
    el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  /** The shell's element `id`, which must be a `type` (the shell is the server's, so a mismatch is a bug). */
  function $<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
    const el = document.getElementById(id);
    if (!(el instanceof type)) throw new Error('The page has no ' + type.name + ' #' + id);
    return el;
  }
  function time(iso: string | null | undefined): string { return iso ? String(iso).replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—'; }
  function list(values: readonly string[] | null | undefined): string { return values && values.length ? values.join(', ') : '—'; }
  function table(headers: string[], rows: Child, caption?: string): HTMLTableElement {
    return h('table', null,
      caption ? h('caption', { class: 'visually-hidden', text: caption }) : null,
      h('thead', null, h('tr', null, headers.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', null, rows));
  }
  /**
   * A name such as an event type or a role, with places to wrap before each dot and after
   * each underscore, so a narrow column breaks it there rather than anywhere.
   */
  function wrappable(name: string): Child[] {
    return name.split(/(?=\.)|(?<=_)/).map((part, i) => (i ? [h('wbr', null), part] : part));
  }
  function dotted(type: string): HTMLElement { return h('code', null, wrappable(type)); }
  /** An id (onb_…, whd_…): class `id` keeps it on one line, never cut where a copy would take half. */
  function idText(id: string, extra?: string): HTMLSpanElement { return h('span', { class: extra ? 'id ' + extra : 'id', text: id }); }
  function empty(text: string): HTMLParagraphElement { return h('p', { class: 'muted', text: text }); }
  function badge(value: string, label?: string): HTMLSpanElement { return h('span', { class: 'badge s-' + String(value).replace(/[^a-z_]/g, ''), text: label ?? value }); }
  /** A value as indented JSON, for a <pre>: text, never markup. */
  function json(value: unknown): HTMLPreElement { return h('pre', { class: 'json' }, h('code', { text: JSON.stringify(value, null, 2) })); }
  function message(e: unknown): string { return e instanceof Error ? e.message : String(e); }
  function isApiError(e: unknown): e is ApiError { return e instanceof Error && 'status' in e; }

  // ----- The control API.
  function base(): string {
    return state.workspace === 'default' ? '/_emulator' : '/_emulator/workspaces/' + encodeURIComponent(state.workspace);
  }
  /** The answer's JSON, taken to be the documented shape `T` of the read (the API is the emulator's own). */
  function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method: method, headers: headers };
    if (body !== undefined) { headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    return fetch(path, init).then((res) => res.text().then((text) => {
      let data: unknown = null;
      try { data = text ? JSON.parse(text) : null; } catch { data = null; }
      if (!res.ok) {
        const error = (data as { error?: { code: string; message: string } } | null)?.error;
        const err: ApiError = Object.assign(new Error(error ? error.code + ': ' + error.message : 'HTTP ' + res.status), {
          status: res.status,
          code: error ? error.code : null,
        });
        throw err;
      }
      return data as T;
    }));
  }

  function say(text: string, isError: boolean): void {
    const m = $('message', HTMLParagraphElement);
    m.textContent = text;
    m.className = 'message' + (isError ? ' error' : '');
    m.hidden = false;
  }
  function act<T>(method: string, path: string, body: unknown, done: (result: T) => string): Promise<void> {
    return api<T>(method, path, body).then((result) => {
      say(done(result), false);
    }, (err: unknown) => {
      say('Refused: ' + message(err), true);
    }).then(poll);
  }

  function remember(): void {
    const q = new URLSearchParams();
    if (state.workspace !== 'default') q.set('workspace', state.workspace);
    if (state.onboarding) q.set('onboarding', state.onboarding);
    const s = q.toString();
    history.replaceState(null, '', location.pathname + (s ? '?' + s : ''));
  }
  function select(id: string): void {
    state.onboarding = id;
    remember();
    void poll().then(() => { document.getElementById('onboarding-heading')?.focus(); });
  }

  // ----- Sections. Each is redrawn only when its data changed, so focus survives an update.
  function fill<T>(id: string, data: T, draw: (data: T) => Node): void {
    const key = JSON.stringify(data);
    if (state.shown[id] === key) return;
    state.shown[id] = key;
    const box = $(id + '-content', HTMLDivElement);
    box.replaceChildren(draw(data));
    box.setAttribute('aria-busy', 'false');
  }

  function drawWorkspaces(ws: ListOf<WorkspaceInfo>): void {
    const sel = $('workspace', HTMLSelectElement);
    const ids = ws.data.map((w) => w.id);
    if (ids.indexOf(state.workspace) < 0) ids.push(state.workspace);
    const key = ids.join('\n');
    if (sel.dataset.ids === key) return;
    sel.dataset.ids = key;
    sel.replaceChildren(...ids.map((id) => h('option', { value: id, text: id })));
    sel.value = state.workspace;
  }

  // What the next timer is about: its payload's fields, named for people (others as they come).
  const PAYLOAD_NAMES = new Map([['onboarding_id', 'onboarding'], ['step', 'step'], ['delivery_id', 'delivery'], ['event_id', 'event'],
    ['webhook_id', 'address'], ['review_session_id', 'review session'], ['reviewer_link_id', 'reviewer link']]);
  function timerDetails(t: TimerInfo): Child[] {
    return Object.keys(t).filter((k) => k !== 'kind' && k !== 'due_at').map((k) => {
      const label = PAYLOAD_NAMES.get(k) ?? k;
      const raw = t[k];
      if (k === 'onboarding_id' && typeof raw === 'string') {
        return [' · ' + label + ' ', h('button', { type: 'button', class: 'link id', onclick: () => { select(raw); }, 'aria-label': 'Show onboarding ' + raw, text: raw })];
      }
      return [' · ' + label + ' ', h('code', { class: typeof raw === 'string' ? 'id' : null, text: typeof raw === 'string' ? raw : JSON.stringify(raw) })];
    });
  }
  function nextTimer(t: TimerInfo | null): HTMLElement {
    if (!t) return h('dd', { id: 'clock-next-timer', text: 'none' });
    return h('dd', { id: 'clock-next-timer', 'data-kind': t.kind }, h('code', { class: 'timer-kind', text: t.kind }), timerDetails(t));
  }

  function drawClock(c: ClockInfo): Node {
    return h('dl', { class: 'facts' },
      h('dt', { text: 'Now' }), h('dd', { id: 'clock-now', text: time(c.now) }),
      h('dt', { text: 'Mode' }), h('dd', { id: 'clock-mode', text: c.mode }),
      h('dt', { text: 'Pending timers' }), h('dd', { text: c.pending_timers }),
      h('dt', { text: 'Next due' }), h('dd', { id: 'clock-next', text: time(c.next_due_at) }),
      h('dt', { text: 'Next timer' }), nextTimer(c.next_timer));
  }

  function drawOnboardings(o: OnboardingList): Node {
    if (!o.data.length) return empty('No onboardings in this workspace yet.');
    return h('div', null,
      table(['Onboarding', 'Employee', 'Status', 'Waiting on', 'Version', 'Env'], o.data.map((r) => {
        return h('tr', { class: r.id === state.onboarding ? 'selected' : null, 'aria-current': r.id === state.onboarding ? 'true' : null },
          h('td', { class: 'id-cell' }, h('button', { type: 'button', class: 'link id', onclick: () => { select(r.id); }, 'aria-label': 'Show onboarding ' + r.id, title: r.id, text: r.id })),
          h('td', { text: r.employee.first_name + ' ' + r.employee.last_name }),
          h('td', null, badge(r.status)),
          h('td', { class: 'words' }, wrappable(list(r.waiting_on))),
          h('td', { class: 'n', text: r.data_version }),
          h('td', { class: 'n', text: r.environment }));
      }), 'Onboardings'),
      o.total > o.data.length ? h('p', { class: 'muted', text: 'Showing ' + o.data.length + ' of ' + o.total + '.' }) : null);
  }

  /** A form field's value by name; forms here name only inputs and selects. */
  function field(form: HTMLFormElement, name: string): string {
    const el = form.elements.namedItem(name);
    if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) throw new Error('The form has no field ' + name);
    return el.value;
  }

  // One form per allowed action; the body fields come from the action's shape.
  function actionForm(d: OnboardingDetail, a: AllowedAction): HTMLFormElement {
    const o = d.onboarding;
    const fields: Child[] = [];
    let body = (_form: HTMLFormElement): FormBody => ({});
    const uid = 'act-' + a.action.replace(/[^a-z]/g, '-');
    if (a.action === 'employee/open') {
      fields.push(h('label', { for: uid + '-code', text: 'Code (optional)' }), h('input', { id: uid + '-code', name: 'code', size: 8, autocomplete: 'off' }));
      body = (f): FormBody => {
        const code = field(f, 'code');
        return code ? { code: code } : {};
      };
    } else if (a.action === 'approve') {
      const roles = o.approvals.required.length ? o.approvals.required : ['manager'];
      const waiting = o.waiting_on[0];
      // roles is never empty, so the fallback is for the type checker only.
      const role = waiting !== undefined && roles.indexOf(waiting) >= 0 ? waiting : roles[0] ?? 'manager';
      const holder = d.people.filter((p) => p.roles.indexOf(role) >= 0)[0];
      fields.push(h('label', { for: uid + '-role', text: 'Role' }),
        h('select', { id: uid + '-role', name: 'role' }, roles.map((r) => h('option', { value: r, text: r, selected: r === role }))),
        h('label', { for: uid + '-user', text: 'User' }),
        h('select', { id: uid + '-user', name: 'user_id' }, d.people.map((p) => {
          return h('option', { value: p.id, text: p.name + ' (' + list(p.roles) + ')', selected: holder && p.id === holder.id });
        })));
      body = (f) => ({ role: field(f, 'role'), user_id: field(f, 'user_id') });
    } else if (a.action === 'return') {
      fields.push(h('label', { for: uid + '-to', text: 'To' }),
        h('select', { id: uid + '-to', name: 'to' }, h('option', { value: 'employee', text: 'employee' }), h('option', { value: 'manager', text: 'manager' })));
      body = (f) => ({ to: field(f, 'to') });
    } else if (a.action === 'change-terms') {
      fields.push(h('label', { for: uid + '-wage', text: 'Hourly wage (cents)' }),
        h('input', { id: uid + '-wage', name: 'hourly_wage_cents', type: 'number', min: 1, required: true, size: 6, value: o.employment.hourly_wage_cents }));
      body = (f) => ({ hourly_wage_cents: Number(field(f, 'hourly_wage_cents')) });
    } else if (a.action === 'payroll/fail') {
      fields.push(h('label', { for: uid + '-code', text: 'Error code (optional)' }), h('input', { id: uid + '-code', name: 'error_code', size: 14, autocomplete: 'off' }));
      body = (f): FormBody => {
        const code = field(f, 'error_code');
        return code ? { error_code: code } : {};
      };
    }
    return h('form', {
      class: 'action',
      onsubmit: (e) => {
        e.preventDefault();
        if (!(e.target instanceof HTMLFormElement)) return;
        void act<ActionAnswer>('POST', base() + a.path.replace(/^\/_emulator/, ''), body(e.target), (r) => {
          return a.action + ': ' + r.onboarding.id + ' is now ' + r.onboarding.status + '.';
        });
      },
    }, fields, h('button', { type: 'submit', title: a.summary, text: a.action }));
  }

  function drawOnboarding(d: OnboardingDetail | null): Node {
    if (!d) return empty(state.onboarding ? 'No onboarding ' + state.onboarding + ' in this workspace.' : 'Choose an onboarding in the list to see its timeline and actions.');
    const o = d.onboarding;
    return h('div', null,
      h('h3', { id: 'onboarding-heading', tabindex: '-1' }, idText(o.id), ' · ' + o.employee.first_name + ' ' + o.employee.last_name),
      h('dl', { class: 'facts' },
        h('dt', { text: 'Status' }), h('dd', null, badge(o.status)),
        h('dt', { text: 'Waiting on' }), h('dd', { text: list(o.waiting_on) }),
        h('dt', { text: 'data_version' }), h('dd', { text: o.data_version }),
        h('dt', { text: 'Reference' }), h('dd', { text: o.reference === null ? '—' : o.reference }),
        h('dt', { text: 'Organization' }), h('dd', null, idText(d.organization_id), d.partner_id ? [' (via ', idText(d.partner_id), ')'] : null),
        h('dt', { text: 'Environment' }), h('dd', { text: d.environment + ' · ' + o.source }),
        h('dt', { text: 'Hosted link' }), h('dd', { text: o.hosted_link ? o.hosted_link.status + ', expires ' + time(o.hosted_link.expires_at) : '—' })),
      h('h4', { text: 'Allowed actions' }),
      d.allowed_actions.length
        ? h('div', { class: 'actions' }, d.allowed_actions.map((a) => actionForm(d, a)))
        : empty('None: the onboarding is ' + o.status + '.'),
      h('h4', { text: 'Timeline' }),
      h('ol', { class: 'timeline' }, d.timeline.map((t) => {
        return h('li', null,
          h('span', { class: 'when', text: time(t.at) }), ' ',
          h('strong', { text: t.trigger || 'event' }), ' ',
          h('span', { text: (t.from || 'new') + ' → ' + t.to }),
          t.data_version !== null ? h('span', { class: 'muted', text: ' · v' + t.data_version }) : null,
          t.detail ? h('span', { class: 'muted', text: ' · ' + t.detail }) : null,
          t.events.length ? h('ul', { class: 'events' }, t.events.map((e) => h('li', null, h('code', { text: e.type }), ' ', idText(e.id, 'muted')))) : null);
      })),
      h('h4', { text: 'Approvals' }),
      d.approvals.length
        ? table(['Role', 'User', 'Version', 'Valid', 'At'], d.approvals.map((a) => {
            return h('tr', null, h('td', { class: 'n', text: a.role }), h('td', { text: a.user_name || a.user_id }), h('td', { class: 'n', text: a.data_version }), h('td', { text: a.valid ? 'yes' : 'no (lapsed)' }), h('td', { class: 'when', text: time(a.at) }));
          }), 'Approvals')
        : empty('Required: ' + list(o.approvals.required) + '; none given yet.'));
  }

  /** Polls, then puts the focus back on the panel's page button `focus` (or another enabled one, when that one is gone). */
  function pollAndFocusPager(panel: string, focus: string): void {
    void poll().then(() => {
      const b = document.querySelector<HTMLButtonElement>('#' + panel + '-content button[data-page="' + focus + '"]:not([disabled])') ??
        document.querySelector<HTMLButtonElement>('#' + panel + '-content button[data-page]:not([disabled])');
      if (b) b.focus();
    });
  }

  // "Older" and "Newer" hold the page by the event at its edge; "Latest" goes back to following new events.
  function showEvents(page: PageState['events'], focus: string): void {
    state.events = page;
    pollAndFocusPager('events', focus);
  }
  function eventsNav(e: EventPage): Node {
    const first = e.data[0];
    const last = e.data[e.data.length - 1];
    const hasOlder = e.newer + e.data.length < e.total;
    const range = e.data.length ? (e.newer + 1) + '–' + (e.newer + e.data.length) + ' of ' + e.total : '0 of ' + e.total;
    return h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages of events' },
      h('button', {
        type: 'button', 'data-page': 'newer', text: 'Newer', disabled: e.newer === 0 || !first,
        // Within a page of the top, the newer page is the latest, which follows new events again.
        onclick: () => { if (first) showEvents(e.newer <= EVENT_PAGE ? null : { ending_before: first.id }, 'newer'); },
      }),
      h('button', {
        type: 'button', 'data-page': 'older', text: 'Older', disabled: !hasOlder || !last,
        onclick: () => { if (last) showEvents({ starting_after: last.id }, 'older'); },
      }),
      h('span', { id: 'events-range', class: 'muted', text: 'Events ' + range }),
      e.newer > 0 ? h('button', { type: 'button', class: 'link', 'data-page': 'latest', text: 'Latest (live)', onclick: () => { showEvents(null, 'older'); } }) : null);
  }

  function drawEvents(e: EventPage): Node {
    if (!e.total) return empty('No events yet.');
    return h('div', null, eventsNav(e), table(['Time', 'Type', 'Onboarding', 'Version', 'Env', 'Deliveries'], e.data.map((ev) => {
      return h('tr', { 'data-event': ev.id },
        h('td', { class: 'when', text: time(ev.created_at) }),
        h('td', { class: 'words' }, dotted(ev.type)),
        h('td', null, h('button', { type: 'button', class: 'link id', onclick: () => { select(ev.data.onboarding_id); }, 'aria-label': 'Show onboarding ' + ev.data.onboarding_id, text: ev.data.onboarding_id })),
        h('td', { class: 'n', text: ev.data.data_version === null ? '—' : ev.data.data_version }),
        h('td', { class: 'n', text: ev.environment }),
        h('td', { class: 'n', text: ev.deliveries }));
    }), 'Events'));
  }

  /** A delivery fault in words: what it did to this delivery. */
  function injectedNote(i: InjectedInfo): string {
    if (i.kind === 'duplicate') return i.duplicate_of ? 'a copy of ' + i.duplicate_of : 'sent again as ' + i.duplicate_id;
    if (i.kind === 'reorder') return 'held' + (i.released_by ? ' until ' + i.released_by + ' was tried' : ' for the next message');
    if (i.kind === 'delay') return 'sent ' + (i.delay_ms ?? 0) / 1000 + ' s late';
    return i.kind.replace(/_/g, ' ');
  }

  function attempts(d: DeliveryInfo): Node {
    if (!d.attempt_log.length) return empty('No attempt yet; next at ' + time(d.next_attempt_at) + '.');
    return h('ol', { class: 'attempts' }, d.attempt_log.map((a) => {
      return h('li', null,
        h('span', { class: 'when', text: time(a.at) }), ' ',
        h('strong', { text: a.status_code === null ? 'no answer' : 'HTTP ' + a.status_code }),
        a.error ? h('span', { text: ' · ' + a.error }) : null,
        a.manual ? h('span', { class: 'muted', text: ' · manual retry' }) : null,
        a.injected ? [' ', badge('injected', 'injected: ' + a.injected.kind.replace(/_/g, ' ') +
          (a.injected.received_status_code != null ? ' (the receiver answered HTTP ' + a.injected.received_status_code + ')' : ''))] : null,
        h('span', { class: 'muted', text: ' · next: ' + (a.next_attempt_at ? time(a.next_attempt_at) : 'none') }),
        // With tracing on: the trace to look up in a tracing UI (the event's, which the receiver's span joins).
        a.trace_id ? h('span', { class: 'muted trace' }, ' · trace ', h('code', { text: a.trace_id })) : null);
    }));
  }

  // "Show all" fetches every delivery of the address page by page; "Show the latest" goes back.
  function toggleAll(hook: WebhookInfo, all: boolean): void {
    if (all) state.allDeliveries[hook.id] = true;
    else delete state.allDeliveries[hook.id];
    void poll().then(() => {
      const b = document.querySelector<HTMLElement>('button[data-toggle-hook="' + CSS.escape(hook.id) + '"]');
      if (b) b.focus();
    });
  }
  function deliveriesToggle(hook: WebhookInfo): Node | null {
    const all = !!hook.all;
    if (!all && hook.deliveries_total <= hook.deliveries.length) return null;
    return h('p', null, h('button', {
      type: 'button', 'data-toggle-hook': hook.id, 'aria-expanded': all ? 'true' : 'false', 'aria-controls': 'deliveries-' + hook.id,
      text: all ? 'Show the latest ' + LATEST_DELIVERIES : 'Show all ' + hook.deliveries_total + ' deliveries',
      'aria-label': (all ? 'Show the latest ' + LATEST_DELIVERIES : 'Show all ' + hook.deliveries_total) + ' deliveries to ' + hook.url,
      onclick: () => { toggleAll(hook, !all); },
    }));
  }

  function drawWebhooks(w: ListOf<WebhookInfo>): Node {
    if (!w.data.length) return empty('No webhook addresses. Register one with POST /v1/webhooks.');
    return h('div', null, w.data.map((hook) => {
      return h('article', { class: 'hook' },
        h('h3', null, h('code', { text: hook.url })),
        h('p', { class: 'muted' }, badge(hook.status), ' ', idText(hook.id), ' · ', idText(hook.organization_id), ' · ' + hook.environment + ' · events ' + list(hook.events) +
          ' · dead in a row ' + hook.dead_in_a_row + ' · ' + hook.deliveries_total + ' deliveries' +
          (hook.all ? ', all below' : hook.deliveries_total > hook.deliveries.length ? ', the latest ' + hook.deliveries.length + ' below' : '')),
        deliveriesToggle(hook),
        h('div', { id: 'deliveries-' + hook.id }, hook.deliveries.length
          ? table(['Event', 'Status', 'Attempts', 'Next attempt', ''], hook.deliveries.map((d) => {
              return [
                h('tr', { 'data-delivery': d.id },
                  h('td', null, h('div', { class: 'words' }, dotted(d.event_type)), h('div', { class: 'muted' }, idText(d.id))),
                  h('td', null, badge(d.status), d.injected ? [' ', badge('injected', 'injected: ' + injectedNote(d.injected))] : null),
                  h('td', { class: 'attempt-count n', text: d.attempts }),
                  h('td', { class: 'when', text: time(d.next_attempt_at) }),
                  h('td', { class: 'n' }, h('button', {
                    type: 'button', 'aria-label': 'Retry delivery ' + d.id, text: 'Retry',
                    disabled: d.status === 'in_progress' || hook.status === 'disabled',
                    onclick: () => {
                      void act<RetryAnswer>('POST', base() + '/deliveries/' + encodeURIComponent(d.id) + '/retry', {}, (r) => {
                        return 'Retried ' + r.id + ': ' + (r.last_status_code === null ? 'no answer' : 'HTTP ' + r.last_status_code) + ', now ' + r.status + '.';
                      });
                    },
                  }))),
                h('tr', { class: 'sub' }, h('td', { colspan: 5 }, attempts(d))),
              ];
            }), 'Deliveries to ' + hook.url)
          : empty('No deliveries yet.')));
    }));
  }

  function drawOutbox(o: ListOf<MailInfo>): Node {
    if (!o.data.length) return empty('No mails yet.');
    return table(['Sent', 'To', 'Kind', 'Code', 'Link'], o.data.slice().reverse().slice(0, 50).map((m) => {
      const link = m.link;
      const safe = typeof link === 'string' && /^https?:\/\//.test(link);
      return h('tr', null,
        h('td', { class: 'when', text: time(m.sent_at) }),
        h('td', null, h('div', { text: m.to }), h('div', { class: 'muted', text: m.subject })),
        h('td', { class: 'n', text: m.kind }),
        h('td', { class: 'n' }, m.code ? h('code', { text: m.code }) : '—'),
        h('td', null, safe ? h('a', { href: link, rel: 'noreferrer', target: '_blank', text: link.replace(/^https?:\/\/[^/]+/, '') }) : (link || '—')));
    }), 'Outbox');
  }

  function drawScenario(s: ScenarioInfo): Node {
    if (!s.loaded) return empty('No scenario loaded. Onboardings of the magic e-mail addresses still play by themselves (' + s.magic_addresses.length + ' addresses).');
    return h('div', null,
      h('dl', { class: 'facts' },
        h('dt', { text: 'Name' }), h('dd', { text: s.name || '(unnamed)' }),
        h('dt', { text: 'Source' }), h('dd', { text: s.source }),
        h('dt', { text: 'Loaded' }), h('dd', { text: time(s.loaded_at) }),
        h('dt', { text: 'Rules' }), h('dd', { text: s.document && s.document.rules ? s.document.rules.length : 0 })),
      s.planned.length
        ? table(['Onboarding', 'Next step', 'Due'], s.planned.map((p) => {
            return h('tr', null, h('td', { text: p.onboarding_id }), h('td', { text: p.step }), h('td', { class: 'when', text: time(p.due_at) }));
          }), 'Planned steps')
        : empty('Nothing planned.'));
  }

  // "Older" adds the last shown request as a cursor, "Newer" drops one, "Latest" drops them all.
  function showRequests(cursors: string[], focus: string): void {
    state.requests.cursors = cursors;
    pollAndFocusPager('requests', focus);
  }
  function requestsNav(p: RecordedRequestPage, filtered: boolean): Node {
    const cursors = state.requests.cursors;
    const last = p.data[p.data.length - 1];
    return h('div', { class: 'pager', role: 'group', 'aria-label': 'Pages of requests' },
      h('button', { type: 'button', 'data-page': 'newer', text: 'Newer', disabled: !cursors.length, onclick: () => { showRequests(cursors.slice(0, -1), 'newer'); } }),
      h('button', {
        type: 'button', 'data-page': 'older', text: 'Older', disabled: !p.has_more || !last,
        onclick: () => { if (last) showRequests(cursors.concat(last.id), 'older'); },
      }),
      h('span', { id: 'requests-range', class: 'muted', text: 'Page ' + (cursors.length + 1) + ' · ' + p.data.length + ' shown of ' + p.total + (filtered ? ' matching' : '') +
        (p.dropped ? ' · ' + p.dropped + ' older dropped' : '') }),
      cursors.length ? h('button', { type: 'button', class: 'link', 'data-page': 'latest', text: 'Latest (live)', onclick: () => { showRequests([], 'older'); } }) : null);
  }

  // The details button opens the entry's query, headers and body below its row.
  function toggleRequest(id: string): void {
    if (state.requests.open[id]) delete state.requests.open[id];
    else state.requests.open[id] = true;
    void poll().then(() => {
      const b = document.querySelector<HTMLElement>('button[data-request="' + CSS.escape(id) + '"]');
      if (b) b.focus();
    });
  }
  function requestDetails(r: RecordedRequest): Node {
    return h('dl', { class: 'facts' },
      h('dt', { text: 'Id' }), h('dd', null, h('code', { class: 'id', text: r.id })),
      h('dt', { text: 'Key' }), h('dd', null, h('code', { text: r.key })),
      h('dt', { text: 'Query' }), h('dd', null, json(r.query)),
      h('dt', { text: 'Headers' }), h('dd', null, json(r.headers)),
      h('dt', { text: 'Body' }), h('dd', null, json(r.body)),
      r.trace_id ? [h('dt', { text: 'Trace' }), h('dd', { class: 'trace' }, h('code', { text: r.trace_id }))] : null,
      r.answered ? null : [h('dt', { text: 'Answer' }), h('dd', { text: 'Not answered: an injected fault dropped it; ' + r.status + ' is what it would have been.' })]);
  }
  /** An onboarding id links to the onboarding view when the workspace has it (all are linked when the list read is not complete). */
  function onboardingLinks(ids: string[], known: (id: string) => boolean): Child {
    if (!ids.length) return '—';
    return ids.map((id, i) => [i ? ', ' : null, known(id)
      ? h('button', { type: 'button', class: 'link id', onclick: () => { select(id); }, 'aria-label': 'Show onboarding ' + id, text: id })
      : h('code', { class: 'id', text: id })]);
  }

  function drawRequests(read: RequestRead, known: (id: string) => boolean): Node {
    if ('refused' in read) return h('p', { class: 'message error', role: 'status', text: 'The filters were refused: ' + read.refused });
    const p = read.page;
    if (!p.total) return empty(read.filtered ? 'No recorded request matches these filters.' : 'No requests yet: the requests your integration sends to /v1 appear here, newest first.');
    const open = state.requests.open;
    return h('div', null, requestsNav(p, read.filtered), table(['Time', 'Method', 'Path', 'Status', 'Idempotency key', 'Onboarding', 'Duration', ''], p.data.map((r) => {
      const shown = !!open[r.id];
      return [
        h('tr', { 'data-request': r.id },
          h('td', { class: 'when', text: time(r.at) }),
          h('td', { class: 'n', text: r.method }),
          h('td', null, h('code', { text: r.path })),
          h('td', { class: 'status' },
            h('strong', { text: r.status }), r.error_code ? [' ', h('code', { text: r.error_code })] : null,
            r.replayed ? [' ', badge('replayed')] : null,
            r.answered ? null : [' ', badge('not_answered', 'not answered')]),
          h('td', null, r.headers.idempotency_key === null ? '—' : h('code', { text: r.headers.idempotency_key })),
          h('td', null, onboardingLinks(r.onboarding_ids, known)),
          h('td', { class: 'n', text: r.duration_ms === null ? '—' : r.duration_ms + ' ms' }),
          h('td', { class: 'n' }, h('button', {
            type: 'button', class: 'link', 'data-request': r.id, 'aria-expanded': shown ? 'true' : 'false', 'aria-controls': 'request-' + r.id,
            'aria-label': (shown ? 'Hide' : 'Show') + ' the query, headers and body of ' + r.method + ' ' + r.path + ' (' + r.id + ')',
            text: shown ? 'Hide' : 'Details', onclick: () => { toggleRequest(r.id); },
          }))),
        shown ? h('tr', { class: 'sub', id: 'request-' + r.id }, h('td', { colspan: 8 }, requestDetails(r))) : null,
      ];
    }), 'Requests'));
  }

  // Every delivery of one address, following next_cursor; null once the address is gone. A
  // cursor purged between two pages (the clock moved meanwhile) starts the walk over, once.
  function allDeliveries(b: string, id: string, after?: string | null, acc?: DeliveryInfo[], retried?: boolean): Promise<DeliveryInfo[] | null> {
    const path = b + '/webhooks/' + encodeURIComponent(id) + '/deliveries?limit=' + DELIVERY_PAGE + (after ? '&starting_after=' + encodeURIComponent(after) : '');
    return api<DeliveryPage>('GET', path).then((page) => {
      const sofar = (acc || []).concat(page.data);
      return page.has_more ? allDeliveries(b, id, page.next_cursor, sofar, retried) : sofar;
    }, (e: unknown) => {
      if (isApiError(e) && e.status === 404) return null;
      if (isApiError(e) && e.code === 'cursor_invalid' && !retried) return allDeliveries(b, id, null, [], true);
      throw e;
    });
  }
  function withAllDeliveries(w: ListOf<WebhookInfo>, all: Record<string, DeliveryInfo[]>): ListOf<WebhookInfo> {
    w.data.forEach((hook) => {
      const every = all[hook.id];
      if (every) { hook.deliveries = every; hook.all = true; }
    });
    return w;
  }

  // The page of events asked for; one whose edge event is gone (purged as the clock moved) gives way to the latest.
  function eventPage(b: string): Promise<EventPage> {
    const page = state.events;
    const cursor = page === null ? '' : 'starting_after' in page ? '&starting_after=' + encodeURIComponent(page.starting_after) : '&ending_before=' + encodeURIComponent(page.ending_before);
    return api<EventPage>('GET', b + '/events?limit=' + EVENT_PAGE + cursor).catch((e: unknown) => {
      if (page === null || !isApiError(e) || e.code !== 'cursor_invalid') throw e;
      if (state.events === page) state.events = null;
      return api<EventPage>('GET', b + '/events?limit=' + EVENT_PAGE);
    });
  }

  // The page of requests asked for, by the panel's filters; a cursor gone from the journal (dropped
  // or cleared) gives way to the latest, and refused filters are shown in the panel.
  function requestPage(b: string): Promise<RequestRead> {
    const asked = state.requests;
    const q = new URLSearchParams(asked.filter);
    const filtered = q.toString() !== '';
    q.set('limit', String(REQUEST_PAGE));
    const read = (cursor: string | undefined): Promise<RequestRead> => {
      if (cursor) q.set('starting_after', cursor);
      else q.delete('starting_after');
      return api<RecordedRequestPage>('GET', b + '/requests?' + q.toString()).then((page) => ({ page: page, filtered: filtered }));
    };
    return read(asked.cursors[asked.cursors.length - 1]).catch((e: unknown) => {
      if (!isApiError(e)) throw e;
      if (e.code === 'cursor_invalid' && asked.cursors.length) {
        if (state.requests === asked) asked.cursors = [];
        return read(undefined);
      }
      if (e.status === 422) return { refused: message(e) };
      throw e;
    });
  }

  // ----- Polling: every read at once; one poll at a time.
  function poll(): Promise<void> {
    // One poll at a time; a call meanwhile (after an action) runs once the current one ends.
    if (state.busy) return state.current.then(() => (state.busy ? state.current : poll()));
    state.busy = true;
    const b = base();
    const detail = state.onboarding
      ? api<OnboardingDetail>('GET', b + '/onboardings/' + encodeURIComponent(state.onboarding)).catch((e: unknown) => { if (isApiError(e) && e.status === 404) return null; throw e; })
      : Promise.resolve(null);
    const workspaces = api<ListOf<WorkspaceInfo>>('GET', '/_emulator/workspaces');
    const clock = api<ClockInfo>('GET', b + '/clock');
    const onboardings = api<OnboardingList>('GET', b + '/onboardings?limit=200');
    const events = eventPage(b);
    const webhooks = api<ListOf<WebhookInfo>>('GET', b + '/webhooks?deliveries=' + LATEST_DELIVERIES);
    const outbox = api<ListOf<MailInfo>>('GET', b + '/outbox');
    const scenario = api<ScenarioInfo>('GET', b + '/scenario');
    const requests = requestPage(b);
    const expanded = Object.keys(state.allDeliveries);
    const expandedDeliveries = Promise.all(expanded.map((id) => allDeliveries(b, id))).then((lists) => {
      const all: Record<string, DeliveryInfo[]> = {};
      expanded.forEach((id, i) => { const l = lists[i]; if (l) all[id] = l; });
      return all;
    });
    state.current = Promise.all([workspaces, clock, onboardings, detail, events, webhooks, outbox, scenario, expandedDeliveries, requests]).then((r) => {
      drawWorkspaces(r[0]);
      fill('clock', r[1], drawClock);
      fill('onboardings', { o: r[2], selected: state.onboarding }, (x) => drawOnboardings(x.o));
      fill('onboarding', { d: r[3], selected: state.onboarding }, (x) => drawOnboarding(x.d));
      fill('events', r[4], drawEvents);
      fill('webhooks', withAllDeliveries(r[5], r[8]), drawWebhooks);
      fill('outbox', r[6], drawOutbox);
      fill('scenario', r[7], drawScenario);
      // The onboarding ids of this workspace, to link from the requests; all of them when the list read is not complete.
      const ids = r[2].total > r[2].data.length ? null : r[2].data.map((o) => o.id);
      fill('requests', { r: r[9], open: state.requests.open, ids: ids }, (x) => drawRequests(x.r, (id) => x.ids === null || x.ids.indexOf(id) >= 0));
      // The viewer's own time on purpose: it shows the page is still polling, which a frozen
      // emulated clock could not; the emulated time is on the page from the clock read.
      $('status', HTMLSpanElement).textContent = 'Updated ' + new Date().toLocaleTimeString();
      document.body.setAttribute('data-polls', String(Number(document.body.getAttribute('data-polls') || 0) + 1));
    }, (err: unknown) => {
      $('status', HTMLSpanElement).textContent = 'Cannot read the emulator: ' + message(err);
    }).then(() => { state.busy = false; });
    return state.current;
  }

  function advance(by: string | number | null): void {
    void act<AdvanceAnswer>('POST', base() + '/clock/advance', { by: by }, (r) => {
      return 'Clock at ' + time(r.now) + '; ' + r.fired.length + ' timer' + (r.fired.length === 1 ? '' : 's') + ' fired.';
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    document.querySelectorAll('[data-advance]').forEach((button) => {
      button.addEventListener('click', () => {
        const by = button.getAttribute('data-advance');
        advance(by === '0' ? 0 : by);
      });
    });
    $('advance-form', HTMLFormElement).addEventListener('submit', (e) => {
      e.preventDefault();
      const value = $('advance-by', HTMLInputElement).value.trim();
      advance(/^\d+$/.test(value) ? Number(value) : value);
    });
    const workspace = $('workspace', HTMLSelectElement);
    workspace.addEventListener('change', () => {
      state.workspace = workspace.value;
      state.onboarding = null;
      state.allDeliveries = {};
      state.events = null;
      state.requests = { filter: state.requests.filter, cursors: [], open: {} };
      state.shown = {};
      remember();
      void poll();
    });
    // The requests' filters: the status field takes a status code (422) or an error code (not_found).
    const filters = $('requests-filter', HTMLFormElement);
    const applyFilters = (filter: Record<string, string>) => {
      state.requests = { filter: filter, cursors: [], open: {} };
      void poll();
    };
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      const filter: Record<string, string> = {};
      const method = field(filters, 'method');
      const status = field(filters, 'status').trim();
      const onboarding = field(filters, 'onboarding_id').trim();
      if (method) filter.method = method;
      if (status) filter[/^\d+$/.test(status) ? 'status' : 'error_code'] = status;
      if (onboarding) filter.onboarding_id = onboarding;
      applyFilters(filter);
    });
    filters.addEventListener('reset', () => { applyFilters({}); });
    const live = $('live', HTMLInputElement);
    live.addEventListener('change', () => { state.live = live.checked; if (state.live) void poll(); });
    // Runs in the viewer's browser, not in the emulator: polling is paced by real time whatever
    // the workspace clock does, and reads nothing but the control API.
    setInterval(() => { if (state.live && !document.hidden) void poll(); }, POLL_MS);
    document.addEventListener('visibilitychange', () => { if (!document.hidden && state.live) void poll(); });
    void poll();
  });
})();
