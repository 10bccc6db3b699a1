/**
 * Webhook message signatures (spec, Events → Signature). The header is `t=<unix>,v1=<hex>`, v1
 * being the hex HMAC-SHA256 keyed with the secret over `<t>.<raw body>`. During a secret
 * rotation it carries one v1 per secret, new first. `verifySignature` is the receiver-side
 * helper the package exports; the emulator itself only signs.
 */
import { wallClockSeconds } from '../core/clock.js';
import { createHmac, timingSafeEqual } from 'node:crypto';

const DEFAULT_TOLERANCE_SECONDS = 300;
/** A v1 value is the hex form of a 32-byte SHA-256 HMAC. */
const V1_PATTERN = /^[0-9a-f]{64}$/i;

/** hex HMAC-SHA256 keyed with the secret over `${t}.${rawBody}` */
export function sign(secret: string, timestampSec: number, rawBody: string): string {
  return hmac(secret, checkedTimestamp(timestampSec), rawBody).toString('hex');
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]` — one v1 per secret, in the order given (new secret first). */
export function signatureHeader(secrets: readonly string[], timestampSec: number, rawBody: string): string {
  // A header without any v1 could never verify; sending it would hide a bug in the caller.
  if (secrets.length === 0) throw new RangeError('a signature needs at least one secret');
  const t = checkedTimestamp(timestampSec);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmac(secret, t, rawBody).toString('hex')}`)].join(',');
}

export interface VerifyOptions {
  /** How far `t` may be from `now`, either way; default 300 (the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** Unix seconds; default the wall clock. */
  now?: number;
}

/**
 * True when the header is well formed, |now - t| <= tolerance, and any v1 value matches any of
 * the secrets. The HMAC covers the exact bytes received: a Buffer is used as is, a string as its
 * UTF-8 encoding. Comparisons are constant-time. Never throws: anything doubtful is false, so a
 * receiver can pass a header straight from its request object (which may be missing or a list).
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): boolean {
  const parsed = parseHeader(header);
  if (!parsed) return false;

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? wallClockSeconds();
  if (!Number.isFinite(tolerance) || tolerance < 0 || !Number.isFinite(now)) return false;
  if (Math.abs(now - parsed.t) > tolerance) return false;

  const keys = (typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? secrets : []).filter(
    (s): s is string => typeof s === 'string',
  );
  if (keys.length === 0) return false;
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  if (!Buffer.isBuffer(body)) return false;

  const expected = keys.map((secret) => hmac(secret, parsed.t, body));
  let matched = false;
  // Every pair is compared (no early exit), so the time taken does not tell which one matched.
  for (const candidate of parsed.v1) {
    for (const digest of expected) {
      if (candidate.length === digest.length && timingSafeEqual(candidate, digest)) matched = true;
    }
  }
  return matched;
}

function hmac(secret: string, t: number, body: string | Buffer): Buffer {
  // Two updates equal one over Buffer.concat([`${t}.`, body]): the exact bytes, never re-encoded.
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(body).digest();
}

function checkedTimestamp(timestampSec: number): number {
  // A fractional or negative `t` would be signed but refused by every verifier.
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) {
    throw new RangeError(`a signature timestamp is whole unix seconds, not ${String(timestampSec)}`);
  }
  return timestampSec;
}

/**
 * Exactly one `t` (digits), at least one `v1` (64 hex digits); spaces around the parts are
 * tolerated and unknown schemes (a future v2) ignored, so a header from a newer service still
 * verifies by its v1 values.
 */
function parseHeader(header: unknown): { t: number; v1: Buffer[] } | null {
  if (typeof header !== 'string' || header.length > 8_192) return null;
  let t: number | null = null;
  const v1: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,15}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!V1_PATTERN.test(value)) return null;
      v1.push(Buffer.from(value, 'hex'));
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}
