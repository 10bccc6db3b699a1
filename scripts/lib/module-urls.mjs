// For the bundles made from the ES build (the CommonJS entry, the CLI): a module that reads
// files next to itself through import.meta.url (the precompiled validators, the fixtures, the
// sample documents, the browser scripts) must keep finding them once bundled. This esbuild
// plugin gives each such module, instead of import.meta.url, the URL of its own file in the ES
// build, as worked out by `urlOf` from the bundle's location at run time.
import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';

/**
 * `dist`: the ES build's folder. `urlOf(own)`: an expression for the URL of the file at `own`
 * (a path relative to `dist`, with forward slashes). `helpers`: code put before a module that
 * needs it (imports the expression uses).
 */
export function moduleUrls({ dist, urlOf, helpers = '' }) {
  return {
    name: 'module-urls',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        const own = relative(dist, args.path);
        if (own.startsWith('..')) {
          // A bundled package's own files are not shipped, so there is nothing its URL could point at.
          throw new Error(`${args.path} uses import.meta; it cannot be bundled`);
        }
        const contents = `${helpers}\n${text.replaceAll('import.meta.url', urlOf(own.split(sep).join('/')))}`;
        if (contents.replaceAll('import.meta.url', '').includes('import.meta')) throw new Error(`${args.path} uses import.meta other than import.meta.url`);
        return { contents, loader: 'js' };
      });
    },
  };
}
