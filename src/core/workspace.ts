import { Activity } from './activity.js';
import type { Clock, ClockMode, ClockOptions } from './clock.js';
import type { ErrorDetail } from './errors.js';
import type { Fault, FaultList } from './faults.js';
import { createIds, type IdFactory } from './ids.js';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency.js';
import type { RandomSource, RandomState } from './random.js';
import { Scheduler, type TimerHandler as HandlerOf } from './scheduler.js';
import type { TSchema } from './schema.js';
import type { SnapshotStore, Store, StoreLayout } from './store.js';
import type { TimerQueue, TimerQueueState } from './timers.js';

/**
 * The types of what a workspace is handed by the layers above the core and keeps without
 * saving it: the webhook delivery settings. Empty here: each owner declares its entry in its
 * own module (declaration merging), so the core names none of them.
 * @public exported for those declarations, which import nothing from here by name
 */
export interface WorkspaceKept {}

/** One piece of workspace state: its field in a snapshot, its live type and its plain-JSON type there. */
export interface PartShape<Name extends string, Value, Saved = Value> {
  name: Name;
  value: Value;
  saved: Saved;
}

/**
 * Every piece of state a workspace holds, by the workspace field holding it: what a reset
 * makes afresh and a snapshot saves. The core's own pieces are here; each layer above declares
 * its own in its module (declaration merging), so the core names none of them. A declared piece
 * is a field of Workspace and a field of the snapshot document, and the table of parts
 * (WorkspacePartTable) does not compile without its part.
 * @public exported for those declarations, which import nothing from here by name
 */
export interface WorkspaceParts {
  /**
   * `now` is the emulated time when taken. A realtime clock is restored with its `offset_ms`
   * (emulated minus wall time), so it keeps following the wall clock; a frozen one at `now`.
   */
  clock: PartShape<'clock', Clock, { mode: ClockMode; now: string; offset_ms: number }>;
  /** A seeded source's position, so ids after a restore continue the same sequence; null: OS random. */
  random: PartShape<'random', RandomSource, RandomState | null>;
  store: PartShape<'store', Store, SnapshotStore>;
  timers: PartShape<'timers', TimerQueue, TimerQueueState>;
  idempotency: PartShape<'idempotency', IdempotencyStore, IdempotencyRecord[]>;
  /** Injected faults for /v1 requests (POST /_emulator/faults). */
  faults: PartShape<'faults', FaultList, Fault[]>;
}

export type PartField = keyof WorkspaceParts;
type PartValue<K extends PartField> = WorkspaceParts[K]['value'];
type PartSaved<K extends PartField> = WorkspaceParts[K]['saved'];
/** A value for every part: what a workspace holds, and what a restore builds before it swaps it in. */
export type PartValues = { [K in PartField]: PartValue<K> };
/** Every part under its snapshot field, as a snapshot document holds them. */
export type SavedParts = { [K in PartField as WorkspaceParts[K]['name']]: PartSaved<K> };

/**
 * How one piece of state is made, saved and read back. Its owner writes it beside the
 * piece's type; the composition root lists every part in one table (src/workspace-parts.ts),
 * which the workspace is given in its recipe, so the core applies parts it does not know.
 */
export interface WorkspacePart<K extends PartField> {
  /** Its field in the snapshot document. */
  readonly name: WorkspaceParts[K]['name'];
  /** The value at creation and after a reset. */
  create(ws: Workspace): PartValue<K>;
  /** Its snapshot field; may share the live objects: the snapshot is copied whole after. */
  save(value: PartValue<K>, ws: Workspace): PartSaved<K>;
  /**
   * The value from a snapshot field the schema and check() accepted, a copy nothing else holds.
   * The workspace is only read (its recipe); it throws the refusal when the field still cannot
   * be used.
   */
  load(saved: PartSaved<K>, ws: Workspace): PartValue<K>;
  /** The schema of its snapshot field. */
  readonly schema: TSchema<PartSaved<K>>;
  /** What the schema cannot say, with paths from the document's root. */
  check?(saved: PartSaved<K>): ErrorDetail[];
}

/**
 * One part per declared piece of state, in the order a snapshot lists them. Keyed by the
 * workspace field, so a piece declared without its part (or the other way round) does not compile.
 */
export type WorkspacePartTable = { readonly [K in PartField]: WorkspacePart<K> };

/** The type an owner declared under `K` in WorkspaceKept (never while none does). */
type Kept<K extends string> = K extends keyof WorkspaceKept ? WorkspaceKept[K] : never;

/** What a timer of one kind does in a workspace when it fires (see Scheduler). */
type TimerHandler = HandlerOf<Workspace>;
export type TimerHandlers = Readonly<Record<string, TimerHandler>>;

/** What a workspace is made from; kept so that a reset rebuilds exactly the same state. */
interface WorkspaceRecipe {
  id: string;
  seed?: string | undefined;
  clock?: ClockOptions | undefined;
  /** Appended to every fixture key, so keys stay unique across workspaces. */
  keySuffix: string;
  /** --public-url: the base of links made with no request to take one from (scenario steps). */
  publicUrl?: string | undefined;
  /** --journal-limit: entries the request journal keeps; 0 turns it off; default 1000. */
  journalLimit?: number | undefined;
  /** The store's collections, as the resources declare them (src/resources/collections.ts). */
  collections: StoreLayout;
  /** Every piece of state and how it is made, saved and read back (src/workspace-parts.ts). */
  parts: WorkspacePartTable;
}

/**
 * Reactions and questions the composition root wires in, so the core needs no import of what
 * reacts or answers. Empty here: each caller declares the hooks it calls in its own module
 * (declaration merging), e.g. src/resources/onboardings/onboardings.hooks.ts.
 */
export interface WorkspaceHooks {}

/** The parts' values are the workspace's fields (clock, store, timers, outbox, ...). */
export interface Workspace extends PartValues {}

/**
 * The isolation unit: its own store, clock, random source, timers and idempotency records,
 * so parallel test suites never see each other's data. Every service function takes the
 * workspace first. Its state is the parts of its recipe; adding a piece: docs/architecture.md,
 * "Add a piece of workspace state".
 */
export class Workspace {
  readonly id: string;
  /** On the workspace's own clock, so seeded frozen runs stay byte-identical. */
  readonly createdAt: string;
  /** Drawn from `random`: made anew whenever the random source is replaced (install). */
  ids!: IdFactory;
  scheduler!: Scheduler<Workspace>;
  /** Its one change notice (core/activity.ts), which the waits on it and the state file hear; kept across a reset, as they are. */
  readonly activity = new Activity();

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

  /**
   * Back to an empty store with the clock and random sequence as at creation: every part's
   * create(), in the table's order (a part may keep its value: the scenario does).
   */
  clear(): void {
    this.scheduler?.stop();
    const fresh: Record<string, unknown> = {};
    for (const [field, part] of Object.entries(this.recipe.parts)) fresh[field] = (part as WorkspacePart<PartField>).create(this);
    this.install(fresh as PartValues);
    this.scheduler = new Scheduler<Workspace>(this, this.handlers);
  }

  /**
   * Swaps in a value for every part at once (a reset, a restore), and the ids drawn from the
   * new random source. The caller stops the realtime alarm first.
   */
  install(values: PartValues): void {
    Object.assign(this, values);
    this.ids = createIds(this.random);
  }

  now(): string {
    return this.clock.iso();
  }
}
