// For the bundles made from the ES build: the modules src/tracing/load.ts imports with import()
// only when tracing is on (dist/tracing/settings.js and adapter.js) stay files of their own, and
// the OpenTelemetry packages the adapter imports stay ordinary loads from node_modules (optional
// peer dependencies, perhaps not installed). Bundled in, they would be parsed at every start,
// traces or not; left out, the bundle imports them from the ES build, as the adapter does the SDK.
import { join, relative, sep } from 'node:path';

/** `dist`: the ES build's folder; `bundleDir`: the folder the bundle is written to. */
export function tracingApart({ dist, bundleDir }) {
  const load = join(dist, 'tracing', 'load.js');
  const fromBundle = (file) => `./${relative(bundleDir, join(dist, 'tracing', file)).split(sep).join('/')}`.replace(/^\.\/\.\.\//, '../');
  return {
    name: 'tracing-apart',
    setup(b) {
      b.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => (args.importer === load ? { path: fromBundle(args.path.slice(2)), external: true } : undefined));
      b.onResolve({ filter: /^@opentelemetry\// }, (args) => ({ path: args.path, external: true }));
    },
  };
}
