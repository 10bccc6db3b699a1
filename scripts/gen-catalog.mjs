// Writes docs/catalog.md from the sandbox catalogue, through the built package (dist/):
// `npm run docs:catalog` builds first. A test compares the committed file with the same text
// rendered from src/, so the page cannot drift from the tables it is built from.
import { writeFileSync } from 'node:fs';
import { catalogMarkdown } from '../dist/control/catalog.markdown.js';

const target = new URL('../docs/catalog.md', import.meta.url);
writeFileSync(target, catalogMarkdown());
console.log('wrote docs/catalog.md');
