import { fail } from './errors.js';

/** An item played a number of times (`remaining`; null: until removed or its window ends). */
export interface Counted {
  id: string;
  remaining: number | null;
}

/**
 * Faults waiting to be played (request faults, delivery faults): kept in the order they were
 * added, which is the order they are matched in; each take uses one of a fault's times, and one
 * with none left is gone. Callers get copies, never the items themselves.
 */
export class CountedList<T extends Counted> {
  protected items: T[] = [];

  /** `noun` names an item in the 404 for an unknown id ("fault", "delivery fault"). */
  constructor(private readonly noun: string) {}

  /** How many are waiting: 0 lets a caller skip what only a fault needs. */
  get size(): number {
    return this.items.length;
  }

  protected all(): T[] {
    return this.items.map((f) => ({ ...f }));
  }

  protected push(item: T): T {
    this.items.push(item);
    return { ...item };
  }

  /** Replaces the items with copies of these, in this order (a snapshot read back). */
  protected load(items: readonly T[]): this {
    this.items = items.map((f) => ({ ...f }));
    return this;
  }

  /** A copy of one item, with what it has left to play. */
  get(id: string): T {
    return { ...this.items[this.indexOf(id)]! };
  }

  remove(id: string): void {
    this.items.splice(this.indexOf(id), 1);
  }

  private indexOf(id: string): number {
    const at = this.items.findIndex((f) => f.id === id);
    if (at < 0) throw fail('resource_not_found', `No active ${this.noun} ${id}.`, 'id');
    return at;
  }

  /** Removes every item, or those `drop` picks; returns how many went. */
  clear(drop: (item: T) => boolean = () => true): number {
    const before = this.items.length;
    this.items = this.items.filter((f) => !drop(f));
    return before - this.items.length;
  }

  /** Uses one time of the first item that matches (`use` records more on it); a copy, or undefined. */
  protected consume(matches: (item: T) => boolean, use?: (item: T) => void): T | undefined {
    const at = this.items.findIndex(matches);
    if (at < 0) return undefined;
    const item = this.items[at]!;
    use?.(item);
    if (item.remaining !== null) {
      item.remaining -= 1;
      if (item.remaining <= 0) this.items.splice(at, 1);
    }
    return { ...item };
  }
}
