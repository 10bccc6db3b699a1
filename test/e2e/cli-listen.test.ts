import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayHub } from '../../src/delivery/relay.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { CLI, serve } from '../support/serve.js';
import { answer, useReceivers } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * `onboarding-emulator listen` as a person runs it: against `serve`, a message relayed to a
 * receiver and printed, Ctrl-C ends it with 0, an emulator that stops ends it with 2, and an
 * emulator that is not there at all is exit 2 at once; killed with -9, its relay lapses a
 * lease after, and under the strict URL policy it needs --forward-to.
 */
const OWNER = 'hrs_test_acme_owner';
const children: ChildProcess[] = [];
const emulators: InProcessEmulator[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const em of emulators.splice(0)) await em.close();
});

function listen(args: string[]) {
  const child = spawn(process.execPath, [CLI, 'listen', ...args], { env: { ...process.env, EMULATOR_URL: '', EMULATOR_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

describe('onboarding-emulator listen', () => {
  it('relays a message to --forward-to, prints it, and stops on Ctrl-C with exit 0', async () => {
    const emu = await serve([], children);
    const r = await receivers.start(answer(200));
    const relay = listen(['--url', emu.url, '--key', OWNER, '--forward-to', r.url('/hooks'), '--url-prefix', 'http://relayed.invalid/']);
    await until(() => relay.err().includes('relaying the webhooks of workspace default'), 'the relay to start', 10_000);
    const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
    const hook = (await (await fetch(`${emu.url}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://relayed.invalid/hooks' }) })).json()) as { id: string };
    expect((await fetch(`${emu.url}/v1/webhooks/${hook.id}/test`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    await r.waitFor(1, 10_000);
    await until(() => /200\s+ping\s+evt_\S+\s+\d+ ms\s+http:\/\/127\.0\.0\.1:\d+\/hooks/.test(relay.out()), 'the printed delivery', 10_000);
    relay.child.kill('SIGINT');
    expect(await relay.exited).toBe(0);
    const list = (await (await fetch(`${emu.url}/_emulator/relays`)).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
    // The relay's token (rlt_...) went with its claims, report and close, and is in no line of either process.
    for (const text of [emu.output(), relay.out(), relay.err()]) expect(text).not.toContain('rlt_');
  });

  it('killed with -9 in the middle of a long poll, its relay lapses one lease after, not a whole wait later', async () => {
    const LEASE_MS = 1_000;
    const em = createEmulator({ seed: 1, webhooks: { relays: new RelayHub({ leaseMs: LEASE_MS }) } });
    emulators.push(em);
    const { url } = await em.start(0);
    const listed = async () => ((await (await fetch(`${url}/_emulator/relays`)).json()) as { data: { polling: boolean }[] }).data;
    // Its poll waits 25 s by default: a lease counted from the poll's end would come 25 s late.
    const relay = listen(['--url', url, '--forward-to', 'http://127.0.0.1:9/hooks']);
    await until(async () => (await listed())[0]?.polling === true, 'the relay polling', 10_000);
    relay.child.kill('SIGKILL');
    await relay.exited;
    const killed = performance.now();
    await until(async () => (await listed()).length === 0, 'the relay to lapse', 5_000);
    const lapsed = performance.now() - killed;
    expect(lapsed).toBeGreaterThan(LEASE_MS - 50);
    expect(lapsed).toBeLessThan(LEASE_MS + 700);
  });

  it('under the strict URL policy, is refused without --forward-to (exit 1, saying why) and relays with it', async () => {
    const emu = await serve(['--webhook-url-policy', 'strict'], children);
    const bare = listen(['--url', emu.url]);
    expect(await bare.exited).toBe(1);
    // 'exit' can come before the last of stderr has been read.
    await until(() => bare.err().includes('strict URL policy'), 'the reason on stderr', 2_000);
    expect(bare.err()).toMatch(/^error 422 parameter_missing: .*send forward_to \(listen --forward-to <url>\)/);
    const r = await receivers.start(answer(200));
    const forwarding = listen(['--url', emu.url, '--forward-to', r.url('/hooks')]);
    await until(() => forwarding.err().includes('relaying the webhooks of workspace default'), 'the relay to start', 10_000);
    forwarding.child.kill('SIGINT');
    expect(await forwarding.exited).toBe(0);
  });

  it('ends with exit 2 when the emulator stops under it', async () => {
    const emu = await serve([], children);
    const relay = listen(['--url', emu.url]);
    await until(() => relay.err().includes('relaying'), 'the relay to start', 10_000);
    // Its long poll waiting on the emulator, so the stop answers it (rather than refusing a new connection).
    await until(async () => ((await (await fetch(`${emu.url}/_emulator/relays`)).json()) as { data: { polling: boolean }[] }).data[0]?.polling === true, 'the relay polling', 10_000);
    emu.child.kill('SIGTERM');
    expect(await emu.exited).toBe(0);
    expect(await relay.exited).toBe(2);
    expect(relay.err()).toMatch(/lost the emulator at http:\/\/127\.0\.0\.1:\d+: the emulator is stopping/);
  });

  it('exits 2 at once when no emulator answers, and 2 for a --forward-to that is no URL', async () => {
    const none = listen(['--url', 'http://127.0.0.1:9']);
    expect(await none.exited).toBe(2);
    expect(none.err()).toContain('cannot reach the emulator');
    const emu = await serve([], children);
    const bad = listen(['--url', emu.url, '--forward-to', 'localhost:3000']);
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toContain('--forward-to must be an http:// or https:// URL');
  });
});
