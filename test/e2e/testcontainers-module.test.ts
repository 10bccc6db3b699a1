import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { DEFAULT_IMAGE, OnboardingEmulatorContainer, StartedOnboardingEmulator, WELL_KNOWN_KEYS } from '../../src/testcontainers.js';
import { EMULATOR_VERSION } from '../../src/core/product.js';
import { answer, useReceivers } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * The Testcontainers module around a started container, with an emulator in this process in
 * the container's place (the image suite runs it against the real image): the keys, a
 * workspace per test, the control client, the relay, and stop().
 */
const started: InProcessEmulator[] = [];
const receivers = useReceivers();
afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});

async function standIn() {
  const em = createEmulator({ seed: 1 });
  started.push(em);
  const { url } = await em.start(0);
  let stopped = 0;
  const container = { getHost: () => '127.0.0.1', getMappedPort: () => 0, stop: async () => void stopped++ };
  return { emulator: new StartedOnboardingEmulator(container, url), stops: () => stopped };
}

describe('onboarding-emulator/testcontainers', () => {
  it('names the image of this version unless told otherwise, and says what to install without testcontainers', async () => {
    expect(DEFAULT_IMAGE).toBe(`ghcr.io/onboarding-emulator/onboarding-emulator:${EMULATOR_VERSION}`);
    expect(new OnboardingEmulatorContainer('local:1').image).toBe('local:1');
    // This repository does not install testcontainers (an optional peer).
    await expect(new OnboardingEmulatorContainer().start()).rejects.toThrow(/needs the testcontainers package: npm i -D testcontainers/);
  });

  it('gives the well-known keys, the default workspace\'s control client, and a workspace per test', async () => {
    const { emulator } = await standIn();
    expect(emulator.keys).toBe(WELL_KNOWN_KEYS);
    // Every well-known key is one the fixtures hold.
    expect((await emulator.control.keys()).map((k) => k.key)).toEqual(expect.arrayContaining(Object.values(WELL_KNOWN_KEYS)));
    const ws = await emulator.workspace({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00Z' } });
    expect(ws.key('owner')).toMatch(/^hrs_test_acme_owner_/);
    expect(ws.key('hrs_test_acme_manager')).toMatch(/^hrs_test_acme_manager_/);
    expect(() => ws.key('nobody')).toThrow(/has no key nobody/);
    await ws.control.clock.advance('1h');
    expect(await ws.control.clock.now()).toBe('2026-10-05T10:00:00.000Z');
    const res = await fetch(`${emulator.baseUrl}/v1/onboardings/onb_demo_jansen`, { headers: { Authorization: `Bearer ${ws.key('owner')}` } });
    expect(res.status).toBe(200);
    await ws.delete();
    expect((await fetch(`${emulator.baseUrl}/_emulator/workspaces/${ws.id}`)).status).toBe(404);
  });

  it('relays a workspace\'s webhooks to a receiver here, and stop() closes the relays before the container', async () => {
    const { emulator, stops } = await standIn();
    const r = await receivers.start(answer(200));
    const ws = await emulator.workspace();
    const relay = await ws.relay({ urlPrefix: 'http://unreachable.invalid/', forwardTo: r.url('/hooks') });
    const headers = { Authorization: `Bearer ${ws.key('owner')}`, 'Content-Type': 'application/json' };
    const hook = (await (await fetch(`${emulator.baseUrl}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://unreachable.invalid/hooks' }) })).json()) as { id: string };
    await fetch(`${emulator.baseUrl}/v1/webhooks/${hook.id}/test`, { method: 'POST', headers, body: '{}' });
    const met = await ws.waitFor({ for: 'delivery', address: hook.id, status: 'succeeded', timeout_ms: 5_000 });
    expect(met.data).toEqual([expect.objectContaining({ event_type: 'ping', status: 'succeeded' })]);
    expect(r.requests).toHaveLength(1); // the relay reported the receiver's answer, so it had arrived
    await expect(emulator.waitFor({ for: 'delivery', address: hook.id, timeout_ms: 0 })).rejects.toMatchObject({ status: 409, code: 'wait_timeout' }); // another workspace's
    await emulator.stop();
    expect(await relay.done).toEqual({ reason: 'closed' });
    expect(stops()).toBe(1);
    await until(async () => ((await (await fetch(`${emulator.baseUrl}/_emulator/workspaces/${ws.id}/relays`)).json()) as { data: unknown[] }).data.length === 0, 'the relay closed on the emulator');
  });
});
