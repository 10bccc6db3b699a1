/**
 * W3C Trace Context (`traceparent`, `tracestate`) read and written by hand: a span's place in a
 * trace arrives and leaves as these headers. A header that breaks the format is ignored, so the
 * span starts a trace of its own (what the W3C recommendation asks of a receiver).
 */

/** A parent span as a traceparent names it. */
export interface SpanContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
  /** The vendors' state, passed on unchanged; '' when none came. */
  tracestate: string;
}

const HEX = /^[0-9a-f]+$/;
const ZEROS_32 = '0'.repeat(32);
const ZEROS_16 = '0'.repeat(16);
/** The longest tracestate passed on (W3C: 32 members of at most 256 characters, plus commas). */
const MAX_TRACESTATE = 8192 + 31;

/**
 * The parent a traceparent names; null when it is not a valid one: version 00 written as
 * `00-<32 hex>-<16 hex>-<2 hex>` in lowercase, neither id all zeros. A later version (not ff)
 * is read by its first four fields, as the recommendation asks, when what follows them starts
 * with a dash.
 */
export function parseTraceparent(header: string, tracestate?: string): SpanContext | null {
  const h = header.trim();
  if (h.length < 55 || h[2] !== '-' || h[35] !== '-' || h[52] !== '-') return null;
  const version = h.slice(0, 2);
  if (!HEX.test(version) || version === 'ff') return null;
  if (version === '00' ? h.length !== 55 : h.length > 55 && h[55] !== '-') return null;
  const traceId = h.slice(3, 35);
  const spanId = h.slice(36, 52);
  const flags = h.slice(53, 55);
  if (!HEX.test(traceId) || !HEX.test(spanId) || !HEX.test(flags)) return null;
  if (traceId === ZEROS_32 || spanId === ZEROS_16) return null;
  const state = tracestate?.trim() ?? '';
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1, tracestate: state.length <= MAX_TRACESTATE ? state : '' };
}

/** The traceparent of a span of ours (always version 00). */
export const formatTraceparent = (traceId: string, spanId: string, sampled: boolean): string => `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
