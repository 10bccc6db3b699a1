/*
 * The API explorer's script, run in the viewer's browser: Swagger UI over /openapi.json, with
 * the default workspace's keys. It loads the document and the keys through the emulator's own
 * API, starts Swagger UI on the document and authorizes its "Try it out" with the Acme owner's
 * key, so one click on Execute sends a request. The keys are listed as DOM text, each with a
 * button that authorizes with it instead.
 *
 * A classic script like the inspector's; everything of its own lives inside the function below,
 * so the two share no names. Swagger UI's bundle, loaded before it, defines SwaggerUIBundle.
 */

/** The part of Swagger UI's API this script calls. */
declare const SwaggerUIBundle: (config: {
  spec: object;
  dom_id: string;
  deepLinking: boolean;
  tryItOutEnabled: boolean;
  displayRequestDuration: boolean;
  filter: boolean;
  validatorUrl: null;
  onComplete: () => void;
}) => { preauthorizeApiKey(scheme: string, key: string): void };

(function () {
  /** The key "Try it out" starts with: the happy path of the README. */
  const PREFERRED = 'hrs_test_acme_owner';

  /** The fields of the OpenAPI document this script reads or sets. */
  interface Spec {
    servers?: { url: string; description?: string }[];
    components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> };
  }
  interface KeyInfo { key: string; name?: string | null; organization_id?: string | null; environment?: string | null }

  const state: { ui: ReturnType<typeof SwaggerUIBundle> | null; scheme: string | null; key: string | null } = { ui: null, scheme: null, key: null };

  function byId(id: string): HTMLElement {
    const el = document.getElementById(id);
    if (!el) throw new Error(`the page has no #${id}`);
    return el;
  }

  type Attrs = Record<string, string | ((event: Event) => void)>;
  // Every value becomes a text node or a plain attribute, never markup.
  function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'text') el.textContent = v;
      else el.setAttribute(k, v);
    }
    for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    return el;
  }

  async function getJson<T>(path: string): Promise<T> {
    const res = await fetch(path, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`${path} answered HTTP ${res.status}`);
    // The emulator's own answer, in the shape its document gives it.
    return (await res.json()) as T;
  }

  // The bearer scheme by what it is, not by its name, so a renamed scheme still gets the key.
  function bearerScheme(spec: Spec): string | null {
    const schemes = spec.components?.securitySchemes ?? {};
    return Object.keys(schemes).find((name) => schemes[name]?.type === 'http' && /^bearer$/i.test(schemes[name]?.scheme ?? '')) ?? null;
  }

  // The document may name another address than the one this page came from (the usual port,
  // say); the policy lets "Try it out" reach this origin only, so it is offered first.
  function withThisServer(spec: Spec): Spec {
    const here = location.origin;
    const servers = Array.isArray(spec.servers) ? spec.servers : [];
    const named = servers.some((s) => s.url === here || s.url === `${here}/` || s.url === '/');
    if (!named) spec.servers = [{ url: here, description: 'This emulator' }, ...servers];
    return spec;
  }

  function use(key: string): void {
    state.key = key;
    if (state.ui && state.scheme) state.ui.preauthorizeApiKey(state.scheme, key);
    byId('key-current').textContent = key;
    for (const b of document.querySelectorAll('#key-list button[data-key]')) {
      b.setAttribute('aria-pressed', b.getAttribute('data-key') === key ? 'true' : 'false');
    }
  }

  function drawKeys(keys: KeyInfo[]): void {
    const list = byId('key-list');
    list.replaceChildren(
      ...keys.map((k) => {
        const who = [k.name, k.organization_id, k.environment].filter(Boolean).join(' · ');
        return h('li', null,
          h('button', { type: 'button', 'data-key': k.key, 'aria-pressed': 'false', 'aria-label': `Use ${k.key}`, text: 'Use', onclick: () => use(k.key) }),
          ' ', h('code', { text: k.key }), ' ', h('span', { class: 'muted', text: who }));
      }),
    );
    list.setAttribute('aria-busy', 'false');
  }

  function failed(err: unknown): void {
    byId('explorer-status').textContent = `The explorer could not start: ${err instanceof Error ? err.message : String(err)}`;
  }

  Promise.all([getJson<Spec>('/openapi.json'), getJson<{ data?: KeyInfo[] }>('/_emulator/keys')])
    .then(([doc, answer]) => {
      const spec = withThisServer(doc);
      const keys = answer.data ?? [];
      state.scheme = bearerScheme(spec);
      drawKeys(keys);
      const first = keys.find((k) => k.key === PREFERRED) ?? keys.find((k) => /^hrs_test_/.test(k.key)) ?? keys[0];
      state.ui = SwaggerUIBundle({
        spec,
        dom_id: '#swagger-ui',
        deepLinking: true,
        // "Execute" at once: the key is already in place.
        tryItOutEnabled: true,
        displayRequestDuration: true,
        filter: true,
        // No badge asking an online validator about the document: the page stays on this origin.
        validatorUrl: null,
        onComplete: () => {
          // A key chosen while the document was still loading wins over the default.
          const key = state.key ?? first?.key;
          if (key) use(key);
          document.body.setAttribute('data-explorer', 'ready');
        },
      });
    })
    .catch(failed);
})();
