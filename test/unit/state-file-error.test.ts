import { describe, expect, it } from 'vitest';
import { StateFileError } from '../../src/persistence/state-file.js';

/** What the CLI prints under a state file that cannot be used: the advice fits the cause. */
const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('StateFileError.hint', () => {
  it('advises a writable folder (the image\'s /data, a volume, uid 1000) for permission and read-only errors', () => {
    for (const code of ['EACCES', 'EPERM', 'EROFS']) {
      const hint = new StateFileError('state file /data/state.json cannot be written', errno(code)).hint;
      expect(hint).toContain('-v emu-state:/data');
      expect(hint).toContain('uid 1000');
      expect(hint).not.toContain('--reset-state');
      expect(hint).toContain(code === 'EROFS' ? 'a read-only file system' : 'permission denied');
    }
  });

  it('advises --reset-state for a file that holds something else', () => {
    expect(new StateFileError('state file x is not valid JSON').hint).toContain('--reset-state');
    expect(new StateFileError('state file x cannot be read', errno('EISDIR')).hint).toContain('--reset-state');
  });
});
