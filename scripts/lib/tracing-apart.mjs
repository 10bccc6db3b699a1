// For the bundles made from the ES build: the tracing adapter (dist/tracing/adapter.js), which
// src/tracing/load.ts imports with import() only when tracing is on, stays a file of its own.
// Bundled in, it would be parsed at every start, traces or not; left out, the bundle imports the
// adapter from the ES build, and the adapter its own modules next to it.
import { join, relative, sep } from 'node:path';

/** `dist`: the ES build's folder; `bundleDir`: the folder the bundle is written to. */
export function tracingApart({ dist, bundleDir }) {
  const adapter = join(dist, 'tracing', 'adapter.js');
  const fromBundle = `./${relative(bundleDir, adapter).split(sep).join('/')}`.replace(/^\.\/\.\.\//, '../');
  return {
    name: 'tracing-apart',
    setup(b) {
      b.onResolve({ filter: /^\.\/adapter\.js$/ }, (args) => (args.importer === join(dist, 'tracing', 'load.js') ? { path: fromBundle, external: true } : undefined));
    },
  };
}
