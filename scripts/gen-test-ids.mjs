// Writes the pages' selector contract from its table (src/pages/test-ids.ts), through the built
// package (dist/): test-ids.json, which the package publishes, and its table in docs/pages.md
// between the test-ids markers. `npm run docs:test-ids` builds first; a test compares both.
import { readFileSync, writeFileSync } from 'node:fs';
import { testIdsDocument, testIdsMarkdown } from '../dist/pages/test-ids.js';

writeFileSync(new URL('../test-ids.json', import.meta.url), `${JSON.stringify(testIdsDocument(), null, 2)}\n`);
const page = new URL('../docs/pages.md', import.meta.url);
const text = readFileSync(page, 'utf8');
const at = /(<!-- test-ids:start -->\n)[\s\S]*?(<!-- test-ids:end -->)/;
if (!at.test(text)) throw new Error('docs/pages.md has no test-ids markers');
writeFileSync(page, text.replace(at, (_, start, end) => `${start}${testIdsMarkdown()}${end}`));
console.log('wrote test-ids.json and the table in docs/pages.md');
