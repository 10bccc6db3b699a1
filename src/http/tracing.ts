import type { Request, Response } from 'express';
import { tracer, type TraceParent } from '../core/tracing.js';
import { headerText } from './journal.js';
import { requestIdOf } from './reply.js';

/** An Express path as the OpenAPI document and the spec write it: `/v1/onboardings/{id}`. */
export const routeTemplate = (path: string): string => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** The caller's trace (W3C traceparent, and its tracestate), null when it sent none. */
function inbound(req: Request): TraceParent | null {
  const traceparent = headerText(req.headers.traceparent);
  if (traceparent === null) return null;
  const tracestate = headerText(req.headers.tracestate);
  return tracestate === null ? { traceparent } : { traceparent, tracestate };
}

/**
 * Runs a /v1 request's handling inside a SERVER span named after its route's template (`GET
 * /v1/onboardings/{id}`), continuing the caller's traceparent; the span ends when the answer
 * has gone (or the connection closed), with the status sent. With tracing off, just fn.
 */
export function inServerSpan<T>(req: Request, res: Response, method: string, path: string, fn: () => T): T {
  const t = tracer();
  if (!t.enabled) return fn();
  const route = routeTemplate(path);
  const host = req.socket.localAddress;
  // A caller's broken traceparent is ignored by the propagator: the span starts a trace of its own.
  const span = t.start(`${method} ${route}`, {
    kind: 'server',
    parent: inbound(req),
    attributes: {
      'http.request.method': method,
      'http.route': route,
      'url.path': req.path,
      'url.scheme': req.protocol,
      'server.address': host,
      'server.port': req.socket.localPort,
      'client.address': req.socket.remoteAddress,
      'network.protocol.version': req.httpVersion,
      'user_agent.original': headerText(req.headers['user-agent']) ?? undefined,
      'emulator.request.id': requestIdOf(req),
    },
  });
  res.once('close', () => {
    const status = res.statusCode;
    span.set({ 'http.response.status_code': status, ...(res.writableFinished ? {} : { 'emulator.answer.completed': false }) });
    // For a server, only a 5xx is its own failure; a 4xx is the caller's.
    if (status >= 500) {
      span.set({ 'error.type': String(status) });
      span.fail(`answered ${status}`);
    }
    span.end();
  });
  return t.within(span, fn);
}
