import { performance } from 'node:perf_hooks';
import { tooManyRequests } from './faults.js';

/**
 * Optional per-key rate limiting of /v1 requests (`--rate-limit N/s`, docs/decisions.md,
 * "Fault injection"). The spec has 429 but shows no thresholds, so it is off unless asked for.
 *
 * A token bucket per API key: it holds at most N tokens and refills N per period, evenly;
 * a request takes one, and without one it is refused with 429 `rate_limited` and
 * `Retry-After`, the whole seconds until a token is back. So a burst of N passes, and after
 * that the pace is N per period, with no double burst at a window's edge.
 *
 * Request pace is real time, so this reads a monotonic wall-time source (never the workspace
 * clock, which may be frozen or fast-forwarded); it lives in the HTTP layer for that reason.
 * Tests inject `now`.
 */
const RATE_PERIODS = { s: 1_000, m: 60_000 } as const;
type RatePeriod = keyof typeof RATE_PERIODS;

export interface RateLimit {
  /** Requests per period, and the burst allowed from a full bucket. */
  requests: number;
  per: RatePeriod;
}

export interface RateLimitOptions extends RateLimit {
  /** Milliseconds from any fixed origin; default: performance.now(). */
  now?: () => number;
}

/** `10/s` or `600/m` (whole numbers from 1 to 1,000,000); the format of --rate-limit. */
export function parseRateLimit(value: string): RateLimit {
  const match = /^\s*(\d+)\s*\/\s*(s|m)\s*$/.exec(value);
  const requests = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(requests) || requests < 1 || requests > 1_000_000) {
    throw new Error(`not a valid rate limit (N/s or N/m, N from 1 to 1000000): ${value}`);
  }
  return { requests, per: match[2] as RatePeriod };
}

const formatRateLimit = (limit: RateLimit): string => `${limit.requests}/${limit.per}`;

interface Bucket {
  tokens: number;
  at: number;
}

/** Refills are fractions; 0.1 + 0.2 tokens must still make a whole one after 0.3 of it. */
const EPSILON = 1e-9;

/** Above this many buckets, full ones (idle keys, deleted workspaces) are dropped. */
const PRUNE_ABOVE = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  /** Tokens per millisecond. */
  private readonly rate: number;
  private readonly now: () => number;

  constructor(readonly options: RateLimitOptions) {
    this.capacity = options.requests;
    this.rate = options.requests / RATE_PERIODS[options.per];
    this.now = options.now ?? (() => performance.now());
  }

  /** Takes a token for the key, or throws 429 rate_limited with Retry-After. */
  take(key: string): void {
    const now = this.now();
    const bucket = this.refill(key, now);
    if (bucket.tokens >= 1 - EPSILON) {
      bucket.tokens -= 1;
      return;
    }
    // At least 1: Retry-After 0 would invite an immediate retry that is refused again.
    const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate / 1_000 - EPSILON));
    throw tooManyRequests(seconds, `Too many requests for this API key (limit ${formatRateLimit(this.options)})`);
  }

  private refill(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= PRUNE_ABOVE) this.prune(now);
      const fresh = { tokens: this.capacity, at: now };
      this.buckets.set(key, fresh);
      return fresh;
    }
    bucket.tokens = Math.min(this.capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.rate);
    bucket.at = now;
    return bucket;
  }

  private prune(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.rate >= this.capacity) this.buckets.delete(key);
    }
  }
}
