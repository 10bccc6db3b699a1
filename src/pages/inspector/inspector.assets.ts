import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The inspector's script: `src/browser/inspector.ts`, a typed browser program of its own
 * (`tsconfig.browser.json`), compiled by `npm run build` to `dist/browser/inspector.js`; the
 * style sheet is inspector.style.ts.
 *
 * The path is the same from this file in `src/pages/inspector/` (tests run the sources) and
 * in `dist/pages/inspector/` (the build, the package, the image): three folders up is the
 * project's root either way, so both serve the one compiled file.
 */
const SCRIPT = new URL('../../../dist/browser/inspector.js', import.meta.url);

let script: string | undefined;

/** The compiled script, read on first use and kept: it does not change while the server runs. */
export function inspectorScript(): string {
  if (script === undefined) {
    try {
      script = readFileSync(SCRIPT, 'utf8');
    } catch (cause) {
      throw new Error(`The inspector's script ${fileURLToPath(SCRIPT)} cannot be read; run \`npm run build\` to compile it.`, { cause });
    }
  }
  return script;
}
