import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { DEFAULT_IMAGE, OnboardingEmulatorContainer, StartedOnboardingEmulator, WELL_KNOWN_KEYS, type TestcontainersModule } from '../../src/testcontainers.js';
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

/**
 * testcontainers itself replaced: the images the engine has, what a pull answers, and which
 * image the module asked for; start() hands back a container whose host is the emulator here.
 */
function fakeTestcontainers(opts: { url?: string; local?: string[]; pull?: Error }) {
  const asked: string[] = [];
  const exists: string[] = [];
  const module: TestcontainersModule = {
    GenericContainer: class {
      constructor(readonly image: string) {
        asked.push(image);
      }
      withExposedPorts() { return this; }
      withEnvironment() { return this; }
      withCommand() { return this; }
      withWaitStrategy() { return this; }
      withStartupTimeout() { return this; }
      async start() {
        if (opts.pull && !opts.local?.includes(this.image)) throw opts.pull;
        const port = Number(new URL(opts.url ?? 'http://127.0.0.1:1').port);
        return { getHost: () => '127.0.0.1', getMappedPort: () => port, stop: async () => undefined };
      }
    },
    Wait: { forHttp: () => ({ forStatusCode: () => ({}) }) },
    ImageName: { fromString: (name: string) => ({ string: name }) },
    getContainerRuntimeClient: async () => ({
      image: {
        exists: async (name: unknown) => {
          const n = (name as { string: string }).string;
          exists.push(n);
          return opts.local?.includes(n) ?? false;
        },
      },
    }),
  };
  return { load: async () => module, asked, exists };
}

/** The error start() rejects with; fails the test when it resolves. */
async function startError(container: OnboardingEmulatorContainer): Promise<Error> {
  const outcome = await container.start().then(
    () => undefined,
    (e: Error) => e,
  );
  if (!outcome) throw new Error('start() resolved');
  return outcome;
}

describe('onboarding-emulator/testcontainers', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('names the image of this version unless told otherwise, and says what to install without testcontainers', async () => {
    expect(DEFAULT_IMAGE).toBe(`ghcr.io/onboarding-emulator/onboarding-emulator:${EMULATOR_VERSION}`);
    expect(new OnboardingEmulatorContainer('local:1').image).toBe('local:1');
    // This repository does not install testcontainers (an optional peer).
    const err = await startError(new OnboardingEmulatorContainer());
    expect(err.message).toBe('onboarding-emulator/testcontainers needs the testcontainers package: npm i -D testcontainers');
    expect((err.cause as Error).message).toMatch(/resolve "testcontainers"/); // Vite's resolver here, Node's below
  });

  it('takes a local build of this version, then :latest, before the registry image', async () => {
    vi.stubEnv('ONBOARDING_EMULATOR_IMAGE', '');
    const em = createEmulator({ seed: 1 });
    started.push(em);
    const { url } = await em.start(0);
    const both = fakeTestcontainers({ url, local: [`onboarding-emulator:${EMULATOR_VERSION}`, 'onboarding-emulator:latest'] });
    const running = await new OnboardingEmulatorContainer(undefined, both.load).start();
    expect(both.asked).toEqual([`onboarding-emulator:${EMULATOR_VERSION}`]);
    expect((await fetch(`${running.baseUrl}/_emulator/health`)).status).toBe(200);

    const latest = fakeTestcontainers({ url, local: ['onboarding-emulator:latest'] });
    await new OnboardingEmulatorContainer(undefined, latest.load).start();
    expect(latest.asked).toEqual(['onboarding-emulator:latest']);

    const none = fakeTestcontainers({ url });
    await new OnboardingEmulatorContainer(undefined, none.load).start();
    expect(none.exists).toEqual([`onboarding-emulator:${EMULATOR_VERSION}`, 'onboarding-emulator:latest']);
    expect(none.asked).toEqual([DEFAULT_IMAGE]);
  });

  it('a named image wins over a local build: the argument, then ONBOARDING_EMULATOR_IMAGE', async () => {
    const local = [`onboarding-emulator:${EMULATOR_VERSION}`];
    const named = fakeTestcontainers({ local });
    await new OnboardingEmulatorContainer('mirror.example/emulator:1', named.load).start();
    expect(named.asked).toEqual(['mirror.example/emulator:1']);
    vi.stubEnv('ONBOARDING_EMULATOR_IMAGE', 'mirror.example/emulator:2');
    const fromEnv = fakeTestcontainers({ local });
    await new OnboardingEmulatorContainer(undefined, fromEnv.load).start();
    expect(fromEnv.asked).toEqual(['mirror.example/emulator:2']);
    expect([...named.exists, ...fromEnv.exists]).toEqual([]); // the engine is not even asked
  });

  it('an image that cannot be pulled gives one message: the build command and ONBOARDING_EMULATOR_IMAGE, the pull as cause', async () => {
    vi.stubEnv('ONBOARDING_EMULATOR_IMAGE', '');
    const pulls = [
      new Error('(HTTP code 500) server error - Get "https://ghcr.io/v2/": dial tcp: lookup ghcr.io on 127.0.0.53:53: no such host\n    at resolver'),
      new Error(`(HTTP code 404) unexpected - manifest for ${DEFAULT_IMAGE} not found: manifest unknown`),
      new Error('(HTTP code 500) server error - Head "https://ghcr.io/v2/x/manifests/1": unauthorized'),
    ];
    for (const pull of pulls) {
      const err = await startError(new OnboardingEmulatorContainer(undefined, fakeTestcontainers({ pull }).load));
      const [first, ...rest] = err.message.split('\n');
      expect(rest).toEqual([]);
      expect(first).toContain(`no image ${DEFAULT_IMAGE} on this machine and it could not be pulled`);
      expect(first).toContain(`docker build -t onboarding-emulator:${EMULATOR_VERSION} .`);
      expect(first).toContain('ONBOARDING_EMULATOR_IMAGE');
      expect(first).not.toContain('at resolver');
      expect(err.cause).toBe(pull);
    }
    // Any other failure (the container did not get healthy) passes as it was.
    const other = new Error('Timed out after 30000ms while waiting for container to be ready');
    await expect(new OnboardingEmulatorContainer(undefined, fakeTestcontainers({ pull: other }).load).start()).rejects.toBe(other);
  });

  it('says what to install under plain Node too (the built module, Node\'s own resolver)', () => {
    const script = "const { OnboardingEmulatorContainer } = await import('./dist/testcontainers.js'); await new OnboardingEmulatorContainer().start().catch((e) => console.log(e.message + '|' + e.cause.code));";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(out.trim()).toBe('onboarding-emulator/testcontainers needs the testcontainers package: npm i -D testcontainers|ERR_MODULE_NOT_FOUND');
  });

  it('tells "not installed" from "installed but cannot load on this Node"', async () => {
    const missing = Object.assign(new Error("Cannot find package 'testcontainers' imported from /app/node_modules/onboarding-emulator/dist/testcontainers.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const notInstalled = await startError(new OnboardingEmulatorContainer('x', () => Promise.reject(missing)));
    expect(notInstalled.message).toMatch(/needs the testcontainers package: npm i -D testcontainers$/);
    expect(notInstalled.cause).toBe(missing);

    const cannotLoad = [
      new SyntaxError("Unexpected token '??='"),
      // A dependency of testcontainers missing is not testcontainers missing.
      Object.assign(new Error("Cannot find package 'ssh-remote-port-forward' imported from /app/node_modules/testcontainers/build/index.js"), { code: 'ERR_MODULE_NOT_FOUND' }),
    ];
    for (const cause of cannotLoad) {
      const err = await startError(new OnboardingEmulatorContainer('x', () => Promise.reject(cause)));
      expect(err.message).not.toMatch(/needs the testcontainers package/);
      expect(err.message).toContain(`cannot load on Node ${process.version}`);
      // Not installed here, so its engines field cannot be read.
      expect(err.message).toContain('it needs a newer Node');
      expect(err.message).toContain('npm i -D testcontainers@11');
      expect(err.cause).toBe(cause);
    }
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
