import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxCatalog } from '../../src/control/catalog.js';
import { catalogMarkdown } from '../../src/control/catalog.markdown.js';

describe('docs/catalog.md', () => {
  it('is what the catalogue generates (regenerate with `npm run docs:catalog`)', () => {
    const committed = readFileSync('docs/catalog.md', 'utf8');
    if (committed !== catalogMarkdown()) {
      expect.fail('docs/catalog.md is not what the catalogue generates: run `npm run docs:catalog` and commit the result.');
    }
  });

  it('shows every entry of the catalogue by its input', () => {
    const page = readFileSync('docs/catalog.md', 'utf8');
    for (const e of sandboxCatalog().entries) expect(page, e.name).toContain(`\`${e.input.replace(/\|/g, '\\|')}\``);
  });
});
