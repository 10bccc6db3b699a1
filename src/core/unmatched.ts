import type { JournalEntry } from './journal.js';
import { maskJson } from './mask.js';

/** Why a request named no workspace, and what it most likely meant. */
export interface Unmatched {
  reason: 'no_key' | 'unknown_key' | 'no_route';
  /** The route (method and path template) nearest the path sent, for no_route. */
  near_route: string | null;
  /** The key nearest the one sent (unknown_key), or the one sent in the wrong place (no_key). */
  near_key: string | null;
  /** In a sentence, what to change. */
  hint: string | null;
}

export type UnmatchedEntry = Omit<JournalEntry, 'id'> & { id: string; unmatched: Unmatched };

/**
 * The requests that reached no workspace: without a key, with an unknown one, or to a path no
 * route serves, each with its near miss. One list for the emulator, bounded like a journal (the
 * same limit; 0 keeps none), the oldest dropped and counted.
 */
export class UnmatchedRequests {
  private entries: UnmatchedEntry[] = [];
  private nextSeq = 1;
  private droppedCount = 0;

  constructor(readonly limit: number) {}

  get dropped(): number {
    return this.droppedCount;
  }

  /** Kept with every secret in it masked (its path, query and headers), as a journal shows its entries. */
  record(entry: Omit<UnmatchedEntry, 'id' | 'object'>): void {
    if (this.limit === 0) return;
    this.entries.push({ id: `unm_${String(this.nextSeq++).padStart(6, '0')}`, object: 'request', ...maskJson(entry) });
    if (this.entries.length > this.limit) {
      this.entries.shift();
      this.droppedCount++;
    }
  }

  newestFirst(): UnmatchedEntry[] {
    return this.entries.slice().reverse();
  }
}
