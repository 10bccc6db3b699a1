import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail } from './core/errors.js';
import { Waits } from './core/waits.js';
import { createIds, type IdFactory } from './core/ids.js';
import { createRandom, restartRandom } from './core/random.js';
import { Clock, type ClockOptions } from './core/clock.js';
import { applyState, buildState, takeSnapshot, type WorkspaceSnapshot } from './persistence/snapshot.js';
import { Workspace } from './core/workspace.js';
import { checkFixtures, readFixturesFile } from './fixtures/fixtures.load.js';
import type { FixturesDocument } from './fixtures/fixtures.schemas.js';
import { populate } from './fixtures/fixtures.apply.js';
import { TIMER_HANDLERS, WORKSPACE_HOOKS } from './timer-handlers.js';
import { checkSnapshot, WORKSPACE_PARTS } from './workspace-parts.js';
import { STORE_LAYOUT } from './resources/collections.js';
import { setScenario } from './scenarios/scenario.autopilot.js';
import { installScenarioFaults } from './scenarios/scenario.faults.js';
import { checkScenario, mergeScenarios, readScenarioFile } from './scenarios/scenario.load.js';
import type { ScenarioDocument } from './scenarios/scenario.schemas.js';
import { deliverySettings, type DeliverySettings } from './delivery/settings.js';
import { inFlightAsDue } from './persistence/in-flight.js';
import type { RelayHub } from './delivery/relay.js';
import { nextSequence } from './core/store.js';
import type { WebhookEndpointRecord } from './resources/webhooks/webhooks.model.js';
import { JOURNAL_LIMIT, journalLimitProblem } from './core/journal.js';
import { UnmatchedRequests } from './core/unmatched.js';

const DEFAULT_FIXTURES_PATH = fileURLToPath(new URL('../fixtures/default.json', import.meta.url));
export const DEFAULT_WORKSPACE = 'default';

export interface EmulatorOptions {
  /** Webhook delivery: URL policy, signature clock, timeout, and (for tests) transport and resolver. */
  webhooks?: Partial<DeliverySettings>;
  /** A fixtures document, or the path of a JSON/YAML file; defaults to fixtures/default.json. */
  fixtures?: FixturesDocument | string;
  seed?: string | number;
  clock?: ClockOptions;
  /** Scenario files (their rules in the order given) or a document, for the default and new workspaces. */
  scenario?: ScenarioDocument | string | string[];
  /** The base URL of hosted links (`--public-url`); the HTTP adapter uses it unless given its own. */
  publicUrl?: string | undefined;
  /** `--journal-limit`: requests each workspace's journal keeps (0 to 100000; 0 turns it off); default 1000. */
  journalLimit?: number | undefined;
}

export interface WorkspaceInput {
  fixtures?: unknown;
  /** A scenario document; null for none; left out: the emulator's scenario. */
  scenario?: unknown;
  seed?: string | number | undefined;
  clock?: ClockOptions | undefined;
}

interface Entry {
  workspace: Workspace;
  fixtures: FixturesDocument;
}

function scenarioOption(option: EmulatorOptions['scenario']): { document: ScenarioDocument; source: string } | null {
  if (option === undefined) return null;
  if (typeof option === 'object' && !Array.isArray(option)) return { document: checkScenario(option), source: 'options' };
  const files = typeof option === 'string' ? [option] : option;
  if (!files.length) return null;
  return { document: mergeScenarios(files.map(readScenarioFile)), source: files.map((f) => basename(f)).join(', ') };
}

/**
 * The composition root: all workspaces and the index from API key to workspace. No HTTP here;
 * the Express adapter and createEmulator() both drive this object. The control API asks it only
 * for what `ControlHost` (src/control/control.host.ts) lists, the state file for what
 * `StateFileHost` does; each workspace announces its own changes (`workspace.activity`).
 */
export class Emulator {
  readonly startedAt: string;
  readonly seed: string | undefined;
  private readonly entries = new Map<string, Entry>();
  private readonly keyIndex = new Map<string, Workspace>();
  /** Request ids and workspace ids; workspaces have their own sources. */
  private ids: IdFactory;
  private readonly defaultFixtures: FixturesDocument;
  /** New workspaces keep the emulator's clock mode and start unless they ask otherwise. */
  private readonly clockDefaults: ClockOptions | undefined;
  private readonly delivery: DeliverySettings;
  readonly publicUrl: string | undefined;
  /** Entries each workspace's request journal keeps; 0: off. */
  readonly journalLimit: number;
  /** The requests that reached no workspace (no key, an unknown one, no route), with their near misses. */
  readonly unmatched: UnmatchedRequests;
  /** The scenario given at start; new workspaces play it unless they bring their own. */
  private readonly scenario: { document: ScenarioDocument; source: string } | null;

  constructor(options: EmulatorOptions = {}) {
    this.seed = options.seed === undefined ? undefined : String(options.seed);
    const random = createRandom(this.seed);
    this.ids = createIds(random.fork('emulator'));
    this.startedAt = new Clock().iso();
    const fx = options.fixtures ?? DEFAULT_FIXTURES_PATH;
    this.defaultFixtures = typeof fx === 'string' ? readFixturesFile(fx) : checkFixtures(fx);
    this.clockDefaults = options.clock;
    this.delivery = deliverySettings(options.webhooks);
    this.publicUrl = options.publicUrl?.replace(/\/+$/, '') || undefined;
    this.journalLimit = options.journalLimit ?? JOURNAL_LIMIT;
    const journalProblem = journalLimitProblem(this.journalLimit);
    if (journalProblem) throw new Error(`journalLimit: ${journalProblem}`);
    this.unmatched = new UnmatchedRequests(this.journalLimit);
    this.scenario = scenarioOption(options.scenario);
    const ws = this.add(DEFAULT_WORKSPACE, this.defaultFixtures, this.seed, options.clock, '');
    if (this.scenario) setScenario(ws, this.scenario.document, this.scenario.source);
  }

  requestId(): string {
    return this.ids.id('req');
  }

  get defaultWorkspace(): Workspace {
    return this.entries.get(DEFAULT_WORKSPACE)!.workspace;
  }

  workspaces(): Workspace[] {
    return [...this.entries.values()].map((e) => e.workspace);
  }

  workspace(id: string): Workspace {
    const entry = this.entries.get(id);
    if (!entry) throw fail('workspace_not_found', `No workspace with id ${id}.`, 'workspace_id');
    return entry.workspace;
  }

  workspaceForKey(key: string): Workspace | undefined {
    return this.keyIndex.get(key);
  }

  /** Fixtures are checked in full before anything is registered. */
  createWorkspace(input: WorkspaceInput = {}): Workspace {
    const fixtures = input.fixtures === undefined ? this.defaultFixtures : checkFixtures(input.fixtures, 'fixtures');
    const scenario = input.scenario === undefined ? this.scenario : input.scenario === null ? null : { document: checkScenario(input.scenario, 'scenario'), source: 'workspace' };
    const id = this.ids.id('ws').slice(0, 15);
    const seed = input.seed === undefined ? (this.seed === undefined ? undefined : `${this.seed}/${id}`) : String(input.seed);
    const clock = input.clock ?? this.clockDefaults;
    const ws = this.add(id, fixtures, seed, clock, `_${id.slice(3)}`);
    if (scenario) setScenario(ws, scenario.document, scenario.source);
    return ws;
  }

  deleteWorkspace(id: string): void {
    if (id === DEFAULT_WORKSPACE) throw fail('workspace_protected', 'The default workspace cannot be deleted; reset it instead.');
    const ws = this.workspace(id);
    this.unindex(ws);
    ws.scheduler.stop();
    this.entries.delete(id);
    this.delivery.relays.forgetWorkspace(id);
    ws.activity.notify(); // its waits end with workspace_not_found
  }

  /** The long polls of GET /_emulator/wait, across workspaces: a stopping server ends them. */
  readonly waits = new Waits();

  /** The webhook relays of every workspace (`onboarding-emulator listen`). */
  get relays(): RelayHub {
    return this.delivery.relays;
  }

  /** Back to the state right after creation: fixtures, clock and random sequence. */
  reset(ws: Workspace): void {
    const entry = this.entries.get(ws.id)!;
    this.unindex(ws);
    const sessions = this.sessionAddresses(ws);
    ws.clear();
    populate(ws, entry.fixtures, ws.recipe.keySuffix);
    this.keepSessionAddresses(ws, sessions);
    installScenarioFaults(ws);
    // The scenario kept counts as loaded again now: its expectations look at what happens from here.
    if (ws.scenario) ws.scenario = { ...ws.scenario, loaded_at: ws.now(), from_seq: ws.store.sequence.next };
    this.index(ws);
    ws.activity.notify();
  }

  /** Names the start scenario (--scenario) by its content; null when there is none. */
  startScenarioDigest(): string | null {
    return this.scenario ? createHash('sha256').update(JSON.stringify(this.scenario.document)).digest('hex').slice(0, 32) : null;
  }

  /**
   * After a restore at start (--state-file): a start scenario other than the one in force when
   * the file was written (`storedDigest`) replaces whatever the stored state plays; the same one
   * changes nothing, so a restart with the same command line continues exactly, a scenario
   * loaded or removed through the API included. A file without the digest compares documents.
   * Says whether it replaced one.
   */
  adoptStartScenario(ws: Workspace, storedDigest: string | null | undefined): boolean {
    if (!this.scenario) return false;
    const unchanged = storedDigest !== undefined
      ? storedDigest === this.startScenarioDigest()
      : JSON.stringify(ws.scenario?.document ?? null) === JSON.stringify(this.scenario.document);
    if (unchanged) return false;
    setScenario(ws, this.scenario.document, this.scenario.source);
    ws.activity.notify();
    return true;
  }

  /**
   * The workspace's whole state as one plain JSON document (src/persistence/snapshot.ts), taken at
   * once: webhook attempts still running are stored as due again (src/persistence/in-flight.ts).
   */
  snapshot(ws: Workspace): WorkspaceSnapshot {
    return inFlightAsDue(takeSnapshot(ws));
  }

  /**
   * After a restart that may have lost writes (the state file was not closed): the workspace's
   * ids, codes and secrets, and the request ids, come from streams of their own for this
   * restart number, so none repeats one the stopped process handed out. No effect unseeded.
   */
  restartStreams(ws: Workspace, restart: number): void {
    const state = ws.random.state();
    if (state) {
      ws.random = restartRandom(state, restart);
      ws.ids = createIds(ws.random);
    }
    if (this.seed !== undefined) this.ids = createIds(createRandom(this.seed).fork(`emulator restart ${restart}`));
  }

  /**
   * Replaces a workspace's whole state with a snapshot. Everything is checked and the new state
   * built before the workspace is touched, so a refusal changes nothing. Keys must not belong to
   * another workspace (a /v1 request finds its workspace by its key): 409 snapshot_key_conflict.
   * Work in flight (deliveries) must have settled first: it would write into the new state.
   * `restart`: the restart number of a state file not closed cleanly (restartStreams).
   */
  restore(ws: Workspace, document: unknown, restart?: number): void {
    const snapshot = checkSnapshot(document);
    for (const k of snapshot.store.keys) {
      const owner = this.keyIndex.get(k.key);
      if (owner && owner !== ws) {
        throw fail('snapshot_key_conflict', `The key ${k.key} of the snapshot belongs to workspace ${owner.id}; keys are unique across workspaces: restore it there, or delete that workspace first. Nothing was changed.`, 'store.keys');
      }
    }
    const state = buildState(snapshot, ws);
    this.unindex(ws);
    const sessions = this.sessionAddresses(ws);
    applyState(ws, state);
    this.keepSessionAddresses(ws, sessions);
    this.index(ws);
    if (restart !== undefined) this.restartStreams(ws, restart); // before timers that fell due draw ids
    ws.scheduler.runDue(); // what fell due while stored runs now; a realtime clock re-arms its alarm
    ws.activity.notify();
  }

  private add(id: string, fixtures: FixturesDocument, seed: string | undefined, clock: ClockOptions | undefined, keySuffix: string): Workspace {
    const ws = new Workspace({ id, seed, clock, keySuffix, publicUrl: this.publicUrl, journalLimit: this.journalLimit, collections: STORE_LAYOUT, parts: WORKSPACE_PARTS }, TIMER_HANDLERS, this.delivery, WORKSPACE_HOOKS);
    populate(ws, fixtures, keySuffix);
    for (const k of ws.store.keys.values()) {
      if (this.keyIndex.has(k.key)) throw fail('fixtures_invalid', `The key ${k.key} is already used by another workspace.`, 'keys');
    }
    this.entries.set(id, { workspace: ws, fixtures });
    this.index(ws);
    return ws;
  }

  /** The session addresses of the workspace's open relays (`listen`), as they are now. */
  private sessionAddresses(ws: Workspace): WebhookEndpointRecord[] {
    const live = this.relays.sessionUrls(ws.id);
    return ws.store.webhooks.values().filter((w) => live.has(w.url));
  }

  /**
   * A relay outlives a reset or a restore, and so does its session address: the same id and the
   * secret its `listen` printed, enabled, as if made now.
   */
  private keepSessionAddresses(ws: Workspace, sessions: WebhookEndpointRecord[]): void {
    for (const w of sessions) {
      if (!ws.store.organizations.get(w.organization_id)) continue;
      ws.store.webhooks.put({ ...w, seq: nextSequence(ws.store), status: 'enabled', dead_in_a_row: 0, created_at: ws.now() });
    }
  }

  private index(ws: Workspace): void {
    for (const k of ws.store.keys.values()) this.keyIndex.set(k.key, ws);
  }

  private unindex(ws: Workspace): void {
    for (const k of ws.store.keys.values()) this.keyIndex.delete(k.key);
  }
}
