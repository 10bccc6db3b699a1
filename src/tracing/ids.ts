import { randomFillSync } from 'node:crypto';

/**
 * Trace and span ids: random bytes as lowercase hex. 4 KiB are drawn at a time and turned into
 * hex text once; each id is then a slice of that text (no copy), so a span costs no call into
 * the random source or the encoder of its own.
 */
const POOL = Buffer.allocUnsafe(4096);
let text = '';
let at = 0;

function hex(digits: number): string {
  if (at + digits > text.length) {
    randomFillSync(POOL);
    text = POOL.toString('hex');
    at = 0;
  }
  const id = text.slice(at, at + digits);
  at += digits;
  return id;
}

const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** 32 hex digits, never all zeros (an invalid id). */
export function newTraceId(): string {
  let id = hex(32);
  while (id === ZERO_TRACE) id = hex(32);
  return id;
}

/** 16 hex digits, never all zeros. */
export function newSpanId(): string {
  let id = hex(16);
  while (id === ZERO_SPAN) id = hex(16);
  return id;
}
