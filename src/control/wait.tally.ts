import type { JournalEntry, RequestJournal } from '../core/journal.js';
import type { Collection } from '../core/store.js';

/**
 * What a wait's check counts, kept up to date from what changed since its last look rather
 * than read whole on every change: a change costs the waits the records it touched, whatever
 * the workspace holds. A reset or a restore gives the workspace new collections and a new
 * journal, which are read whole once.
 */

/** The records of a collection that match, by id. */
export class RecordTally<T extends { seq: number }> {
  private source: Collection<T> | undefined;
  private mark = 0;
  private readonly ids = new Set<string>();

  constructor(private readonly collection: () => Collection<T>, private readonly matches: (item: T) => boolean) {}

  get count(): number {
    return this.ids.size;
  }

  /** Brings the matches up to date; `whole`: reads every record again (what a match reads beside the record changed). */
  update(whole = false): void {
    const c = this.collection();
    const changed = whole || c !== this.source ? undefined : c.changedSince(this.mark);
    this.source = c;
    this.mark = c.changeMark();
    if (changed === undefined) {
      this.ids.clear();
      for (const item of c.values()) if (this.matches(item)) this.ids.add(c.idOf(item));
      return;
    }
    for (const id of changed) this.recheck(c, id);
  }

  /** Checks again the records matched now (a record they depend on was deleted). */
  recheckMatched(): void {
    const c = this.source;
    if (c) for (const id of [...this.ids]) this.recheck(c, id);
  }

  private recheck(c: Collection<T>, id: string): void {
    const item = c.get(id);
    if (item !== undefined && this.matches(item)) this.ids.add(id);
    else this.ids.delete(id);
  }

  /** The newest `max` matches (by their sequence, the order they were made in), oldest first. */
  newest(max: number): T[] {
    const c = this.source;
    if (!c) return [];
    return [...this.ids].map((id) => c.get(id)!).sort((a, b) => a.seq - b.seq).slice(-max);
  }
}

/** Does anything a collection holds change in one respect (`key`: a webhook address's URL)? Each update says whether it did since the last. */
export class KeyWatch<T> {
  private source: Collection<T> | undefined;
  private mark = 0;
  private readonly keys = new Map<string, unknown>();

  constructor(private readonly collection: () => Collection<T>, private readonly key: (item: T) => unknown) {}

  /** True when a record came, went or changed its key since the last call (or the collection was replaced); the first call reads it whole. */
  changed(): boolean {
    const c = this.collection();
    const ids = c === this.source ? c.changedSince(this.mark) : undefined;
    this.mark = c.changeMark();
    if (ids === undefined) {
      const first = this.source === undefined;
      this.source = c;
      this.keys.clear();
      for (const item of c.values()) this.keys.set(c.idOf(item), this.key(item));
      return !first;
    }
    let changed = false;
    for (const id of ids) {
      const item = c.get(id);
      const key = item === undefined ? undefined : this.key(item);
      if (this.keys.get(id) !== key || this.keys.has(id) !== (item !== undefined)) changed = true;
      if (item === undefined) this.keys.delete(id);
      else this.keys.set(id, key);
    }
    return changed;
  }
}

/** Has any record of a collection been deleted since the last call (or the collection replaced)? */
export class DeleteWatch<T> {
  private source: Collection<T> | undefined;
  private mark = 0;

  constructor(private readonly collection: () => Collection<T>) {}

  deleted(): boolean {
    const c = this.collection();
    const ids = c === this.source ? c.changedSince(this.mark) : undefined;
    const first = this.source === undefined;
    this.source = c;
    this.mark = c.changeMark();
    if (ids === undefined) return !first;
    return ids.some((id) => !c.has(id));
  }
}

const seqOf = (entry: JournalEntry): number => Number(entry.id.slice(entry.id.indexOf('_') + 1));

/** The requests of a journal that match, by number: each look reads the entries recorded since the last. */
export class RequestTally {
  private journal: RequestJournal | undefined;
  private next = 0;
  /** The numbers of the matches, ascending; those before `head` are gone from the journal. */
  private seqs: number[] = [];
  private head = 0;

  /** `matches(entry, fresh)`: `fresh` when the entry is new since the last look, and the other waits read it now too. */
  constructor(private readonly journalOf: () => RequestJournal, private readonly matches: (entry: JournalEntry, fresh: boolean) => boolean) {}

  get count(): number {
    return this.seqs.length - this.head;
  }

  update(): void {
    const journal = this.journalOf();
    if (journal !== this.journal) {
      this.journal = journal;
      this.next = 0;
      this.seqs = [];
      this.head = 0;
    }
    const fresh = this.next > 0;
    const { entries, next, first } = journal.follow(this.next);
    for (const entry of entries) if (this.matches(entry, fresh)) this.seqs.push(seqOf(entry));
    this.next = next;
    while (this.head < this.seqs.length && this.seqs[this.head]! < first) this.head++;
    if (this.head > 1024 && this.head * 2 > this.seqs.length) {
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
  }

  /** The newest `max` matches, oldest first. */
  newest(max: number): JournalEntry[] {
    const journal = this.journal;
    if (!journal) return [];
    return this.seqs.slice(Math.max(this.head, this.seqs.length - max)).flatMap((seq) => journal.numbered(seq) ?? []);
  }
}
