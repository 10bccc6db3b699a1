import { DEFAULT_PORT, EMULATOR_VERSION } from './core/product.js';
import type { ControlClient, KeyInfo } from './control/control.client.js';
import type { WorkspaceInput } from './emulator.js';
import { WELL_KNOWN_KEYS, type WellKnownKey } from './fixtures/well-known-keys.js';
import { httpControl } from './client/http.js';
import { startRelay, type RelayHandle, type RelayOptions } from './client/relay.js';

/**
 * `onboarding-emulator/testcontainers`: the emulator's image started by Testcontainers for Node
 * (an optional peer dependency, loaded only here), waited on through /_emulator/health, with the
 * base URL, the well-known keys, a workspace per test, a typed control client and the webhook
 * relay to a receiver in the test process, which a container cannot reach by itself.
 */

/** The image of this package's own version; ONBOARDING_EMULATOR_IMAGE names another (a local build, a mirror). */
export const DEFAULT_IMAGE = `ghcr.io/onboarding-emulator/onboarding-emulator:${EMULATOR_VERSION}`;
const PORT = DEFAULT_PORT;

export { WELL_KNOWN_KEYS, type WellKnownKey };

/** The few Testcontainers calls this module makes, so it compiles and loads without the package. */
interface Started {
  getHost(): string;
  getMappedPort(port: number): number;
  stop(options?: { timeout?: number }): Promise<unknown>;
}
interface Generic {
  withExposedPorts(...ports: number[]): Generic;
  withEnvironment(env: Record<string, string>): Generic;
  withCommand(command: string[]): Generic;
  withWaitStrategy(strategy: unknown): Generic;
  withStartupTimeout(ms: number): Generic;
  start(): Promise<Started>;
}
interface TestcontainersModule {
  GenericContainer: new (image: string) => Generic;
  Wait: { forHttp(path: string, port: number): { forStatusCode(status: number): unknown } };
}

async function loadTestcontainers(): Promise<TestcontainersModule> {
  try {
    return (await import('testcontainers' as string)) as TestcontainersModule;
  } catch (err) {
    throw new Error(`onboarding-emulator/testcontainers needs the testcontainers package: npm i -D testcontainers (${(err as Error).message})`);
  }
}

/** Options of `serve`, as the image's EMULATOR_* variables take them. */
export interface ContainerSettings {
  seed?: string;
  /** A frozen clock at this instant (ISO 8601); without it the clock runs in real time. */
  frozenAt?: string;
  /** Ready scenarios by name (happy-path, ...) or paths inside the container. */
  scenarios?: string[];
  /** Any other EMULATOR_* variable, e.g. { EMULATOR_WEBHOOK_TIMEOUT_MS: '2000' }. */
  environment?: Record<string, string>;
}

/** A container of the emulator's image, configured, then started with start(). */
export class OnboardingEmulatorContainer {
  private readonly settings: Required<Pick<ContainerSettings, 'environment'>> & ContainerSettings = { environment: {} };

  constructor(readonly image: string = process.env.ONBOARDING_EMULATOR_IMAGE || DEFAULT_IMAGE) {}

  withSeed(seed: string): this {
    this.settings.seed = seed;
    return this;
  }

  withFrozenClock(at: string): this {
    this.settings.frozenAt = at;
    return this;
  }

  withScenario(...names: string[]): this {
    this.settings.scenarios = [...(this.settings.scenarios ?? []), ...names];
    return this;
  }

  withEnvironment(env: Record<string, string>): this {
    Object.assign(this.settings.environment, env);
    return this;
  }

  async start(): Promise<StartedOnboardingEmulator> {
    const { GenericContainer, Wait } = await loadTestcontainers();
    const s = this.settings;
    const env: Record<string, string> = {
      EMULATOR_LOG_LEVEL: 'warn',
      ...(s.seed !== undefined ? { EMULATOR_SEED: s.seed } : {}),
      ...(s.frozenAt !== undefined ? { EMULATOR_CLOCK: 'frozen', EMULATOR_START_TIME: s.frozenAt } : {}),
      ...(s.scenarios?.length ? { EMULATOR_SCENARIO: s.scenarios.join(',') } : {}),
      ...s.environment,
    };
    const started = await new GenericContainer(this.image)
      .withExposedPorts(PORT)
      .withEnvironment(env)
      .withWaitStrategy(Wait.forHttp('/_emulator/health', PORT).forStatusCode(200))
      .withStartupTimeout(30_000)
      .start();
    return new StartedOnboardingEmulator(started, `http://${started.getHost()}:${started.getMappedPort(PORT)}`);
  }
}

/** A workspace of its own for one test: its keys (the well-known ones with its suffix), its clock and control, and its removal. */
export interface TestWorkspace {
  readonly id: string;
  /** The workspace's own copy of a well-known key: key('owner') or key('hrs_test_acme_owner'). */
  key(name: WellKnownKey | string): string;
  readonly keys: KeyInfo[];
  readonly control: ControlClient;
  /**
   * Holds until an event, a delivery, a request or a status shows up in this workspace, or
   * nothing is left to run (GET /_emulator/wait), in place of a sleep: `waitFor({ for: 'delivery',
   * status: 'succeeded' })`. Rejects with ApiError wait_timeout naming the nearest candidates.
   */
  readonly waitFor: ControlClient['waitFor'];
  /** Starts a relay for this workspace's webhook addresses (see StartedOnboardingEmulator.relay). */
  relay(options?: Omit<RelayOptions, 'url' | 'key' | 'workspace'>): Promise<RelayHandle>;
  /** Deletes the workspace (and closes its relays). */
  delete(): Promise<void>;
}

export class StartedOnboardingEmulator {
  /** The typed control client of the default workspace (`control.workspace.get(id)` for another). */
  readonly control: ControlClient;
  readonly keys = WELL_KNOWN_KEYS;
  private readonly relays = new Set<RelayHandle>();

  constructor(readonly container: Started, readonly baseUrl: string) {
    this.control = httpControl({ url: baseUrl });
  }

  /** GET /_emulator/wait on the default workspace (TestWorkspace.waitFor for a test's own). */
  waitFor(...args: Parameters<ControlClient['waitFor']>): ReturnType<ControlClient['waitFor']> {
    return this.control.waitFor(...args);
  }

  /**
   * A new workspace for one test (the fixtures, its own keys, and a frozen clock when `clock`
   * says so); delete() it after the test, for example in afterEach.
   */
  async workspace(input: WorkspaceInput = {}): Promise<TestWorkspace> {
    // Sent as its JSON, as the body of the row: a Date start goes as its ISO text, anything else the row checks.
    const created = await this.control.workspace.create(input as Parameters<ControlClient['workspace']['create']>[0]);
    const id = created.id;
    const relayFor = (options: Omit<RelayOptions, 'url' | 'key' | 'workspace'> = {}) => this.relay({ ...options, workspace: id });
    const control = httpControl({ url: this.baseUrl }, id);
    return {
      id,
      keys: created.keys,
      control,
      waitFor: control.waitFor,
      key: (name) => {
        const base = (WELL_KNOWN_KEYS as Record<string, string>)[name] ?? name;
        const found = created.keys.find((k) => k.key === base || k.key.startsWith(`${base}_`));
        if (!found) throw new Error(`workspace ${id} has no key ${name} (its keys: ${created.keys.map((k) => k.key).join(', ')})`);
        return found.key;
      },
      relay: relayFor,
      delete: async () => {
        await control.workspace.delete(id);
      },
    };
  }

  /**
   * Webhooks to a receiver in the test process: the relay takes the workspace's messages (the
   * default workspace unless `workspace` or `key` names another) and posts each one to its
   * address's own URL, or to `forwardTo`. Register the receiver's real URL (e.g.
   * http://127.0.0.1:3000/webhooks) as the webhook address and pass `urlPrefix` to relay only those.
   */
  async relay(options: Omit<RelayOptions, 'url'> = {}): Promise<RelayHandle> {
    const handle = await startRelay({ ...options, url: this.baseUrl });
    this.relays.add(handle);
    void handle.done.then(() => this.relays.delete(handle));
    return handle;
  }

  /** Closes the relays, then stops and removes the container. */
  async stop(): Promise<void> {
    await Promise.all([...this.relays].map((r) => r.close()));
    await this.container.stop();
  }
}
