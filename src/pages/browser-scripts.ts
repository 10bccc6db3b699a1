import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The scripts that run in the viewer's browser: `src/browser/<name>.ts`, typed programs of their
 * own (`tsconfig.browser.json`), compiled by `npm run build` to `dist/browser/<name>.js`.
 *
 * The path is the same from this file in `src/pages/` (tests run the sources) and in
 * `dist/pages/` (the build, the package, the image): two folders up is the project's root
 * either way, so both serve the one compiled file.
 */
export type BrowserScript = 'inspector' | 'explorer';

const read = new Map<BrowserScript, string>();

/** The compiled script, read on first use and kept: it does not change while the server runs. */
export function browserScript(name: BrowserScript): string {
  let script = read.get(name);
  if (script === undefined) {
    const file = new URL(`../../dist/browser/${name}.js`, import.meta.url);
    try {
      script = readFileSync(file, 'utf8');
    } catch (cause) {
      throw new Error(`The browser script ${fileURLToPath(file)} cannot be read; run \`npm run build\` to compile it.`, { cause });
    }
    read.set(name, script);
  }
  return script;
}
