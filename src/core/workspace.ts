import { Clock, type ClockOptions } from './clock.js';
import { FaultList } from './faults.js';
import { createIds, type IdFactory } from './ids.js';
import { IdempotencyStore } from './idempotency.js';
import { createRandom, type RandomSource } from './random.js';
import { Scheduler, type TimerHandler as HandlerOf } from './scheduler.js';
import { createStore, type Store, type StoreLayout } from './store.js';
import { TimerQueue } from './timers.js';

/**
 * The types of what a workspace keeps for the layers above the core: the mail outbox, the
 * audit log, the scenario and autopilot state, the webhook delivery settings. Empty here: each
 * owner declares its entry in its own module (declaration merging), so the core names none of them.
 */
export interface WorkspaceKept {}

/** The type an owner declared under `K` in WorkspaceKept (never while none does). */
export type Kept<K extends string> = K extends keyof WorkspaceKept ? WorkspaceKept[K] : never;

/** What a timer of one kind does in a workspace when it fires (see Scheduler). */
export type TimerHandler = HandlerOf<Workspace>;
export type TimerHandlers = Readonly<Record<string, TimerHandler>>;

/** What a workspace is made from; kept so that a reset rebuilds exactly the same state. */
export interface WorkspaceRecipe {
  id: string;
  seed?: string | undefined;
  clock?: ClockOptions | undefined;
  /** Appended to every fixture key, so keys stay unique across workspaces. */
  keySuffix: string;
  /** --public-url: the base of links made with no request to take one from (scenario steps). */
  publicUrl?: string | undefined;
  /** The store's collections, as the resources declare them (src/resources/collections.ts). */
  collections: StoreLayout;
}

/**
 * Reactions and questions the composition root wires in, so the core needs no import of what
 * reacts or answers. Empty here: each caller declares the hooks it calls in its own module
 * (declaration merging), e.g. src/resources/onboardings/onboardings.hooks.ts.
 */
export interface WorkspaceHooks {}

/**
 * The isolation unit: its own store, clock, random source, timers and idempotency records,
 * so parallel test suites never see each other's data. Every service function takes the
 * workspace first. Adding state here: docs/architecture.md, "Add a piece of workspace state".
 */
export class Workspace {
  readonly id: string;
  /** On the workspace's own clock, so seeded frozen runs stay byte-identical. */
  readonly createdAt: string;
  clock!: Clock;
  random!: RandomSource;
  ids!: IdFactory;
  store!: Store;
  idempotency!: IdempotencyStore;
  timers!: TimerQueue;
  scheduler!: Scheduler<Workspace>;
  /** Intercepted e-mails: nothing is ever sent. */
  outbox!: Kept<'outboxMail'>[];
  /** Every document download, for GET /_emulator/audit-log. */
  auditLog!: Kept<'auditEntry'>[];
  /** Injected faults for /v1 requests (POST /_emulator/faults). */
  faults!: FaultList;
  /** The loaded scenario (docs/scenarios.md); null: only magic e-mail addresses move anything. */
  scenario: Kept<'loadedScenario'> | null = null;
  /** Per onboarding id: the autopilot's progress on it. */
  autopilot!: Map<string, Kept<'autopilotProgress'>>;

  constructor(
    readonly recipe: WorkspaceRecipe,
    private readonly handlers: TimerHandlers = {},
    /** How webhooks are delivered (transport, URL policy, signature clock); set by the emulator. */
    readonly delivery?: Kept<'deliverySettings'>,
    readonly hooks: WorkspaceHooks = {},
  ) {
    this.id = recipe.id;
    this.clear();
    this.createdAt = this.clock.iso();
  }

  /** Back to an empty store with the clock and random sequence as at creation. */
  clear(): void {
    this.clock = new Clock(this.recipe.clock);
    this.random = createRandom(this.recipe.seed);
    this.ids = createIds(this.random);
    this.store = createStore(this.recipe.collections);
    this.idempotency = new IdempotencyStore();
    this.scheduler?.stop();
    this.timers = new TimerQueue();
    this.scheduler = new Scheduler<Workspace>(this, this.handlers);
    this.outbox = [];
    this.auditLog = [];
    this.faults = new FaultList();
    this.autopilot = new Map();
  }

  now(): string {
    return this.clock.iso();
  }
}
