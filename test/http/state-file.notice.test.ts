import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen } from '../../src/http/server.js';
import { createEmulator } from '../../src/in-process.js';
import { logPathOf, openStateFile, withChangeLog } from '../../src/persistence/state-file.js';
import type { WorkspaceSnapshot } from '../../src/persistence/snapshot.js';
import { createBody, FROZEN_START, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * The state file hears the default workspace's one change notice (core/activity.ts). A change
 * an answer waits for is written before the answer; what trails it (the request's journal
 * entry, recorded once the answer is out) rides with the next write, or gets one of its own
 * soon after when none comes; a change no request holds for (an in-process call) is written
 * too. A client sending requests one after another pays one write per request, not two.
 */

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'state-notice-')), 'state.json');
const records = (file: string) => readFileSync(logPathOf(file), 'utf8').split('\n').filter(Boolean).length;
/** What a start would restore: the document with its log applied. */
const stored = (file: string) => withChangeLog(JSON.parse(readFileSync(file, 'utf8')), file) as WorkspaceSnapshot;

describe('the state file follows the change notice', () => {
  it('writes once per request for a client sending them one after another, and the last journal entry soon after on its own', async () => {
    const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    const file = tempFile();
    const state = openStateFile(emulator, { path: file, compactAfterIdleMs: 3_600_000 });
    const running = await listen(emulator, { host: '127.0.0.1', port: 0, commit: () => state.commit() });
    closing.push(async () => {
      await running.close();
      await state.close();
    });
    const REQUESTS = 30;
    let last = '';
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`${running.url}/v1/onboardings`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': `seq-${i}` },
        body: JSON.stringify(createBody({ reference: `seq-${i}` })),
      });
      expect(res.status).toBe(201);
      last = ((await res.json()) as { id: string }).id;
    }
    // A write on every notice would make two per request (the answer's, then its journal entry's).
    expect(records(file)).toBeLessThanOrEqual(REQUESTS + REQUESTS / 5);
    // The last request's journal entry came after its write; no request follows to carry it.
    await until(() => stored(file).requests.entries.some((e) => e.onboarding_ids.includes(last)), 'the last journal entry written');
  });

  it('writes what an in-process call changed, with no answer to hold for it', async () => {
    const file = tempFile();
    const emu = createEmulator({ stateFile: file, clock: { mode: 'frozen', start: FROZEN_START } });
    closing.push(() => emu.close());
    const fault = await emu.faults.add({ kind: 'error', path: '/v1/onboardings' });
    await until(() => stored(file).faults.some((f) => f.id === fault.id), 'the fault written');
    const loaded = await emu.scenario.load('happy-path');
    expect(loaded.source).toMatch(/happy-path/);
    await until(() => stored(file).scenario?.source === loaded.source, 'the scenario read from a file written');
  });
});
