import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stateMachineMarkdown, stateMachineView } from '../../src/resources/onboardings/onboardings.machine.view.js';

describe('docs/state-machine.md', () => {
  it('is what the transition table generates (regenerate with `npm run docs:state-machine`)', () => {
    const committed = readFileSync('docs/state-machine.md', 'utf8');
    const generated = stateMachineMarkdown();
    if (committed !== generated) {
      expect.fail('docs/state-machine.md is not what the transition table generates: run `npm run docs:state-machine` and commit the result.');
    }
  });

  it('shows the same diagram GET /_emulator/state-machine answers', () => {
    expect(readFileSync('docs/state-machine.md', 'utf8')).toContain(`\`\`\`mermaid\n${stateMachineView().mermaid}\`\`\``);
  });
});
