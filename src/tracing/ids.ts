import { randomFillSync } from 'node:crypto';

/**
 * Trace and span ids: random bytes as lowercase hex, taken from a pool filled 4 KiB at a time,
 * so a span costs no call into the random source of its own.
 */
const POOL = Buffer.allocUnsafe(4096);
let at = POOL.length;

function hex(bytes: number): string {
  if (at + bytes > POOL.length) {
    randomFillSync(POOL);
    at = 0;
  }
  const text = POOL.toString('hex', at, at + bytes);
  at += bytes;
  return text;
}

const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** 32 hex digits, never all zeros (an invalid id). */
export function newTraceId(): string {
  let id = hex(16);
  while (id === ZERO_TRACE) id = hex(16);
  return id;
}

/** 16 hex digits, never all zeros. */
export function newSpanId(): string {
  let id = hex(8);
  while (id === ZERO_SPAN) id = hex(8);
  return id;
}
