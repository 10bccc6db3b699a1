import { Clock, type ClockOptions } from './clock.js';
import { FaultList } from './faults.js';
import { createIds, type IdFactory } from './ids.js';
import { IdempotencyStore } from './idempotency.js';
import { createRandom, type RandomSource } from './random.js';
import { Scheduler, type TimerHandlers } from './scheduler.js';
import { createStore, type Store } from './store.js';
import { TimerQueue } from './timers.js';
import type { DeliverySettings } from '../delivery/settings.js';
import type { AutopilotProgress, LoadedScenario } from '../scenarios/scenario.model.js';

export interface OutboxMail {
  id: string;
  to: string;
  kind: 'invitation' | 'new_link' | 'reminder' | 'contract' | 'one_time_code';
  subject: string;
  link: string | null;
  code: string | null;
  onboarding_id: string;
  environment: string;
  sent_at: string;
}

export interface AuditEntry {
  at: string;
  action: 'document.download';
  key: string;
  user_id: string | null;
  organization_id: string;
  onboarding_id: string;
  document_id: string;
  document_kind: string;
}

/** What a workspace is made from; kept so that a reset rebuilds exactly the same state. */
export interface WorkspaceRecipe {
  id: string;
  seed?: string | undefined;
  clock?: ClockOptions | undefined;
  /** Appended to every fixture key, so keys stay unique across workspaces. */
  keySuffix: string;
  /** --public-url: the base of links made with no request to take one from (scenario steps). */
  publicUrl?: string | undefined;
}

/**
 * Reactions and questions the composition root wires in, so the core needs no import of what
 * reacts or answers. Empty here: each caller declares the hooks it calls in its own module
 * (declaration merging), e.g. src/resources/onboardings/onboardings.hooks.ts.
 */
export interface WorkspaceHooks {}

/**
 * The isolation unit (design section 2): its own store, clock, random source and
 * idempotency records. Every service function takes the workspace first.
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
  scheduler!: Scheduler;
  /** Intercepted e-mails: nothing is ever sent. */
  outbox!: OutboxMail[];
  /** Every document download, for GET /_emulator/audit-log. */
  auditLog!: AuditEntry[];
  /** Injected faults for /v1 requests (POST /_emulator/faults). */
  faults!: FaultList;
  /** The loaded scenario (design section 8); null: nothing moves by itself but magic e-mail addresses. */
  scenario: LoadedScenario | null = null;
  /** Per onboarding id: the autopilot's progress on it. */
  autopilot!: Map<string, AutopilotProgress>;

  constructor(
    readonly recipe: WorkspaceRecipe,
    private readonly handlers: TimerHandlers = {},
    /** How webhooks are delivered (transport, URL policy, signature clock); set by the emulator. */
    readonly delivery?: DeliverySettings,
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
    this.store = createStore();
    this.idempotency = new IdempotencyStore();
    this.scheduler?.stop();
    this.timers = new TimerQueue();
    this.scheduler = new Scheduler(this, this.handlers);
    this.outbox = [];
    this.auditLog = [];
    this.faults = new FaultList();
    this.autopilot = new Map();
  }

  now(): string {
    return this.clock.iso();
  }
}
