import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WELL_KNOWN_KEYS as KEYS } from '../../src/fixtures/well-known-keys.js';
import { createEmulator } from '../../src/index.js';
import { until, within } from '../support/wait.js';

/**
 * `parity proxy` as a process: the built command registered under a `parity` command, as the
 * CLI's main does, so its exit codes, ready line and signals are those a user meets.
 */
const COMMAND = new URL('../../dist/cli/commands/parity-proxy.js', import.meta.url).href;
const SCRIPT = `import { Command } from 'commander';
import { registerParityProxy } from ${JSON.stringify(COMMAND)};
const program = new Command('onboarding-emulator');
registerParityProxy(program.command('parity'));
await program.parseAsync(process.argv.slice(1), { from: 'user' });`;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  while (cleanups.length) await cleanups.pop()!();
});

function run(args: string[]): { child: ChildProcess; stderr: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, 'parity', 'proxy', ...args], { cwd: new URL('../..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => err, exit };
}

const exited = (p: { exit: Promise<number | null> }) => within(p.exit, 15_000, 'the command to exit');

describe('parity proxy on the command line', () => {
  it.each([
    [['--target', 'ftp://example.test'], /--target must be an http\(s\) URL/],
    [['--target', 'http://127.0.0.1:9', '--port', 'eighty'], /--port must be a number/],
    [['--target', 'http://127.0.0.1:9', '--record', '/dev/null/corpus'], /cannot write the record folder/],
    [[], /required option '--target <url>'/],
    // A role's key must be a test key, and the refusal never repeats the key it was given.
    [['--target', 'http://127.0.0.1:9', '--role', 'reader=hrs_live_acme_owner'], /--role must be name=hrs_test_\.\.\., got "reader=\.\.\."/],
  ])('exits 2 on %j', async (args, message) => {
    const p = run(args);
    expect(await exited(p)).toBe(2);
    expect(p.stderr()).toMatch(message);
  });

  it('exits 1 when the port is in use', async () => {
    const taken = http.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => taken.close(r)));
    const p = run(['--target', 'http://127.0.0.1:9', '--port', String((taken.address() as AddressInfo).port)]);
    expect(await exited(p)).toBe(1);
    expect(p.stderr()).toMatch(/cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
  });

  it('prints one ready line, forwards, and writes the open flow on SIGTERM (exit 0)', async () => {
    const em = createEmulator();
    const { url } = await em.start(0, '127.0.0.1');
    cleanups.push(() => em.close());
    const dir = mkdtempSync(join(tmpdir(), 'parity-proxy-cli-'));
    writeFileSync(join(dir, 'flow-004.flow.json'), '{}');
    const p = run(['--target', url, '--record', dir, '--port', '0', '--flow-gap', '60000']);
    const READY = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
    await until(() => READY.test(p.stderr()), 'the ready line', 15_000);
    const ready = READY.exec(p.stderr())![1]!;
    expect(p.stderr().trim().split('\n')).toHaveLength(1);
    const res = await fetch(`${ready}/v1/organization`, { headers: { authorization: `Bearer ${KEYS.owner}` } });
    expect(res.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await exited(p)).toBe(0);
    // Numbered after the flows the folder already holds.
    expect(readdirSync(dir).sort()).toEqual(['flow-004.flow.json', 'flow-005.flow.json']);
    expect(p.stderr()).toMatch(/1 flows written, 0 violations/);
  });
});
