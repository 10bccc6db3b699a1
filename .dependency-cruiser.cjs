// The layering of src/, checked by `npm run lint:deps` on every CI run.
// Type-only imports count like any other: a layer that names another layer's types
// depends on it just the same.
// The folders of src/ from the bottom up (docs/architecture.md, Layers): each may import the
// folders named in `may` (its own included) and no other folder of src/. One rule per folder,
// named for what it may not see.
const LAYERS = [
  {
    name: 'core-knows-no-outer-layer', folder: 'core', may: ['core'],
    why: 'core is the kernel every layer builds on; if it imported anything above it, the layers would form a knot and core could not be reasoned about (or tested) on its own.',
  },
  {
    name: 'operations-know-only-core', folder: 'operations', may: ['core', 'operations'],
    why: 'The row kernel (the reply types, the one pipeline with its input checks, the control row type, its runner and the client builder) is what every kind of row and every transport shares; it names no resource, no control action and no transport.',
  },
  {
    name: 'delivery-is-mechanics-only', folder: 'delivery', may: ['core', 'delivery'],
    why: 'src/delivery sends, signs, vets and relays HTTP messages; it knows no record of the store, so the webhooks resource can use it without the two depending on each other.',
  },
  {
    name: 'delivery-faults-know-only-core', folder: 'delivery-faults', may: ['core', 'delivery-faults'],
    why: 'The list of delivery faults and its schema are data the webhooks resource plays out; they name no record, so resources may import them one way.',
  },
  {
    name: 'resources-know-no-drivers', folder: 'resources', may: ['core', 'operations', 'delivery', 'delivery-faults', 'resources'],
    why: 'Resources hold the business rules; the receiver check, scenarios, fixtures, persistence, the composition root and the adapters drive them from outside. A resource reaching back up makes its rules depend on who happens to call, so they ask the workspace (hooks) instead.',
  },
  {
    name: 'receiver-check-stands-alone', folder: 'receiver-check', may: ['core', 'operations', 'delivery', 'resources', 'receiver-check'],
    why: 'The receiver check runs from the CLI with no emulator at all: it uses delivery and the event names, nothing that needs a workspace driven from above.',
  },
  {
    name: 'parity-kit-stands-alone', folder: 'parity', may: ['core', 'resources', 'parity'],
    why: 'The parity kit talks to a target over HTTP, the real service as readily as the emulator: it reads the event names and the error vocabulary, and is handed the OpenAPI document it checks against, so it never needs an emulator of its own.',
  },
  {
    name: 'scenarios-know-no-adapters', folder: 'scenarios', may: ['core', 'operations', 'delivery', 'delivery-faults', 'resources', 'scenarios'],
    why: 'Scenarios play and judge the life cycle through the resources; persistence, the composition root and the adapters call scenarios, never the other way round.',
  },
  {
    name: 'fixtures-know-resources-only', folder: 'fixtures', may: ['core', 'operations', 'resources', 'fixtures'],
    why: 'The fixtures document fills a store through the resources; it is read by the composition root.',
  },
  {
    name: 'tracing-adapter-knows-only-the-port', folder: 'tracing', may: ['core', 'tracing'],
    why: 'The OpenTelemetry adapter fills in the tracing port of src/core; the entry points load it. Nothing of the domain needs it.',
  },
  {
    name: 'persistence-below-the-composition-root', folder: 'persistence', may: ['core', 'operations', 'delivery', 'delivery-faults', 'resources', 'scenarios', 'persistence'],
    why: 'Snapshots and the state file work over the table of parts the composition root hands them (and an interface of what they ask of the emulator), so emulator.ts can use them without the two importing each other.',
  },
  {
    name: 'client-knows-the-rows-only', folder: 'client', may: ['core', 'operations', 'control', 'delivery', 'client'],
    why: 'The HTTP client and the webhook relay run beside a partner\'s test (the CLI, the Node API, the Testcontainers module): they send the control rows over HTTP and know no emulator, no Express.',
  },
];

const LAYER_RULES = LAYERS.map(({ name, folder, may, why }) => ({
  name,
  comment: why,
  severity: 'error',
  from: { path: `^src/${folder}/` },
  to: { path: '^src/', pathNot: `^src/(${may.join('|')})/` },
}));

// Above the layers: what the composition root and the adapters may not import.
const ENTRY_POINTS = '^src/(in-process|index|testcontainers)\\.ts$';
const ADAPTERS = [
  {
    name: 'composition-root-has-no-adapter', from: '^src/(emulator|workspace-parts|timer-handlers)\\.ts$',
    to: `^src/(control|pages|http|cli|client)/|${ENTRY_POINTS}|^src/config\\.ts$`,
    why: 'The composition root wires the domain; the control API, pages, HTTP and the entry points sit on it.',
  },
  {
    name: 'control-is-transport-free', from: '^src/control/', to: `^src/(pages|http|cli|client)/|${ENTRY_POINTS}`,
    why: 'The control API is written once with no transport in it; HTTP and the in-process helpers call it.',
  },
  {
    name: 'control-asks-the-emulator-through-its-host', from: '^src/control/', to: '^src/(emulator|timer-handlers)\\.ts$',
    why: 'The control API reaches the emulator through ControlHost (src/control/control.host.ts), the members it uses, as persistence does through StateFileHost: the composition root can change behind it, and what control depends on is listed in one place. Of the root it may read only the table of parts, for the snapshot document it serves.',
  },
  {
    name: 'pages-know-the-domain-only', from: '^src/pages/', to: `^src/(control|http|cli|client|persistence)/|${ENTRY_POINTS}`,
    why: 'Pages are rows of views and forms over the resources; Express and the control API stay out of them.',
  },
  {
    name: 'mcp-is-below-http', from: '^src/mcp/', to: `^src/(pages|http|cli)/|${ENTRY_POINTS}`,
    why: 'The MCP tools are the control rows offered to an agent; the HTTP adapter and the CLI serve them over their transports.',
  },
  {
    name: 'playwright-kit-drives-pages-from-outside', from: '^src/playwright/',
    to: `^src/(pages|http|cli|mcp|persistence|scenarios|fixtures|parity|tracing)/|^src/(emulator|workspace-parts|timer-handlers|config)\\.ts$|${ENTRY_POINTS}`,
    toNot: '^src/pages/test-ids\\.ts$',
    why: "The Playwright helpers run in a partner's test process beside a browser, like the HTTP client: they click the pages by the selector contract (src/pages/test-ids.ts, the one page module they read) and send control rows over HTTP, never reaching into an emulator.",
  },
  {
    name: 'http-is-not-an-entry-point', from: '^src/http/', to: `^src/(cli|client)/|${ENTRY_POINTS}`,
    why: 'The Express adapter serves the emulator; the CLI and the package entries start it.',
  },
];

const ADAPTER_RULES = ADAPTERS.map(({ name, from, to, toNot, why }) => ({
  name, comment: why, severity: 'error', from: { path: from }, to: { path: to, ...(toNot ? { pathNot: toNot } : {}) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'express-only-in-http',
      comment:
        'Express stays in src/http, so handlers and services return values and one place ' +
        'writes responses; the rest can run (and be tested) without a web framework.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/http/' },
      to: { path: '(^|/)node_modules/(@types/)?express/' },
    },
    {
      name: 'opentelemetry-only-in-the-adapter',
      comment:
        'The OpenTelemetry packages are optional peer dependencies, loaded only when tracing is on: ' +
        'only the adapter (src/tracing/adapter.ts, which load.ts imports with import()) may import them, ' +
        'so a start without tracing, or without the packages, never needs them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/tracing/adapter\\.ts$' },
      to: { path: '(^|/)node_modules/@opentelemetry/' },
    },
    {
      name: 'playwright-only-as-types-in-the-kit',
      comment:
        'playwright-core is an optional peer of the package: the helpers name its types and use the ' +
        "Page or Frame the partner's suite hands them, so loading them never needs the package.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '(^|/)node_modules/playwright-core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'tracing-adapter-loaded-on-demand',
      comment:
        'Only src/tracing/load.ts imports the tracing modules (the variables and the adapter), and it does so ' +
        'with import() when tracing is on; nothing outside src/tracing/ imports them.',
      severity: 'error',
      from: { pathNot: '^src/tracing/' },
      to: { path: '^src/tracing/', pathNot: '^src/tracing/load\\.ts$' },
    },
    {
      name: 'tracing-adapter-never-imported-statically',
      comment: 'A static import would load the variables and the adapter (and so the SDK) at every start, traces or not.',
      severity: 'error',
      from: { path: '^src/tracing/load\\.ts$' },
      to: { path: '^src/tracing/', dynamic: false },
    },
    ...LAYER_RULES,
    ...ADAPTER_RULES,
    {
      name: 'browser-imports-nothing',
      comment:
        "src/browser runs in the viewer's browser as a classic script of its own program " +
        '(tsconfig.browser.json): the page loads that one file, so an import has nothing ' +
        'to load it, and server code would pull in a Node-only world.',
      severity: 'error',
      from: { path: '^src/browser/' },
      to: {},
    },
    {
      name: 'server-imports-no-browser-code',
      comment:
        'The server serves the compiled browser script as a file (inspectorScript()); ' +
        'importing its source would run DOM code in Node, outside the program that typechecks it.',
      severity: 'error',
      from: { pathNot: '^src/browser/' },
      to: { path: '^src/browser/' },
    },
    {
      name: 'no-cycles',
      comment:
        'A cycle means neither module can be understood, loaded or changed without the ' +
        'other; with ESM it can also read a binding before it is initialized.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too (see the top of this file).
    tsPreCompilationDeps: true,
    // `.js` specifiers resolve to the `.ts` sources through the project's own settings.
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
