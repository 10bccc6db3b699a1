import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBody } from '../support/harness.js';
import { docker, IMAGE, LABEL, inspect, logs, must, removeContainers, removeVolumes, start, volume, waitForStatus } from './docker.js';

/**
 * The documented data folder: a state file on a named volume at /data survives `docker stop`
 * and `docker start`, with a read-only root file system too; a folder the emulator may not
 * write ends the start with advice about the mount, not about --reset-state.
 */
const OWNER = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };

afterAll(async () => {
  await removeContainers();
  await removeVolumes();
});

async function createOnboarding(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/onboardings`, { method: 'POST', headers: OWNER, body: JSON.stringify(createBody({ reference: 'kept-in-volume' })) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** `docker stop` then `docker start`: the engine keeps the container's port mapping, not its host port. */
async function restart(id: string): Promise<string> {
  await must(['stop', id]);
  expect(await inspect(id, '{{.State.ExitCode}}')).toBe('0');
  await must(['start', id]);
  const port = (await must(['port', id, '4010/tcp'])).split('\n')[0]!.split(':').pop();
  const base = `http://127.0.0.1:${port}`;
  await waitForStatus(`${base}/_emulator/health`);
  return base;
}

describe('state in a volume', () => {
  for (const readOnly of [false, true]) {
    it(`keeps the default workspace in /data across docker stop and start${readOnly ? ', with --read-only' : ''}`, async () => {
      const vol = await volume(readOnly ? 'state-ro' : 'state');
      const c = await start({ docker: [...(readOnly ? ['--read-only'] : []), '-v', `${vol}:/data`, '-e', 'EMULATOR_STATE_FILE=/data/state.json'] });
      await waitForStatus(`${c.base}/_emulator/health`);
      const id = await createOnboarding(c.base);
      const base = await restart(c.id);
      const again = await fetch(`${base}/v1/onboardings/${id}`, { headers: OWNER });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { reference: string }).reference).toBe('kept-in-volume');
      expect(await logs(c.id)).toContain('"state":"restored"');
    });
  }

  it('says what to do when the folder is not writable: the mount and its owner, not --reset-state', async () => {
    // A folder of the host that belongs to root, mounted where the state file goes.
    const hostDir = mkdtempSync(join(tmpdir(), 'oe-image-state-'));
    const r = await docker(['run', '--rm', '--label', LABEL, '-v', `${hostDir}:/data`, '-e', 'EMULATOR_STATE_FILE=/data/state.json', IMAGE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/data/state.json');
    expect(r.stderr).toContain('uid 1000');
    expect(r.stderr).toContain('-v emu-state:/data');
    expect(r.stderr).not.toContain('--reset-state');
  });

  it('says the same under --read-only with no volume on /data', async () => {
    const r = await docker(['run', '--rm', '--read-only', '-e', 'EMULATOR_STATE_FILE=/data/state.json', IMAGE]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('read-only file system');
    expect(r.stderr).toContain('-v emu-state:/data');
  });
});
