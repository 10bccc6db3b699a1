import type { ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBody, KEYS } from '../support/harness.js';
import { run, serve as serveIn } from '../support/serve.js';

/**
 * `serve --state-file` with its change log (PATH.log): killed with SIGKILL right after a burst
 * of writes, the restarted emulator holds exactly the state the killed one served (the
 * snapshot text compared), and `snapshot load` of the killed files (document and log) gives
 * the same state to another emulator.
 */
const children: ChildProcess[] = [];
const serve = (args: string[]) => serveIn(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z', ...args], children);

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const headers = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' };

async function call(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as Record<string, unknown>;
}

const snapshotText = async (url: string) => (await fetch(`${url}/_emulator/snapshot`)).text();

describe('serve --state-file, the change log across a kill', () => {
  it('restores, after SIGKILL, the snapshot the killed process served, byte for byte; snapshot load takes the killed files too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-log-e2e-'));
    const file = join(dir, 'state.json');
    const first = await serve(['--state-file', file]);
    await call(first.url, 'POST', '/v1/webhooks', { url: 'https://hooks.acme.test/log', events: ['onboarding.created'] });
    const ids: string[] = [];
    // Concurrent writers, so answers share writes (group commits).
    await Promise.all(Array.from({ length: 5 }, async (_, w) => {
      for (let i = 0; i < 8; i++) ids.push(String((await call(first.url, 'POST', '/v1/onboardings', createBody({ reference: `w${w}i${i}` }))).id));
    }));
    await call(first.url, 'PATCH', `/v1/onboardings/${ids[0]}`, { metadata: { v: 'patched' } });
    await call(first.url, 'POST', `/v1/onboardings/${ids[1]}/cancel`, {});
    await call(first.url, 'POST', `/v1/onboardings/${ids[2]}/hosted-link`, {});
    const before = await snapshotText(first.url);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(`${file}.log`)).toBe(true);
    console.log(`state file ${statSync(file).size} bytes, change log ${statSync(`${file}.log`).size} bytes at the kill`);
    const killed = join(dir, 'killed.json');
    copyFileSync(file, killed);
    copyFileSync(`${file}.log`, `${killed}.log`);

    const again = await serve(['--state-file', file]);
    expect(again.ready).toMatchObject({ state: 'restored' });
    expect(await snapshotText(again.url)).toBe(before);
    expect(statSync(`${file}.log`).size).toBe(0); // the start folded the log into the document
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.log`).mode & 0o777).toBe(0o600);

    const other = await serve([]);
    const loaded = await run(['snapshot', 'load', killed, '--url', other.url], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
    expect(loaded.code).toBe(0);
    expect(await snapshotText(other.url)).toBe(before);
  }, 60_000);
});
