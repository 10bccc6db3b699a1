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
  // The route's own attributes, the same for each of its requests.
  const fixed: SpanAttributes = { 'http.request.method': method, 'http.route': route, 'url.scheme': 'http' };
  return (req, res, fn) => {
    const t = tracer();
    return t.enabled ? traced(t, name, fixed, req, res, fn) : fn(NO_TRACER.start(''));
  };
}

/** A span that starts a trace (no traceparent came): the same options for every such request. */
const NEW_TRACE: SpanStart = Object.freeze({ kind: 'server', parent: null });

function traced<T>(t: Tracer, name: string, fixed: SpanAttributes, req: Request, res: Response, fn: (span: Span) => T): T {
  // A caller's broken traceparent is ignored: the span starts a trace of its own.
  const parent = inbound(req);
  const span = t.start(name, parent === null ? NEW_TRACE : { kind: 'server', parent });
  // An unsampled span records nothing: no attributes to build, no end to wait for.
  if (span.recording) {
    span.set(fixed);
    span.set({
      'url.path': req.path,
      'server.address': req.socket.localAddress,
      'server.port': req.socket.localPort,
      'user_agent.original': headerText(req.headers['user-agent']) ?? undefined,
      'emulator.request.id': requestIdOf(req),
    });
    spanToEnd(res, span); // the writer ends it with the status it sends (server-span.ts)
  }
  return t.within(span, () => fn(span));
}
