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

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private sinceSweep = 0;

  /**
   * The remembered responses, oldest first. Reservations of requests still running are left
   * out: they belong to those requests, and a restored workspace has none running.
   */
  records(): IdempotencyRecord[] {
    const out: IdempotencyRecord[] = [];
    for (const [id, e] of this.entries) {
      if (e.state !== 'done') continue;
      const at = id.indexOf('\u0000');
      out.push({ scope: id.slice(0, at), key: id.slice(at + 1), fingerprint: e.fingerprint, response: structuredClone(e.response), expires_at: e.expiresAt });
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
    this.entries.set(id, { state: 'in_progress' });
    return { kind: 'reserved' };
  }

  complete(scope: string, key: string, fingerprint: string, response: StoredResponse, nowMs: number): void {
    this.entries.set(`${scope}\u0000${key}`, {
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
    for (const [id, e] of this.entries) if (e.state === 'done' && e.expiresAt <= nowMs) this.entries.delete(id);
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
