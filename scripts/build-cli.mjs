// The CLI as one file. tsc writes dist/cli/main.js and some two hundred modules it imports, and
// Node resolves, reads and links each of them (and Express's own files) at every start; bundled
// into one ES module that takes a fraction of the time. Runs in `npm run build` after the other
// steps and replaces dist/cli/main.js with its bundle, so the command, `npm start`, the image
// and every script keep their path. The rest of dist stays: the package's entries import it,
// and the bundle's modules still find their files there (see lib/module-urls.mjs).
//
// Every package is bundled in, except what is loaded on first use through createRequire (ajv,
// yaml) or import() (the MCP SDK, for `mcp` and /_emulator/mcp; the tracing modules and the
// OpenTelemetry SDK, lib/tracing-apart.mjs): that stays an ordinary load from node_modules, out
// of the start's way (bundled, its text would be read at every start).
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { moduleUrls } from './lib/module-urls.mjs';
import { tracingApart } from './lib/tracing-apart.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const entry = join(dist, 'cli', 'main.js');
/** The first line after the hashbang of a bundle: running this twice must not bundle a bundle. */
const MARK = '// onboarding-emulator CLI bundle';

if (readFileSync(entry, 'utf8').includes(MARK)) {
  console.log('dist/cli/main.js is a bundle already; run tsc first (npm run build) to bundle it again');
  process.exit(0);
}

const started = Date.now();
await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  external: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/*'],
  // Less text for V8 to parse at every start; names stay, so a stack trace still names functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Bundled CommonJS packages (Express and its dependencies) call require(); an ES module has
  // none of its own, so the bundle makes one.
  banner: { js: `${MARK}\nimport { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);` },
  plugins: [
    tracingApart({ dist, bundleDir: join(dist, 'cli') }),
    moduleUrls({
      dist,
      // Relative to the bundle, which sits where dist/cli/main.js did.
      urlOf: (own) => `new URL(${JSON.stringify(relative(join(dist, 'cli'), join(dist, own)).split(sep).join('/'))}, import.meta.url).href`,
    }),
  ],
});
console.log(`bundled the CLI in ${Date.now() - started} ms`);
