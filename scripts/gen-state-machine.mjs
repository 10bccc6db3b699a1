// Writes docs/state-machine.md from the transition table, through the built package (dist/):
// `npm run docs:state-machine` builds first. A test compares the committed file with the same
// text rendered from src/, so the page cannot drift from the table.
import { writeFileSync } from 'node:fs';
import { stateMachineMarkdown } from '../dist/resources/onboardings/onboardings.machine.view.js';

const target = new URL('../docs/state-machine.md', import.meta.url);
writeFileSync(target, stateMachineMarkdown());
console.log('wrote docs/state-machine.md');
