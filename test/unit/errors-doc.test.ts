import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, STATUS_OF_TYPE } from '../../src/core/errors.js';

describe('docs/errors.md', () => {
  const doc = readFileSync('docs/errors.md', 'utf8');
  const rows = new Map(
    [...doc.matchAll(/^\| (\d{3}) \| (\w+) \| `(\w+)` \|/gm)].map((m) => [m[3]!, { status: Number(m[1]), type: m[2]! }]),
  );

  it('lists every code with the status and type the emulator answers with', () => {
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      expect(rows.get(code), code).toEqual({ status: def.status, type: def.type });
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('keeps every code within the documented type-to-status mapping', () => {
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      expect(STATUS_OF_TYPE[def.type], code).toContain(def.status);
    }
  });
});
