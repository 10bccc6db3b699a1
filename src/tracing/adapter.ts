/**
 * The adapter of the tracing port (src/core/tracing.ts) over the OpenTelemetry SDK: its tracer,
 * samplers and batch processor, W3C Trace Context in and out, and its OTLP/HTTP exporter
 * (protobuf, or JSON when asked; only the one asked for is loaded). load.ts imports this module
 * on demand only, so a start without tracing loads none of it. Nothing is registered globally
 * (tracer provider, context manager, propagator, diagnostic logger): a host process's own
 * OpenTelemetry set-up is left as it is.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span as OtelSpan, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { maskSecrets } from '../core/mask.js';
import type { Span, SpanAttributes, SpanKind as PortKind, SpanStart, TraceParent, Tracer } from '../core/tracing.js';
import type { SamplerChoice, TracingSettings } from './settings.js';

const KINDS: Record<PortKind, SpanKind> = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

type Carrier = Record<string, string | undefined>;
const getter: TextMapGetter<Carrier> = { keys: (c) => Object.keys(c), get: (c, key) => c[key] };
const setter: TextMapSetter<Carrier> = { set: (c, key, value) => void (c[key] = value) };
const propagator = new W3CTraceContextPropagator();

/** The SDK's own sampler for a standard OTEL_TRACES_SAMPLER name. */
export function sdkSampler({ name, ratio }: SamplerChoice): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Every string goes out with its secrets masked (src/core/mask.ts), as every output does: a path
 * or an address may hold a key or a link token. The SDK leaves out an undefined value.
 */
function masked(attributes: SpanAttributes): SpanAttributes {
  const out: SpanAttributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    out[key] = typeof value === 'string' ? maskSecrets(value) : value;
  }
  return out;
}

class PortSpan implements Span {
  readonly traceId: string;
  readonly recording: boolean;
  private own: Context | undefined;
  constructor(
    private readonly span: OtelSpan,
    private readonly parent: Context,
  ) {
    this.traceId = span.spanContext().traceId;
    this.recording = span.isRecording();
  }
  /** The context holding this span, made only when asked. */
  get context(): Context {
    return (this.own ??= trace.setSpan(this.parent, this.span));
  }
  headers(): Record<string, string> {
    const carrier: Carrier = {};
    propagator.inject(this.context, carrier, setter);
    return carrier as Record<string, string>;
  }
  set(attributes: SpanAttributes): void {
    if (this.recording) this.span.setAttributes(masked(attributes));
  }
  fail(reason: string): void {
    // A reason may quote what failed (a receiver's answer, an address): masked too.
    if (this.recording) this.span.setStatus({ code: SpanStatusCode.ERROR, message: maskSecrets(reason) });
  }
  end(): void {
    this.span.end();
  }
}

/** What became of the spans handed to the exporter so far. */
interface ExportCounts {
  exported: number;
  /** Spans in exports that failed. */
  dropped: number;
  failedExports: number;
}

/** The SDK's exporter, counting what it sends and saying once, through `warn`, that an export failed. */
class CountingExporter implements SpanExporter {
  readonly counts: ExportCounts = { exported: 0, dropped: 0, failedExports: 0 };
  private told = false;
  /** The exports under way: the batch processor's flush does not wait for one its timer started. */
  private readonly running = new Set<Promise<void>>();
  constructor(
    private readonly inner: SpanExporter,
    private readonly warn: (line: string) => void,
  ) {}
  /** Resolves once no export is under way (bounded: each round waits for those running then). */
  async idle(): Promise<void> {
    for (let rounds = 0; this.running.size > 0 && rounds < 100; rounds++) await Promise.all(this.running);
  }
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    let finished!: () => void;
    const running = new Promise<void>((resolve) => (finished = resolve));
    this.running.add(running);
    const settle = (result: ExportResult): void => {
      if (result.code === ExportResultCode.SUCCESS) this.counts.exported += spans.length;
      else {
        this.counts.dropped += spans.length;
        this.counts.failedExports++;
        if (!this.told) {
          this.told = true;
          this.warn(`onboarding-emulator: a trace export failed (${result.error?.message ?? 'no reason given'}); its spans are dropped and counted, and the emulator goes on`);
        }
      }
      this.running.delete(running);
      finished();
      done(result);
    };
    try {
      this.inner.export(spans, settle);
    } catch (err) {
      settle({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The OTLP/HTTP exporter of the protocol asked for; the other one is not loaded. */
async function otlpExporter(s: TracingSettings): Promise<SpanExporter> {
  const config = { url: s.endpoint, headers: s.headers, timeoutMillis: s.timeoutMs };
  const { OTLPTraceExporter } = s.protocol === 'http/json' ? await import('@opentelemetry/exporter-trace-otlp-http') : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter(config);
}

export interface OtelTracing {
  tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
  counts(): ExportCounts;
}

/** A tracer exporting as `settings` say (settings.ts, read from the environment). */
export async function openTelemetryTracing(settings: TracingSettings, serviceVersion: string, warn: (line: string) => void): Promise<OtelTracing> {
  const exporter = new CountingExporter(await otlpExporter(settings), warn);
  const provider = new BasicTracerProvider({
    // The SDK's own attributes (telemetry.sdk.*) under ours.
    resource: defaultResource().merge(resourceFromAttributes(settings.resource)),
    sampler: sdkSampler(settings.sampler),
    spanProcessors: [
      new BatchSpanProcessor(exporter, { scheduledDelayMillis: settings.scheduleDelayMs, maxQueueSize: settings.maxQueueSize, maxExportBatchSize: settings.maxExportBatchSize }),
    ],
  });
  const otel = provider.getTracer('onboarding-emulator', serviceVersion);
  // The current span: a synchronous scope (see src/core/tracing.ts), so no asynchronous hook.
  let active: PortSpan | undefined;

  const parentContext = (parent: TraceParent | null | undefined): Context => {
    if (parent === undefined) return active?.context ?? ROOT_CONTEXT;
    if (parent === null) return ROOT_CONTEXT;
    // A traceparent that breaks the W3C format gives no parent: the span starts a trace of its own.
    return propagator.extract(ROOT_CONTEXT, { traceparent: parent.traceparent, tracestate: parent.tracestate }, getter);
  };

  const tracer: Tracer = {
    enabled: true,
    start(name: string, options: SpanStart = {}): Span {
      const parent = parentContext(options.parent);
      const span = new PortSpan(otel.startSpan(name, { kind: KINDS[options.kind ?? 'internal'] }, parent), parent);
      if (options.attributes) span.set(options.attributes);
      return span;
    },
    within<T>(span: Span, fn: () => T): T {
      if (!(span instanceof PortSpan)) return fn();
      const outer = active;
      active = span;
      try {
        return fn();
      } finally {
        active = outer;
      }
    },
    current(): TraceParent | null {
      if (!active) return null;
      const { traceparent, tracestate } = active.headers();
      return traceparent ? { traceparent, ...(tracestate ? { tracestate } : {}) } : null;
    },
    traceId: () => active?.traceId ?? '',
  };
  // The SDK rejects a flush whose export failed: that failure is counted (and told once) already.
  const settled = (p: Promise<void>): Promise<void> => p.catch(() => undefined);
  const flush = async (): Promise<void> => {
    await settled(provider.forceFlush());
    await exporter.idle();
  };
  return {
    tracer,
    flush,
    shutdown: async () => {
      await flush();
      await settled(provider.shutdown());
    },
    counts: () => ({ ...exporter.counts }),
  };
}
