import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayHub } from '../../src/delivery/relay.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { verifySignature } from '../../src/index.js';
import { closedPort } from '../support/net.js';
import { CLI, serve } from '../support/serve.js';
import { answer, useReceivers } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * `onboarding-emulator listen` as a person runs it: against `serve`, a message relayed to a
 * receiver and printed, Ctrl-C ends it with 0, an emulator that stops ends it with 2, and an
 * emulator that is not there at all is exit 2 at once; killed with -9, its relay lapses a
 * lease after, and under the strict URL policy it needs --forward-to. With no address to take
 * it makes a session address, prints its secret and removes it, and it says why it relays nothing.
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

describe('onboarding-emulator listen with no webhook address to take', () => {
  const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
  const call = async (url: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const addresses = async (url: string) => (await call(url, 'GET', '/v1/webhooks?limit=100')).body.data as { id: string; url: string }[];
  const SECRET = /Ready! Your webhook signing secret is (whsec_\S+) \(session address (wh_\S+); Ctrl-C to quit\)/;

  it('registers a session address, prints its secret (which verifies the relayed message), and removes it on Ctrl-C', async () => {
    const emu = await serve([], children);
    const r = await receivers.start(answer(200));
    const relay = listen(['--url', emu.url, '--json', '--forward-to', r.url('/hooks')]);
    await until(() => SECRET.test(relay.err()), 'the ready line', 10_000);
    const [, secret, id] = SECRET.exec(relay.err())!;
    expect(relay.err()).toContain('note: workspace default has no webhook address: relaying a session address instead');
    expect((await addresses(emu.url)).map((a) => a.id)).toEqual([id]);
    expect((await call(emu.url, 'POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
    await r.waitFor(1, 10_000);
    const got = r.to('/hooks')[0]!;
    expect(verifySignature(got.body, String(got.headers['service-signature']), secret!)).toBe(true);
    // stdout under --json holds the delivery records alone.
    await until(() => relay.out().includes('\n'), 'the delivery line', 10_000);
    expect(JSON.parse(relay.out().split('\n')[0]!)).toMatchObject({ status_code: 200, event_type: 'ping', url: r.url('/hooks') });
    relay.child.kill('SIGINT');
    expect(await relay.exited).toBe(0);
    expect(await addresses(emu.url)).toEqual([]);
    expect(emu.output()).not.toContain(secret);
  });

  it('gives it to --organization, and removes it on SIGTERM too', async () => {
    const emu = await serve([], children);
    const relay = listen(['--url', emu.url, '--forward-to', 'http://127.0.0.1:9/hooks', '--organization', 'org_bakker']);
    await until(() => SECRET.test(relay.err()), 'the ready line', 10_000);
    const inspected = async () => (await call(emu.url, 'GET', '/_emulator/webhooks')).body.data as { id: string; organization_id: string }[];
    expect(await inspected()).toEqual([expect.objectContaining({ id: SECRET.exec(relay.err())![2], organization_id: 'org_bakker' })]);
    relay.child.kill('SIGTERM');
    expect(await relay.exited).toBe(0);
    expect(await inspected()).toEqual([]);
  });

  it('makes none when an address it takes exists, and says so when that address filters the events', async () => {
    const emu = await serve([], children);
    const hook = await call(emu.url, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['onboarding.completed'] });
    expect(hook.status).toBe(201);
    const relay = listen(['--url', emu.url, '--forward-to', 'http://127.0.0.1:9/x']);
    await until(() => relay.err().includes('relaying the webhooks of workspace default'), 'the relay to start', 10_000);
    expect(relay.err()).not.toContain('Ready!');
    expect(relay.err()).toContain('note: the webhook addresses this relay takes subscribe to onboarding.completed only: other events are not relayed');
    expect((await addresses(emu.url)).map((a) => a.id)).toEqual([hook.body.id]);
    relay.child.kill('SIGINT');
    expect(await relay.exited).toBe(0);
    expect((await addresses(emu.url)).map((a) => a.id)).toEqual([hook.body.id]);
  });

  it('says why it relays nothing: no address under --url-prefix without a forward target, and a receiver refusing connections (once)', async () => {
    const emu = await serve([], children);
    expect((await call(emu.url, 'POST', '/v1/webhooks', { url: 'http://elsewhere.invalid/hooks' })).status).toBe(201);
    const bare = listen(['--url', emu.url, '--url-prefix', 'http://127.0.0.1/']);
    await until(() => bare.err().includes('relaying'), 'the relay to start', 10_000);
    expect(bare.err()).toContain('note: none of the 1 webhook address of workspace default starts with http://127.0.0.1/: nothing will be relayed: register one (POST /v1/webhooks), or give a forward target (listen --forward-to) for a session address');
    bare.child.kill('SIGINT');
    expect(await bare.exited).toBe(0);

    const port = await closedPort();
    const refused = listen(['--url', emu.url, '--url-prefix', 'http://127.0.0.1/', '--forward-to', `http://127.0.0.1:${port}/hooks`]);
    await until(() => SECRET.test(refused.err()), 'the ready line', 10_000);
    const id = SECRET.exec(refused.err())![2]!;
    for (let i = 0; i < 3; i++) expect((await call(emu.url, 'POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
    await until(() => (refused.out().match(/connection refused/g) ?? []).length === 3, 'three refused deliveries', 10_000);
    const notes = refused.err().split('\n').filter((l) => l.startsWith('note: nothing listens'));
    expect(notes).toEqual([`note: nothing listens at http://127.0.0.1:${port}/hooks (connection refused): start the receiver there; the emulator retries each message on its schedule`]);
  });

  it('at the 20-address limit, exits 1 saying so, and leaves neither a relay nor an address', async () => {
    const emu = await serve([], children);
    for (let i = 0; i < 20; i++) expect((await call(emu.url, 'POST', '/v1/webhooks', { url: `http://elsewhere.invalid/${i}` })).status).toBe(201);
    const relay = listen(['--url', emu.url, '--url-prefix', 'http://127.0.0.1/', '--forward-to', 'http://127.0.0.1:9/hooks']);
    expect(await relay.exited).toBe(1);
    await until(() => relay.err().includes('webhook_limit_reached'), 'the reason on stderr', 2_000);
    expect(relay.err()).toContain('error 422 webhook_limit_reached: An organization has at most 20 webhook addresses.');
    expect((await call(emu.url, 'GET', '/_emulator/relays')).body.data).toEqual([]);
    expect(await addresses(emu.url)).toHaveLength(20);
  });

  it('a listen killed with -9 leaves its session address only until its relay lapses', async () => {
    const em = createEmulator({ seed: 1, webhooks: { relays: new RelayHub({ leaseMs: 500 }) } });
    emulators.push(em);
    const { url } = await em.start(0);
    const relay = listen(['--url', url, '--forward-to', 'http://127.0.0.1:9/hooks']);
    await until(() => SECRET.test(relay.err()), 'the ready line', 10_000);
    expect(await addresses(url)).toHaveLength(1);
    relay.child.kill('SIGKILL');
    await relay.exited;
    await until(async () => ((await call(url, 'GET', '/_emulator/relays')).body.data as unknown[]).length === 0, 'the relay to lapse', 5_000);
    expect(await addresses(url)).toEqual([]);
  });
});
