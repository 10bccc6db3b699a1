/**
 * What a collection's puts and deletes changed since the last takeChanges(): the ids deleted
 * (applied first), then every record put that is still there, in the collection's order for
 * those inserted afresh (appended), so applying both to the saved records gives the records now.
 */
export interface CollectionChanges<T> {
  deleted: string[];
  put: T[];
}

/** Changes a collection's log holds at least, however few its records. */
const FEED_MIN = 4096;

/** An insertion-ordered collection; records are replaced whole, never mutated in place. */
export class Collection<T> {
  private readonly items = new Map<string, T>();
  /**
   * Once trackChanges() was called (the state file): each id put or deleted since the last
   * takeChanges(), true when it was deleted (its position may have changed). An id inserted
   * afresh moves to the end, so the inserted ones keep the collection's order.
   */
  private touched: Map<string, boolean> | null = null;

  /**
   * Once changeMark() was called (a wait follows the collection): the id of every put and
   * delete since, oldest first, the first numbered `logBase`. Halved when it grows past twice
   * the records (and FEED_MIN): a reader that far behind reads the collection whole instead.
   */
  private log: string[] | null = null;
  private logBase = 0;

  constructor(readonly idOf: (item: T) => string) {}

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  /** Adds a new record or replaces the stored one with the same id. */
  put(item: T): T {
    const id = this.idOf(item);
    const touched = this.touched;
    if (touched) {
      if (this.items.has(id)) {
        if (!touched.has(id)) touched.set(id, false);
      } else {
        const deleted = touched.get(id) ?? false;
        touched.delete(id);
        touched.set(id, deleted);
      }
    }
    this.items.set(id, item);
    if (this.log) this.logged(id);
    return item;
  }

  delete(id: string): boolean {
    const had = this.items.delete(id);
    if (had) {
      this.touched?.set(id, true);
      if (this.log) this.logged(id);
    }
    return had;
  }

  private logged(id: string): void {
    const log = this.log!;
    log.push(id);
    if (log.length > Math.max(FEED_MIN, 2 * this.items.size)) {
      const dropped = log.length >> 1;
      this.log = log.slice(dropped);
      this.logBase += dropped;
    }
  }

  /** Where the collection's changes stand now, for changedSince(); from the first call on, puts and deletes are logged. */
  changeMark(): number {
    this.log ??= [];
    return this.logBase + this.log.length;
  }

  /**
   * The ids put or deleted since `mark` (one may come more than once), or undefined when those
   * changes are no longer held: the reader reads the collection whole.
   */
  changedSince(mark: number): readonly string[] | undefined {
    if (!this.log || mark < this.logBase) return undefined;
    return this.log.slice(mark - this.logBase);
  }

  /** From now on, remembers what changes, for takeChanges(). */
  trackChanges(): void {
    this.touched = new Map();
  }

  /** What changed since trackChanges() or the last call, and starts afresh; null when not tracking. */
  takeChanges(): CollectionChanges<T> | null {
    const touched = this.touched;
    if (!touched) return null;
    const deleted: string[] = [];
    const put: T[] = [];
    for (const [id, wasDeleted] of touched) {
      if (wasDeleted) deleted.push(id);
      const item = this.items.get(id);
      if (item !== undefined) put.push(item);
    }
    this.touched = new Map();
    return { deleted, put };
  }

  /** Oldest first. */
  values(): T[] {
    return [...this.items.values()];
  }

  get size(): number {
    return this.items.size;
  }
}

/**
 * The record type of each collection of the store, by collection name. Empty here: the
 * resources declare their collections (declaration merging, in src/resources/collections.ts),
 * so the core names none of their records.
 */
export interface StoreRecords {}

/** Every collection's name and the field its records are indexed by, in the order snapshots list them. */
export type StoreLayout = { readonly [K in keyof StoreRecords]: keyof StoreRecords[K] & string };

/** Everything a workspace stores. Each record is plain JSON so a snapshot can hold it. */
export type Store = { [K in keyof StoreRecords]: Collection<StoreRecords[K]> } & {
  /** Monotonic counter giving every created record a stable position. */
  sequence: { next: number };
};

/** Every collection of the store, each as an array of its records, oldest first: a snapshot's `store`. */
export type SnapshotStore = { [K in keyof Store]: Store[K] extends Collection<infer T> ? T[] : number };

/** The names of the store's collections, in the layout's order. */
export function collectionNames(layout: StoreLayout): (keyof StoreRecords)[] {
  return Object.keys(layout) as (keyof StoreRecords)[];
}

export function createStore(layout: StoreLayout): Store {
  const collections = Object.fromEntries(
    Object.entries(layout).map(([name, field]) => [name, new Collection<Record<string, string>>((r) => r[field as string]!)]),
  );
  return { ...collections, sequence: { next: 1 } } as unknown as Store;
}

export function nextSequence(store: Store): number {
  return store.sequence.next++;
}

/** A plain-JSON copy of the whole store (collections in their layout order, then the sequence). */
export function snapshotStore(store: Store): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(store).map(([name, value]) => [name, value instanceof Collection ? value.values() : (value as { next: number }).next]),
  );
}
