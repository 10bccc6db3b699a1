import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { createApp } from '../../src/http/app.js';
import { logPathOf, openStateFile, StateFileError, withChangeLog, type StateFileOptions } from '../../src/persistence/state-file.js';
import { createBody, KEYS } from '../support/harness.js';

/**
 * A change log damaged anywhere but a torn last line (src/persistence/change-log.ts): the start
 * stops with one line naming the log and the byte offset, both files untouched; the repair
 * option keeps the records before the damage, moves the log aside and says what it dropped.
 */
const START = '2026-10-05T09:00:00Z';
const RECORDS = 50;
const tempDir = () => mkdtempSync(join(tmpdir(), 'state-damage-'));

function open(path: string, options: Partial<StateFileOptions> = {}) {
  // No journal: a create is then one record (its journal entry, added once answered, would be a second).
  const emulator = new Emulator({ clock: { mode: 'frozen', start: START }, journalLimit: 0 });
  const state = openStateFile(emulator, { path, compactAfterIdleMs: 3_600_000, ...options });
  const app = createApp(emulator, { commit: () => state.commit() });
  const snapshot = async () => (await request(app).get('/_emulator/snapshot')).text;
  return { state, app, snapshot };
}

/** A file with a log of RECORDS records, each one create, as a kill would leave it; and the state after each record. */
async function fiftyRecords(): Promise<{ file: string; after: string[] }> {
  const file = join(tempDir(), 'state.json');
  const s = open(file);
  const after = [await s.snapshot()];
  for (let i = 0; i < RECORDS; i++) {
    const res = await request(s.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).send(createBody({ reference: `rec-${i}` }));
    expect(res.status).toBe(201); // answered only once its record is in the log
    after.push(await s.snapshot());
  }
  expect(readFileSync(logPathOf(file), 'utf8').split('\n')).toHaveLength(RECORDS + 1);
  return { file, after }; // never closed: the files stay as a kill -9 leaves them
}

/** A copy of the files with one byte of line `line` (from 1) of the log changed; and where that line starts. */
function damagedCopy(file: string, line: number): { copy: string; offset: number } {
  const copy = join(tempDir(), 'state.json');
  copyFileSync(file, copy);
  const log = readFileSync(logPathOf(file));
  let offset = 0;
  for (let l = 1; l < line; l++) offset = log.indexOf(0x0a, offset) + 1;
  const end = log.indexOf(0x0a, offset);
  let at = offset + Math.floor((end - offset) / 2);
  while (log[at]! >= 0x80 || log[at] === 0x09) at++;
  log[at] = log[at] === 0x61 ? 0x62 : 0x61; // one character, the line's length kept
  writeFileSync(logPathOf(copy), log);
  return { copy, offset };
}

const filesOf = (file: string) => ({ document: readFileSync(file, 'utf8'), log: readFileSync(logPathOf(file), 'utf8') });

describe('a damaged state file change log', () => {
  it(`is refused at every record position of a ${RECORDS}-record log, naming the byte offset, with both files untouched`, async () => {
    const { file } = await fiftyRecords();
    for (let line = 1; line <= RECORDS; line++) {
      const { copy, offset } = damagedCopy(file, line);
      const before = filesOf(copy);
      let thrown: unknown;
      try {
        open(copy);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, `line ${line}`).toBeInstanceOf(StateFileError);
      const message = (thrown as StateFileError).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`change log ${logPathOf(copy)} is damaged at byte ${offset} (line ${line} of ${RECORDS})`);
      expect(message).toContain('--state-file-repair');
      expect((thrown as StateFileError).hint).toBe('');
      expect(filesOf(copy)).toEqual(before);
      expect(readdirSync(join(copy, '..'))).toEqual(['state.json', 'state.json.log']);
      // `snapshot load` reads a state file the same way.
      expect(() => withChangeLog(JSON.parse(before.document), copy)).toThrow(`damaged at byte ${offset}`);
    }
  }, 120_000);

  it('with repair, keeps every record before the damage, moves the log aside whole, and says what it dropped', async () => {
    const { file, after } = await fiftyRecords();
    for (let line = 1; line <= RECORDS; line++) {
      const { copy, offset } = damagedCopy(file, line);
      const damagedLog = readFileSync(logPathOf(copy), 'utf8');
      const s = open(copy, { repair: true });
      expect(s.state.start).toBe('restored');
      expect(s.state.repaired).toEqual({ log: logPathOf(copy), offset, kept: line - 1, dropped: RECORDS - line + 1, moved_to: `${logPathOf(copy)}.damaged` });
      expect(await s.snapshot(), `line ${line}`).toBe(after[line - 1]);
      expect(readFileSync(`${logPathOf(copy)}.damaged`, 'utf8')).toBe(damagedLog);
      expect(readFileSync(logPathOf(copy), 'utf8')).toBe(''); // a new log, following the new document
      await s.state.close();
    }
  }, 120_000);

  it('a second repair moves its log beside the first, never over it', async () => {
    const { file } = await fiftyRecords();
    const { copy } = damagedCopy(file, 10);
    const first = readFileSync(logPathOf(copy), 'utf8');
    const repaired = open(copy, { repair: true });
    for (let i = 0; i < 3; i++) {
      expect((await request(repaired.app).post('/v1/onboardings').set('Authorization', `Bearer ${KEYS.owner}`).send(createBody({ reference: `again-${i}` }))).status).toBe(201);
    }
    const log = readFileSync(logPathOf(copy));
    log[log.indexOf(0x0a) + 20] = log[log.indexOf(0x0a) + 20]! ^ 0x01; // the second record of the new log
    writeFileSync(logPathOf(copy), log);
    expect(() => open(copy)).toThrow('(line 2 of 3)');
    const again = open(copy, { repair: true });
    expect(again.state.repaired).toMatchObject({ kept: 1, dropped: 2, moved_to: `${logPathOf(copy)}.damaged-2` });
    expect(readFileSync(`${logPathOf(copy)}.damaged`, 'utf8')).toBe(first);
    expect(readFileSync(`${logPathOf(copy)}.damaged-2`)).toEqual(log);
    await again.state.close();
  });

  it('a later record of another document in the middle is damage; only a first one marks an older log', async () => {
    const { file } = await fiftyRecords();
    const lines = readFileSync(logPathOf(file), 'utf8').split('\n');
    const copy = join(tempDir(), 'state.json');
    copyFileSync(file, copy);
    // Records 1-4, then record 3 again: in order no more.
    writeFileSync(logPathOf(copy), [...lines.slice(0, 4), lines[2], ...lines.slice(4, 8), ''].join('\n'));
    expect(() => open(copy)).toThrow('(line 5 of 9)');
  });

  it('a torn last line is still dropped without a word (a kill during the append)', async () => {
    const { file, after } = await fiftyRecords();
    const copy = join(tempDir(), 'state.json');
    copyFileSync(file, copy);
    const log = readFileSync(logPathOf(file), 'utf8');
    const lastStart = log.lastIndexOf('\n', log.length - 2) + 1;
    writeFileSync(logPathOf(copy), log.slice(0, lastStart + Math.floor((log.length - lastStart) / 2)));
    const s = open(copy);
    expect(s.state.repaired).toBeNull();
    expect(await s.snapshot()).toBe(after[RECORDS - 1]);
    await s.state.close();
  });
});
