/**
 * The adapter of the tracing port (src/core/tracing.ts): a lean tracer of our own that writes
 * OTLP (protobuf or JSON), with no OpenTelemetry package. A span is a plain record; an unsampled one records
 * nothing but still carries its ids onward (flag 00). load.ts imports this module on demand
 * only, so a start without tracing loads none of src/tracing but load.ts. Nothing global is
 * touched: a host process's own OpenTelemetry set-up is left as it is.
 */
import { monotonicMs } from '../core/clock.js';
import { maskSecrets } from '../core/mask.js';
import type { Span, SpanAttributes, SpanKind, SpanStart, TraceParent, Tracer } from '../core/tracing.js';
import { batchExporter, type BatchExporter, type ExportCounts } from './exporter.js';
import { newSpanId, newTraceId } from './ids.js';
import { sampler as makeSampler, type Sampler } from './sampler.js';
import type { OtlpKind, SpanRecord } from './span-record.js';
import { tracingSettings } from './settings.js';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

const KINDS: Record<SpanKind, OtlpKind> = { internal: 1, server: 2, client: 3 };
const NOTHING: SpanAttributes[] = [];

class LeanSpan implements Span, SpanRecord {
  endMs = 0;
  attributes: SpanAttributes[];
  statusCode: 0 | 2 = 0;
  statusMessage = '';
  private ended = false;
  private traceparent: string | undefined;

  constructor(
    readonly traceId: string,
    readonly spanId: string,
    readonly parentSpanId: string,
    readonly tracestate: string,
    readonly recording: boolean,
    readonly name: string,
    readonly kind: OtlpKind,
    readonly startMs: number,
    private readonly exporter: BatchExporter,
  ) {
    this.attributes = recording ? [] : NOTHING;
  }

  /** This span as the next hop's parent (made once, when first asked). */
  parent(): TraceParent {
    this.traceparent ??= formatTraceparent(this.traceId, this.spanId, this.recording);
    return this.tracestate ? { traceparent: this.traceparent, tracestate: this.tracestate } : { traceparent: this.traceparent };
  }
  headers(): Record<string, string> {
    return this.parent() as unknown as Record<string, string>;
  }
  set(attributes: SpanAttributes): void {
    if (this.recording && !this.ended) this.attributes.push(attributes);
  }
  fail(reason: string): void {
    if (!this.recording || this.ended) return;
    this.statusCode = 2;
    // A reason may quote what failed (a receiver's answer, an address): masked as every output is.
    this.statusMessage = maskSecrets(reason);
  }
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.recording) return;
    this.endMs = monotonicMs();
    this.exporter.add(this);
  }
}

export interface LeanTracing {
  tracer: Tracer;
  /** The service.name the spans carry. */
  serviceName: string;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
  counts(): ExportCounts;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A tracer exporting to the OTLP/HTTP endpoint the environment names (see settings.ts), or null
 * when the endpoint or the headers cannot be used. `warn` gets one line per value ignored (or
 * the one that turned tracing off), and one if an export ever fails unexpectedly.
 */
export function leanTracer(env: Env, serviceName: string, serviceVersion: string, warn: (line: string) => void): LeanTracing | null {
  const { settings, warnings, off } = tracingSettings(env, serviceName, serviceVersion);
  if (off !== null) {
    warn(off);
    return null;
  }
  for (const line of warnings) warn(line);
  let reported = false;
  const onError = (err: unknown): void => {
    if (reported) return;
    reported = true;
    warn(`onboarding-emulator: a trace export failed (${err instanceof Error ? err.message : String(err)}); its spans are dropped and counted, and the emulator goes on`);
  };
  const exporter = batchExporter({ ...settings, scope: { name: 'onboarding-emulator', version: serviceVersion }, onError });
  const sample: Sampler = makeSampler(settings.sampler);
  // The current span: a synchronous scope (see src/core/tracing.ts), so no asynchronous hook.
  let active: LeanSpan | undefined;

  const tracer: Tracer = {
    enabled: true,
    start(name: string, options?: SpanStart): Span {
      const given = options?.parent;
      let traceId: string;
      let parentSpanId = '';
      let tracestate = '';
      let parentSampled: boolean | undefined;
      const remote = given ? parseTraceparent(given.traceparent, given.tracestate) : null;
      if (remote) {
        ({ traceId, tracestate } = remote);
        parentSpanId = remote.spanId;
        parentSampled = remote.sampled;
      } else if (given === undefined && active) {
        ({ traceId, tracestate } = active);
        parentSpanId = active.spanId;
        parentSampled = active.recording;
      } else traceId = newTraceId();
      const span = new LeanSpan(traceId, newSpanId(), parentSpanId, tracestate, sample(traceId, parentSampled), name, KINDS[options?.kind ?? 'internal'], monotonicMs(), exporter);
      if (options?.attributes) span.set(options.attributes);
      return span;
    },
    within<T>(span: Span, fn: () => T): T {
      if (!(span instanceof LeanSpan)) return fn();
      const outer = active;
      active = span;
      try {
        return fn();
      } finally {
        active = outer;
      }
    },
    current: () => active?.parent() ?? null,
    traceId: () => active?.traceId ?? '',
  };
  return {
    tracer,
    serviceName: settings.resource['service.name']!,
    flush: () => exporter.flush(),
    shutdown: () => exporter.shutdown(),
    counts: () => exporter.counts(),
  };
}
