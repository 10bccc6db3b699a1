import { describe, expect, it } from 'vitest';
import { defaultLogFormat } from '../../src/cli/log-format.js';

describe('defaultLogFormat: the format without --log-format', () => {
  it('is pretty when stdout is a terminal', () => {
    expect(defaultLogFormat(true)).toBe('pretty');
  });

  it.each([false, undefined])('is json when stdout is not a terminal (isTTY %s: a pipe, a file)', (isTTY) => {
    expect(defaultLogFormat(isTTY)).toBe('json');
  });
});
