// Writes the pages' selector contract from its table (src/pages/test-ids.ts), through the built
// package (dist/): test-ids.json, which the package publishes, and its table in docs/pages.md
// between the test-ids markers; and the employee form's test values
// (src/resources/onboardings/onboardings.test-values.ts) between the test-values markers.
// `npm run docs:test-ids` builds first; tests compare each.
import { readFileSync, writeFileSync } from 'node:fs';
import { testIdsDocument, testIdsMarkdown } from '../dist/pages/test-ids.js';
import { testValuesMarkdown } from '../dist/resources/onboardings/onboardings.test-values.js';

writeFileSync(new URL('../test-ids.json', import.meta.url), `${JSON.stringify(testIdsDocument(), null, 2)}\n`);
const page = new URL('../docs/pages.md', import.meta.url);
let text = readFileSync(page, 'utf8');
for (const [name, markdown] of [['test-ids', testIdsMarkdown], ['test-values', testValuesMarkdown]]) {
  const at = new RegExp(`(<!-- ${name}:start -->\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!at.test(text)) throw new Error(`docs/pages.md has no ${name} markers`);
  text = text.replace(at, (_, start, end) => `${start}${markdown()}${end}`);
}
writeFileSync(page, text);
console.log('wrote test-ids.json, and the test ids and test values tables in docs/pages.md');
