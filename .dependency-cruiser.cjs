// The layering of src/, checked by `npm run lint:deps` on every CI run.
// Type-only imports count like any other: a layer that names another layer's types
// depends on it just the same.
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
    // The folders of src/ from the bottom up (docs/architecture.md, Layers): each may import
    // the ones below it and never one above. One rule per folder, named for what it may not see.
    {
      name: 'core-knows-no-outer-layer',
      comment:
        'core is the kernel every layer builds on; if it imported anything above it, the ' +
        'layers would form a knot and core could not be reasoned about (or tested) on its own.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'delivery-is-mechanics-only',
      comment:
        'src/delivery sends, signs, vets and relays HTTP messages; it knows no record of the ' +
        'store, so the webhooks resource can use it without the two depending on each other.',
      severity: 'error',
      from: { path: '^src/delivery/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery)/' },
    },
    {
      name: 'delivery-faults-know-only-core',
      comment:
        'The list of delivery faults and its schema are data the webhooks resource plays out; ' +
        'they name no record, so resources may import them one way.',
      severity: 'error',
      from: { path: '^src/delivery-faults/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery-faults)/' },
    },
    {
      name: 'resources-know-no-drivers',
      comment:
        'Resources hold the business rules; the receiver check, scenarios, fixtures, persistence, ' +
        'the composition root and the adapters drive them from outside. A resource reaching back ' +
        'up makes its rules depend on who happens to call, so they ask the workspace (hooks) instead.',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery|delivery-faults|resources)/' },
    },
    {
      name: 'receiver-check-stands-alone',
      comment:
        'The receiver check runs from the CLI with no emulator at all: it uses delivery and the ' +
        'event names, nothing that needs a workspace driven from above.',
      severity: 'error',
      from: { path: '^src/receiver-check/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery|resources|receiver-check)/' },
    },
    {
      name: 'scenarios-know-no-adapters',
      comment:
        'Scenarios play and judge the life cycle through the resources; persistence, the ' +
        'composition root and the adapters call scenarios, never the other way round.',
      severity: 'error',
      from: { path: '^src/scenarios/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery|delivery-faults|resources|scenarios)/' },
    },
    {
      name: 'fixtures-know-resources-only',
      comment: 'The fixtures document fills a store through the resources; it is read by the composition root.',
      severity: 'error',
      from: { path: '^src/fixtures/' },
      to: { path: '^src/', pathNot: '^src/(core|resources|fixtures)/' },
    },
    {
      name: 'persistence-below-the-composition-root',
      comment:
        'Snapshots and the state file work over the table of parts the composition root hands ' +
        'them (and an interface of what they ask of the emulator), so emulator.ts can use them ' +
        'without the two importing each other.',
      severity: 'error',
      from: { path: '^src/persistence/' },
      to: { path: '^src/', pathNot: '^src/(core|delivery|delivery-faults|resources|scenarios|persistence)/' },
    },
    {
      name: 'composition-root-has-no-adapter',
      comment: 'The composition root wires the domain; the control API, pages, HTTP and the entry points sit on it.',
      severity: 'error',
      from: { path: '^src/(emulator|workspace-parts|timer-handlers)\\.ts$' },
      to: { path: '^src/(control|pages|http|cli)/|^src/(in-process|index|config|testcontainers)\\.ts$' },
    },
    {
      name: 'control-is-transport-free',
      comment: 'The control API is written once with no transport in it; HTTP and the in-process helpers call it.',
      severity: 'error',
      from: { path: '^src/control/' },
      to: { path: '^src/(pages|http|cli)/|^src/(in-process|index|testcontainers)\\.ts$' },
    },
    {
      name: 'pages-know-the-domain-only',
      comment: 'Pages are rows of views and forms over the resources; Express and the control API stay out of them.',
      severity: 'error',
      from: { path: '^src/pages/' },
      to: { path: '^src/(control|http|cli|persistence)/|^src/(in-process|index|testcontainers)\\.ts$' },
    },
    {
      name: 'http-is-not-an-entry-point',
      comment: 'The Express adapter serves the emulator; the CLI and the package entries start it.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/cli/|^src/(in-process|index|testcontainers)\\.ts$' },
    },
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
