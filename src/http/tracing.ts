import type { Request, Response } from 'express';
import { NO_TRACER, tracer, type Span, type SpanAttributes, type SpanStart, type TraceParent, type Tracer } from '../core/tracing.js';
import { headerText } from './journal.js';
import { requestIdOf } from './reply.js';
import { spanToEnd } from './server-span.js';

/** An Express path as the OpenAPI document and the spec write it: `/v1/onboardings/{id}`. */
const routeTemplate = (path: string): string => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** The caller's trace (W3C traceparent, and its tracestate), null when it sent none. */
function inbound(req: Request): TraceParent | null {
  const traceparent = headerText(req.headers.traceparent);
  if (traceparent === null) return null;
  const tracestate = headerText(req.headers.tracestate);
  return tracestate === null ? { traceparent } : { traceparent, tracestate };
}

/** What a /v1 route's requests are traced in; made once, when the route is mounted. */
export type ServerSpans = <T>(req: Request, res: Response, fn: (span: Span) => T) => T;

/**
 * For one /v1 route: runs each request's handling inside a SERVER span named after the route's
 * template (`GET /v1/onboardings/{id}`), continuing the caller's traceparent; the span ends when
 * the answer is written, with the status sent (or, for one never written whole, when the
 * connection closes: server-span.ts). The span is current
 * while fn runs synchronously (the journal reads it); fn is handed it to make it current again
 * around the row's handler, after the awaits of reading the body. With tracing off, just fn.
 */
export function serverSpans(method: string, path: string): ServerSpans {
  const route = routeTemplate(path);
  const name = `${method} ${route}`;
  // The route's own attributes, the same for each of its requests: frozen, so the adapter may write them once.
  const fixed: SpanAttributes = Object.freeze({ 'http.request.method': method, 'http.route': route, 'url.scheme': 'http' });
  return (req, res, fn) => {
    const t = tracer();
    return t.enabled ? traced(t, name, fixed, req, res, fn) : fn(NO_TRACER.start(''));
  };
}

/** A span that starts a trace (no traceparent came): the same options for every such request. */
const NEW_TRACE: SpanStart = Object.freeze({ kind: 'server', parent: null });

/**
 * The address the request came in on, as frozen attributes made once per address and port (a
 * server listens on a few): the adapter then writes them once and reuses the text.
 */
const LISTENERS = new Map<number, Map<string | undefined, SpanAttributes>>();
function listener(address: string | undefined, port: number | undefined): SpanAttributes {
  const key = port ?? -1;
  let byAddress = LISTENERS.get(key);
  if (byAddress === undefined) LISTENERS.set(key, (byAddress = new Map()));
  let attributes = byAddress.get(address);
  if (attributes === undefined) {
    attributes = Object.freeze({ 'server.address': address, 'server.port': port });
    // Bounded, in case a host process opens listeners without end.
    if (LISTENERS.size < 100 && byAddress.size < 100) byAddress.set(address, attributes);
  }
  return attributes;
}

function traced<T>(t: Tracer, name: string, fixed: SpanAttributes, req: Request, res: Response, fn: (span: Span) => T): T {
  // A caller's broken traceparent is ignored: the span starts a trace of its own.
  const parent = inbound(req);
  const span = t.start(name, parent === null ? NEW_TRACE : { kind: 'server', parent });
  // An unsampled span records nothing: no attributes to build, no end to wait for.
  if (span.recording) {
    span.set(fixed);
    span.set(listener(req.socket.localAddress, req.socket.localPort));
    span.set({
      'url.path': req.path,
      'user_agent.original': headerText(req.headers['user-agent']) ?? undefined,
      'emulator.request.id': requestIdOf(req),
    });
    spanToEnd(res, span); // the writer ends it with the status it sends (server-span.ts)
  }
  return t.within(span, () => fn(span));
}
