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
    {
      name: 'core-knows-no-outer-layer',
      comment:
        'core is the kernel every layer builds on; if it imported a resource, scenario, ' +
        'the dispatcher, control, pages, http or the CLI, the layers above it would form ' +
        'a knot and core could not be reasoned about (or tested) on its own.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(resources|scenarios|delivery|control|pages|http|cli)/' },
    },
    {
      name: 'resources-know-no-drivers',
      comment:
        'Resources hold the business rules; scenarios, control, pages and http drive them ' +
        'from outside. A resource reaching back up to one of them makes its rules depend ' +
        'on who happens to call, so they ask the workspace (hooks) instead.',
      severity: 'error',
      from: { path: '^src/resources/' },
      to: { path: '^src/(scenarios|control|pages|http)/' },
    },
    {
      name: 'scenarios-know-no-adapters',
      comment:
        'Scenarios play and judge the life cycle through the resources; the control API, the ' +
        'pages and HTTP are adapters that call scenarios, never the other way round.',
      severity: 'error',
      from: { path: '^src/(scenarios|delivery)/' },
      to: { path: '^src/(control|pages|http|cli)/' },
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
