import type { SpanAttributes } from '../core/tracing.js';

/** OTLP's span kinds: 1 internal, 2 server, 3 client. */
export type OtlpKind = 1 | 2 | 3;

/** A span as the adapter records it and the exporter encodes it when it ends: a plain record. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  tracestate: string;
  name: string;
  kind: OtlpKind;
  /** monotonicMs() at the start and the end (see monotonicOriginMs). */
  startMs: number;
  endMs: number;
  /**
   * The attribute objects as given, in order (a later one's key wins); undefined values are
   * left out when serialised. Kept as given so that recording a span copies nothing.
   */
  attributes: SpanAttributes[];
  /** OTLP's status code: 0 unset, 2 error. */
  statusCode: 0 | 2;
  statusMessage: string;
}
