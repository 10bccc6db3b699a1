/**
 * Idempotency-Key records of one workspace (spec: write endpoints, 24-hour window).
 * A key is reserved as soon as the request arrives, so a duplicate that comes in while the
 * first is still being received or handled gets idempotency_in_progress. Only successful
 * responses are remembered (docs/decisions.md): after a refusal the key is free again.
 */
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 200;

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

type Entry =
  | { state: 'in_progress' }
  | { state: 'done'; fingerprint: string; response: StoredResponse; expiresAt: number };

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'in_progress' }
  | { kind: 'done'; fingerprint: string; response: StoredResponse };

/** One remembered response as plain data (src/persistence/snapshot.ts). */
export interface IdempotencyRecord {
  /** The API key the Idempotency-Key belongs to. */
  scope: string;
  key: string;
  fingerprint: string;
  response: StoredResponse;
  expires_at: number;
}

/** What the remembered responses gained and lost since the last takeChanges(). */
export interface IdempotencyChanges {
  /** Those gone (expired, or a key whose expired record is taken again), applied first. */
  deleted: { scope: string; key: string }[];
  /** Those remembered since, in the order they were: each goes to the end, as it does here. */
  put: IdempotencyRecord[];
}

const split = (id: string): { scope: string; key: string } => {
  const at = id.indexOf('\u0000');
  return { scope: id.slice(0, at), key: id.slice(at + 1) };
};

export class IdempotencyStore {
  /** In the order the responses were remembered: complete() moves a key to the end. */
  private readonly entries = new Map<string, Entry>();
  private sinceSweep = 0;
  /** Once trackChanges() was called (the state file): the keys whose remembered response changed, last change last. */
  private touched: Set<string> | null = null;

  /** From now on, remembers which keys change, for takeChanges(). */
  trackChanges(): void {
    this.touched = new Set();
  }

  /** What changed since trackChanges() or the last call, and starts afresh; null when not tracking. */
  takeChanges(): IdempotencyChanges | null {
    const touched = this.touched;
    if (!touched) return null;
    const changes: IdempotencyChanges = { deleted: [], put: [] };
    for (const id of touched) {
      const e = this.entries.get(id);
      if (e?.state === 'done') changes.put.push({ ...split(id), fingerprint: e.fingerprint, response: e.response, expires_at: e.expiresAt });
      else changes.deleted.push(split(id));
    }
    touched.clear();
    return changes;
  }

  private touch(id: string): void {
    if (!this.touched) return;
    this.touched.delete(id);
    this.touched.add(id);
  }

  /**
   * The remembered responses, oldest first. Reservations of requests still running are left
   * out: they belong to those requests, and a restored workspace has none running.
   */
  records(): IdempotencyRecord[] {
    const out: IdempotencyRecord[] = [];
    for (const [id, e] of this.entries) {
      if (e.state !== 'done') continue;
      out.push({ ...split(id), fingerprint: e.fingerprint, response: structuredClone(e.response), expires_at: e.expiresAt });
    }
    return out;
  }

  static restore(records: readonly IdempotencyRecord[]): IdempotencyStore {
    const store = new IdempotencyStore();
    for (const r of records) {
      store.entries.set(`${r.scope}\u0000${r.key}`, { state: 'done', fingerprint: r.fingerprint, response: structuredClone(r.response), expiresAt: r.expires_at });
    }
    return store;
  }

  /** `scope` is the API key: keys of different API keys never meet. */
  reserve(scope: string, key: string, nowMs: number): Reservation {
    this.sweepNow(nowMs);
    const id = `${scope}\u0000${key}`;
    const entry = this.entries.get(id);
    if (entry?.state === 'in_progress') return { kind: 'in_progress' };
    if (entry && entry.expiresAt > nowMs) return { kind: 'done', fingerprint: entry.fingerprint, response: entry.response };
    if (entry) this.touch(id); // an expired record given up for the new request
    this.entries.set(id, { state: 'in_progress' });
    return { kind: 'reserved' };
  }

  complete(scope: string, key: string, fingerprint: string, response: StoredResponse, nowMs: number): void {
    const id = `${scope}\u0000${key}`;
    // Remembered in the order responses are: a key reserved before another but finished after it comes after it.
    this.entries.delete(id);
    this.touch(id);
    this.entries.set(id, {
      state: 'done',
      fingerprint,
      response,
      expiresAt: nowMs + IDEMPOTENCY_WINDOW_MS,
    });
  }

  release(scope: string, key: string): void {
    const id = `${scope}\u0000${key}`;
    if (this.entries.get(id)?.state === 'in_progress') this.entries.delete(id);
  }

  /** Expired records are dropped now and then, so memory stays bounded without a timer. */
  private sweepNow(nowMs: number): void {
    if (++this.sinceSweep < 1000) return;
    this.sinceSweep = 0;
    for (const [id, e] of this.entries) {
      if (e.state !== 'done' || e.expiresAt > nowMs) continue;
      this.entries.delete(id);
      this.touch(id);
    }
  }
}

/** Key order does not change the content of a JSON body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
