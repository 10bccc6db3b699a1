/** An insertion-ordered collection; records are replaced whole, never mutated in place. */
class Collection<T> {
  private readonly items = new Map<string, T>();

  constructor(private readonly idOf: (item: T) => string) {}

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  has(id: string): boolean {
    return this.items.has(id);
  }

  /** Adds a new record or replaces the stored one with the same id. */
  put(item: T): T {
    this.items.set(this.idOf(item), item);
    return item;
  }

  delete(id: string): boolean {
    return this.items.delete(id);
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
