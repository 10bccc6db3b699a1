/**
 * The standard samplers (OTEL_TRACES_SAMPLER): whether a new span is recorded. A parent-based
 * sampler follows the parent's sampled flag and asks its root sampler only for a new trace.
 */
export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface SamplerChoice {
  name: SamplerName;
  /** For the ratio samplers: the share of new traces recorded, 0 to 1. */
  ratio: number;
}

/** Decides for a span: `parentSampled` is the parent's flag, undefined for a new trace. */
export type Sampler = (traceId: string, parentSampled: boolean | undefined) => boolean;

/**
 * Deterministic in the trace id, so every service with the same ratio agrees on a trace: its
 * last 8 hex digits (random in every id this adapter makes) read as a fraction of 2^32.
 */
function byRatio(ratio: number): (traceId: string) => boolean {
  if (ratio >= 1) return () => true;
  if (ratio <= 0) return () => false;
  const bound = Math.floor(ratio * 0x1_0000_0000);
  return (traceId) => parseInt(traceId.slice(24), 16) < bound;
}

export function sampler(choice: SamplerChoice): Sampler {
  switch (choice.name) {
    case 'always_on':
      return () => true;
    case 'always_off':
      return () => false;
    case 'traceidratio': {
      const root = byRatio(choice.ratio);
      return (traceId) => root(traceId);
    }
    case 'parentbased_always_off':
      return (_traceId, parent) => parent === true;
    case 'parentbased_traceidratio': {
      const root = byRatio(choice.ratio);
      return (traceId, parent) => (parent === undefined ? root(traceId) : parent);
    }
    default:
      return (_traceId, parent) => parent !== false;
  }
}
