import { createRequire } from 'node:module';
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
 *
 * Without a named image it takes a local `onboarding-emulator:<version>` or
 * `onboarding-emulator:latest` when the engine has one, else the registry image. Testcontainers
 * also starts Ryuk, its cleanup container, pulled from Docker Hub (testcontainers/ryuk); where
 * that pull cannot work, TESTCONTAINERS_RYUK_DISABLED=true skips it, and a container is then
 * removed only by stop(), not when the test process dies. The port is published on every
 * interface: Testcontainers takes a host port but no host address (withExposedPorts takes
 * `{ container, host, protocol }`, and the create options are not public), so the module offers
 * no loopback-only option. The engine's default binding address keeps every published port on
 * loopback: `"ip": "127.0.0.1"` in Docker's daemon.json, then restart the daemon.
 */

/** The image of this package's own version; ONBOARDING_EMULATOR_IMAGE names another (a local build, a mirror). */
export const DEFAULT_IMAGE = `ghcr.io/onboarding-emulator/onboarding-emulator:${EMULATOR_VERSION}`;
/** Local builds looked for, in order, before the registry image (the tags docs/testing.md builds). */
export const LOCAL_IMAGES = [`onboarding-emulator:${EMULATOR_VERSION}`, 'onboarding-emulator:latest'] as const;
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
/** What start() uses of the testcontainers package; a test hands in a stand-in through `load`. */
export interface TestcontainersModule {
  GenericContainer: new (image: string) => Generic;
  Wait: { forHttp(path: string, port: number): { forStatusCode(status: number): unknown } };
  /** Both in testcontainers 11 and 12; optional so an engine without them falls back to the registry image. */
  getContainerRuntimeClient?: () => Promise<{ image: { exists(name: unknown): Promise<boolean> } }>;
  ImageName?: { fromString(name: string): unknown };
}

const BUILD_HINT =
  `Build it from a checkout of the repository: docker build -t onboarding-emulator:${EMULATOR_VERSION} . ` +
  '(picked up by itself), or set ONBOARDING_EMULATOR_IMAGE to another image (a mirror, a local build).';

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200);
}

/** The Node range the installed testcontainers declares, when its package.json can be read. */
function requiredNode(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url)('testcontainers/package.json') as { engines?: { node?: string } };
    return pkg.engines?.node;
  } catch {
    return undefined;
  }
}

/**
 * "Not installed" only when testcontainers itself is missing; anything else (a dependency of it
 * missing, syntax this Node does not know) is an installed version this Node cannot load.
 */
function loadError(err: unknown): Error {
  // Node says "Cannot find package 'testcontainers'" (ERR_MODULE_NOT_FOUND), Vite's resolver "Could not resolve".
  if (/^(Cannot find (package|module)|Could not resolve) ['"]testcontainers['"]/.test((err as Error)?.message ?? '')) {
    return new Error('onboarding-emulator/testcontainers needs the testcontainers package: npm i -D testcontainers', { cause: err });
  }
  const needs = requiredNode();
  return new Error(
    `onboarding-emulator/testcontainers: the installed testcontainers cannot load on Node ${process.version} ` +
      `(it needs ${needs ? `Node ${needs}` : 'a newer Node'}: ${firstLine(err)}). ` +
      'On Node 20, install testcontainers 11: npm i -D testcontainers@11',
    { cause: err },
  );
}

async function importTestcontainers(): Promise<TestcontainersModule> {
  return (await import('testcontainers' as string)) as TestcontainersModule;
}

/** The first local build the engine has, else undefined (also when the engine cannot be asked). */
async function localImage(tc: TestcontainersModule): Promise<string | undefined> {
  if (!tc.getContainerRuntimeClient || !tc.ImageName) return undefined;
  try {
    const client = await tc.getContainerRuntimeClient();
    for (const name of LOCAL_IMAGES) if (await client.image.exists(tc.ImageName.fromString(name))) return name;
  } catch {
    // No answer about local images: the registry image, whose pull reports the engine's trouble.
  }
  return undefined;
}

/** A pull that failed: the registry unreachable, the tag missing, or no right to it. */
const PULL_FAILED = /no such host|ENOTFOUND|EAI_AGAIN|manifest unknown|not found|pull access denied|unauthorized|denied/i;

function imageError(image: string, err: unknown): Error {
  return new Error(`onboarding-emulator/testcontainers: no image ${image} on this machine and it could not be pulled. ${BUILD_HINT} (pull: ${firstLine(err)})`, {
    cause: err,
  });
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

  /** The image named by the argument or ONBOARDING_EMULATOR_IMAGE; without one, start() picks (see LOCAL_IMAGES). */
  readonly image: string | undefined;

  /** `load` stands in for `import('testcontainers')` (tests). */
  constructor(image?: string, private readonly load: () => Promise<TestcontainersModule> = importTestcontainers) {
    this.image = image || process.env.ONBOARDING_EMULATOR_IMAGE || undefined;
  }

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
    const tc = await this.load().catch((err: unknown) => {
      throw loadError(err);
    });
    const { GenericContainer, Wait } = tc;
    const image = this.image ?? (await localImage(tc)) ?? DEFAULT_IMAGE;
    const s = this.settings;
    const env: Record<string, string> = {
      EMULATOR_LOG_LEVEL: 'warn',
      ...(s.seed !== undefined ? { EMULATOR_SEED: s.seed } : {}),
      ...(s.frozenAt !== undefined ? { EMULATOR_CLOCK: 'frozen', EMULATOR_START_TIME: s.frozenAt } : {}),
      ...(s.scenarios?.length ? { EMULATOR_SCENARIO: s.scenarios.join(',') } : {}),
      ...s.environment,
    };
    const started = await new GenericContainer(image)
      .withExposedPorts(PORT)
      .withEnvironment(env)
      .withWaitStrategy(Wait.forHttp('/_emulator/health', PORT).forStatusCode(200))
      .withStartupTimeout(30_000)
      .start()
      .catch((err: unknown) => {
        throw PULL_FAILED.test(String((err as Error)?.message ?? err)) ? imageError(image, err) : err;
      });
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
