/**
 * The tracing port: what the domain and the HTTP adapter call to record spans, with no
 * OpenTelemetry in it. Off until an adapter is installed (every call then does nothing and
 * allocates nothing); `serve` and enableTracing() install the adapter (src/tracing/, over the
 * OpenTelemetry SDK) when the environment names an OTLP endpoint. Spans take their times from
 * the adapter: the core still reads no wall clock.
 *
 * The current span is a synchronous scope (`within`), not an asynchronous context: what reads
 * it (the one place events are emitted, the journal) runs synchronously inside the handler, a
 * timer or a scenario step, and an asynchronous context would put a hook on every promise of
 * the process (AsyncLocalStorage on Node 20), a cost every request would pay. Work that runs
 * later carries its parent explicitly instead (a delivery keeps the trace of its event).
 */
export type SpanKind = 'server' | 'client' | 'internal';
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** A span's place in a trace, as the W3C Trace Context headers carry it. */
export interface TraceParent {
  traceparent: string;
  tracestate?: string | undefined;
}

export interface SpanStart {
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /** The parent: a span these headers name (a trace continued); null: a new trace; left out: the current span. */
  parent?: TraceParent | null;
}

export interface Span {
  /** 32 hex digits; '' when tracing is off. */
  readonly traceId: string;
  /**
   * Whether the span is recorded (sampled): when not, set/fail do nothing, so a caller builds
   * attributes only when this is true. Its ids still go onward in headers().
   */
  readonly recording: boolean;
  /** This span as headers for the next hop (traceparent, tracestate); empty when off. */
  headers(): Record<string, string>;
  /** Adds attributes (an undefined value is left out; a later value of a name wins). */
  set(attributes: SpanAttributes): void;
  /** Marks the span failed, with the reason. */
  fail(reason: string): void;
  end(): void;
}

export interface Tracer {
  readonly enabled: boolean;
  start(name: string, options?: SpanStart): Span;
  /**
   * Runs fn with `span` as the current span until fn returns (a returned promise's later part
   * is outside it: call within() again after an await).
   */
  within<T>(span: Span, fn: () => T): T;
  /** The current span as headers; null when there is none. */
  current(): TraceParent | null;
  /** The current span's trace id; '' when there is none. */
  traceId(): string;
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

const NO_SPAN: Span = Object.freeze({
  traceId: '',
  recording: false,
  headers: () => NO_HEADERS,
  set: () => undefined,
  fail: () => undefined,
  end: () => undefined,
});

/** The default: no spans, no context. */
export const NO_TRACER: Tracer = Object.freeze({
  enabled: false,
  start: () => NO_SPAN,
  within: <T>(_span: Span, fn: () => T): T => fn(),
  current: () => null,
  traceId: () => '',
});

let installed: Tracer = NO_TRACER;

/** The tracer in use: the adapter's once installed, else NO_TRACER. */
export const tracer = (): Tracer => installed;

/** Installs an adapter's tracer for the whole process; null goes back to none. */
export function installTracer(t: Tracer | null): void {
  installed = t ?? NO_TRACER;
}

/** fn with `span` current until it returns (see Tracer.within). */
export const within = <T>(span: Span, fn: () => T): T => installed.within(span, fn);

/**
 * fn inside a span of its own, ended when fn returns or its promise settles; a throw or a
 * rejection marks it failed and passes on. The span is current while fn runs synchronously; an
 * asynchronous fn is handed it to make it current again after an await. With tracing off, just fn.
 */
export function inSpan<T>(name: string, options: SpanStart, fn: (span: Span) => T): T {
  const t = installed;
  if (!t.enabled) return fn(NO_SPAN);
  const span = t.start(name, options);
  let result: T;
  try {
    result = t.within(span, () => fn(span));
  } catch (err) {
    span.fail(err instanceof Error ? err.message : String(err));
    span.end();
    throw err;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        span.fail(err instanceof Error ? err.message : String(err));
        span.end();
        throw err;
      },
    ) as T;
  }
  span.end();
  return result;
}

/** The trace id a traceparent header names (its second field); null when it is not one. */
export function traceIdOf(parent: TraceParent | null | undefined): string | null {
  const match = parent ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(parent.traceparent) : null;
  return match ? match[1]! : null;
}
