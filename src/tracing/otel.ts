/**
 * The OpenTelemetry adapter of the tracing port (src/core/tracing.ts): spans of the SDK's
 * batch processor, sent by the OTLP/HTTP (JSON) exporter, W3C Trace Context in and out. The
 * only module that imports OpenTelemetry; load.ts imports it on demand, so a start without
 * tracing loads none of it. Nothing is registered globally (tracer provider, context manager,
 * propagator): a host process's own OpenTelemetry set-up is left as it is.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span as OtelSpan, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Span, SpanAttributes, SpanKind as PortKind, SpanStart, TraceParent, Tracer } from '../core/tracing.js';

const KINDS: Record<PortKind, SpanKind> = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL };

type Carrier = Record<string, string | undefined>;
const getter: TextMapGetter<Carrier> = { keys: (c) => Object.keys(c), get: (c, key) => c[key] };
const setter: TextMapSetter<Carrier> = { set: (c, key, value) => void (c[key] = value) };

const propagator = new W3CTraceContextPropagator();

class PortSpan implements Span {
  readonly traceId: string;
  private own: Context | undefined;
  constructor(readonly span: OtelSpan, private readonly parent: Context) {
    this.traceId = span.spanContext().traceId;
  }
  /** The context holding this span, made only when asked (most spans never are). */
  get context(): Context {
    return (this.own ??= trace.setSpan(this.parent, this.span));
  }
  headers(): Record<string, string> {
    const carrier: Carrier = {};
    propagator.inject(this.context, carrier, setter);
    return carrier as Record<string, string>;
  }
  set(attributes: SpanAttributes): void {
    // The SDK leaves out an attribute whose value is undefined.
    this.span.setAttributes(attributes);
  }
  fail(reason: string): void {
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
  }
  end(): void {
    this.span.end();
  }
}

export interface OtelTracing {
  tracer: Tracer;
  /** Sends the spans still waiting. */
  flush(): Promise<void>;
  /** Sends what waits, then stops the exporter. */
  shutdown(): Promise<void>;
}

/**
 * A tracer exporting to the OTLP endpoint the standard environment names (the exporter reads
 * OTEL_EXPORTER_OTLP_* itself; the batch processor OTEL_BSP_*; the sampler OTEL_TRACES_SAMPLER).
 */
export function openTelemetryTracer(serviceName: string, serviceVersion: string): OtelTracing {
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the defaults.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': serviceName, 'service.version': serviceVersion }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const otel = provider.getTracer('onboarding-emulator', serviceVersion);
  // The current span: a synchronous scope (see src/core/tracing.ts), so no asynchronous hook.
  let active: PortSpan | undefined;

  const parentContext = (parent: TraceParent | null | undefined): Context => {
    if (parent === undefined) return active?.context ?? ROOT_CONTEXT;
    if (parent === null) return ROOT_CONTEXT;
    return propagator.extract(ROOT_CONTEXT, { traceparent: parent.traceparent, tracestate: parent.tracestate }, getter);
  };

  const tracer: Tracer = {
    enabled: true,
    start(name: string, options: SpanStart = {}): Span {
      const parent = parentContext(options.parent);
      const span = otel.startSpan(name, { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes }, parent);
      return new PortSpan(span, parent);
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
    traceId(): string {
      return active?.traceId ?? '';
    },
  };
  return { tracer, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
