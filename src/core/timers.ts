/**
 * The workspace's one timer queue (docs/architecture.md, "Clock and timers"): everything that
 * happens later is a timer of plain data (kind, due time, sequence, payload), never a closure,
 * so a snapshot can hold it. Ordered by due time, then by creation order; a binary heap keeps
 * scheduling and taking the next timer at O(log n) however many are waiting.
 */
export interface Timer {
  seq: number;
  /** Due instant, ms since the epoch on the workspace clock. */
  due: number;
  kind: string;
  payload: Record<string, unknown>;
}

const before = (a: Timer, b: Timer) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/** The whole queue as plain data (src/persistence/snapshot.ts): timers in firing order, cancelled ones included. */
export interface TimerQueueState {
  next_seq: number;
  timers: Timer[];
  /** Sequence numbers cancelled but not yet dropped from the queue. */
  cancelled: number[];
}

/** The last instant a Date can hold: a due time past the clock's range stays one, and never fires. */
const LAST_INSTANT_MS = 8.64e15;

function representable(due: number): number {
  return Number.isNaN(due) ? LAST_INSTANT_MS : Math.min(Math.max(due, -LAST_INSTANT_MS), LAST_INSTANT_MS);
}

/** What changed in a queue since the last takeChanges(): timers scheduled (copies) and numbers gone. */
export interface TimerQueueChanges {
  next_seq: number;
  /** Gone from the queue (fired, discarded, dropped once cancelled); applied before `added`. */
  removed: number[];
  added: Timer[];
  cancelled: number[];
}

export class TimerQueue {
  private heap: Timer[] = [];
  private nextSeq = 1;
  private readonly cancelled = new Set<number>();
  /** Once trackChanges() was called (the state file): timers added and numbers removed since the last takeChanges(). */
  private changes: { added: Map<number, Timer>; removed: Set<number> } | null = null;

  /** From now on, remembers what changes, for takeChanges(). */
  trackChanges(): void {
    this.changes = { added: new Map(), removed: new Set() };
  }

  /** What changed since trackChanges() or the last call, and starts afresh; null when not tracking. */
  takeChanges(): TimerQueueChanges | null {
    const changes = this.changes;
    if (!changes) return null;
    this.changes = { added: new Map(), removed: new Set() };
    return {
      next_seq: this.nextSeq,
      removed: [...changes.removed],
      added: [...changes.added.values()].map((t) => ({ ...t, payload: structuredClone(t.payload) })),
      cancelled: [...this.cancelled].sort((a, b) => a - b),
    };
  }

  private gone(timer: Timer): void {
    const changes = this.changes;
    if (!changes) return;
    if (changes.added.get(timer.seq) === timer) changes.added.delete(timer.seq);
    else changes.removed.add(timer.seq);
  }

  /** Rebuilds a queue from entries(); the timers are copied, so the state can be reused. */
  static restore(state: TimerQueueState): TimerQueue {
    const q = new TimerQueue();
    q.nextSeq = state.next_seq;
    for (const t of state.timers) {
      q.heap.push({ seq: t.seq, due: t.due, kind: t.kind, payload: structuredClone(t.payload) });
      q.up(q.heap.length - 1);
    }
    for (const seq of state.cancelled) q.cancelled.add(seq);
    return q;
  }

  /** A plain-data copy, in firing order whatever the heap's layout, so equal queues give equal snapshots. */
  entries(): TimerQueueState {
    return {
      next_seq: this.nextSeq,
      timers: [...this.heap].sort((a, b) => (before(a, b) ? -1 : 1)).map((t) => ({ ...t, payload: structuredClone(t.payload) })),
      cancelled: [...this.cancelled].sort((a, b) => a - b),
    };
  }

  /**
   * A sequence number taken now for a timer scheduled later, so that timers scheduled after
   * concurrent work keep the order in which that work started, not the order it finished.
   */
  reserve(): number {
    return this.nextSeq++;
  }

  /** `seq`: one given by reserve(); a new one otherwise. */
  schedule(kind: string, due: number, payload: Record<string, unknown> = {}, seq = this.nextSeq++): Timer {
    const timer = { seq, due: representable(due), kind, payload };
    this.changes?.added.set(seq, timer);
    this.heap.push(timer);
    this.up(this.heap.length - 1);
    return timer;
  }

  /** Removes every timer that matches at once (not lazily), leaving no trace in entries(). */
  discard(match: (timer: Timer) => boolean): void {
    const kept = this.heap.filter((t) => {
      if (!match(t)) return true;
      this.gone(t);
      return false;
    });
    this.heap = [];
    for (const t of kept) {
      this.heap.push(t);
      this.up(this.heap.length - 1);
    }
  }

  /** Cancelled timers leave the heap lazily, when they reach its top. */
  cancel(seq: number): void {
    this.cancelled.add(seq);
  }

  peek(): Timer | undefined {
    this.dropCancelled();
    return this.heap[0];
  }

  /** Removes and returns the next timer if it is due at or before `limit`. */
  takeDue(limit: number): Timer | undefined {
    const top = this.peek();
    if (!top || top.due > limit) return undefined;
    this.pop();
    return top;
  }

  get size(): number {
    return this.heap.length - this.cancelled.size;
  }

  private dropCancelled(): void {
    while (this.heap.length && this.cancelled.has(this.heap[0]!.seq)) {
      this.cancelled.delete(this.heap[0]!.seq);
      this.pop();
    }
  }

  private pop(): void {
    if (this.heap.length) this.gone(this.heap[0]!);
    const last = this.heap.pop()!;
    if (this.heap.length) {
      this.heap[0] = last;
      this.down(0);
    }
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < h.length && before(h[l]!, h[best]!)) best = l;
      if (r < h.length && before(h[r]!, h[best]!)) best = r;
      if (best === i) return;
      [h[i], h[best]] = [h[best]!, h[i]!];
      i = best;
    }
  }
}

/**
 * Wakes a realtime workspace when its next timer falls due, so timers also fire by themselves
 * with no request to run them. One pending wall-clock timeout at a time; it never keeps the
 * process alive.
 */
export class WallAlarm {
  private handle: ReturnType<typeof setTimeout> | undefined;

  arm(delayMs: number, fire: () => void): void {
    this.disarm();
    // setTimeout caps at 2^31-1 ms; a later timer re-arms when this one wakes.
    this.handle = setTimeout(fire, Math.max(0, Math.min(delayMs, 2_147_483_647)));
    this.handle.unref?.();
  }

  disarm(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }
}

/** Waits `ms` of wall time: for real waits outside any workspace's clock (polling a receiver's calls). */
export function wallDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * Calls `fire` once after `ms` of wall time unless the returned function cancels it first: for
 * bounds on real waits outside any workspace's clock (a relay's long poll, an attempt it carries).
 * It never keeps the process alive.
 */
export function wallTimeout(ms: number, fire: () => void): () => void {
  const handle = setTimeout(fire, Math.max(0, Math.min(ms, 2_147_483_647)));
  handle.unref?.();
  return () => clearTimeout(handle);
}

/**
 * Calls `fire` once after `ms` of wall time unless the returned function cancels it first, and
 * keeps the process alive until then: for a deadline someone awaits (a wait's timeout, which an
 * in-process caller may be the only one waiting for).
 */
export function wallDeadline(ms: number, fire: () => void): () => void {
  const handle = setTimeout(fire, Math.max(0, Math.min(ms, 2_147_483_647)));
  return () => clearTimeout(handle);
}

/** Calls `fire` once the current turn of the event loop is over (after its I/O callbacks), with no delay. */
export function afterThisTurn(fire: () => void): void {
  setImmediate(fire);
}
