// The CommonJS entry (dist/index.cjs) for test runners with their own module loader, such as
// Jest, that cannot load ES modules. Runs last in `npm run build`: it bundles the ES build tsc
// wrote (dist/index.js and what it imports) into one CommonJS file, so both entries run the
// same compiled code.
//
// Two things an ES module may do that CommonJS cannot are handled here:
// - import a package that has no CommonJS build (nanoid 5): such packages are bundled in, every
//   other package stays an ordinary require() of the user's node_modules;
// - read files next to itself through import.meta.url (the precompiled validators, the
//   fixtures, the sample documents): each module's import.meta.url becomes the URL of its own
//   file in the ES build, worked out from the bundle's __dirname at run time, so every relative
//   path points where it points for the ES build.
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { moduleUrls } from './lib/module-urls.mjs';
import { tracingApart } from './lib/tracing-apart.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const outfile = join(dist, 'index.cjs');
const requireFromDist = createRequire(join(dist, 'index.js'));

/**
 * True when `require(name)` from dist loads CommonJS: a .cjs file, or a .js file whose nearest
 * package.json (its package scope, as Node reads it) does not say "type": "module". A package
 * that `require` cannot resolve at all (exports for `import` only) is bundled like an ES one.
 */
function loadsAsCommonJs(name) {
  let file;
  try {
    file = requireFromDist.resolve(name);
  } catch {
    return false;
  }
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

const bundled = new Set();
const packages = {
  name: 'commonjs-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (loadsAsCommonJs(args.path)) return { path: args.path, external: true };
      bundled.add(args.path);
      return undefined; // esbuild resolves it and puts it into the bundle
    });
  },
};

// Imported under names of their own, since a module may have a `require` of its own (createRequire).
const urls = moduleUrls({
  dist,
  helpers: 'import { pathToFileURL as __esmFileUrl } from "node:url"; import { join as __esmJoin } from "node:path";',
  urlOf: (own) => `__esmFileUrl(__esmJoin(__dirname, ${JSON.stringify(own)})).href`,
});

const started = Date.now();
await build({
  entryPoints: [join(dist, 'index.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [tracingApart({ dist, bundleDir: dist }), packages, urls],
});

// The declarations for the "require" condition. TypeScript takes a .d.ts file for CommonJS or
// ESM by the nearest package.json, as Node does, and refuses (under module node16) a CommonJS
// declaration that re-exports ESM ones. So the declaration tree is copied under a folder whose
// package.json says commonjs: the same text, read as CommonJS.
const types = join(dist, 'cjs-types');
await rm(types, { recursive: true, force: true });
const declarationFiles = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.d.ts'));
for (const file of declarationFiles) {
  await mkdir(dirname(join(types, file)), { recursive: true });
  await copyFile(join(dist, file), join(types, file));
}
await writeFile(join(types, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

console.log(`bundled the CommonJS entry in ${Date.now() - started} ms (packages bundled in: ${[...bundled].sort().join(', ') || 'none'})`);
