import { tracer, type Span } from '../../core/tracing.js';
import type { Workspace } from '../../core/workspace.js';
import type { DeliveryRecord, WebhookEndpointRecord } from './webhooks.model.js';

/** The address as a span may show it: no user name or password. */
function shownUrl(url: string): URL | null {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u;
  } catch {
    return null;
  }
}

/**
 * The CLIENT span of one delivery attempt, a child of the span that made the event (the
 * delivery's `trace`), else a trace of its own: never of whatever request or alarm happens to
 * run the timer. Its headers go out with the message, so the receiver's span joins the trace.
 */
export function startAttemptSpan(ws: Workspace, endpoint: WebhookEndpointRecord, delivery: DeliveryRecord, manual: boolean): Span {
  const t = tracer();
  if (!t.enabled) return t.start('');
  const span = t.start('webhook.attempt', { kind: 'client', parent: delivery.trace ?? null });
  // Attributes only for a recorded span: an unsampled one just carries its ids to the receiver.
  if (!span.recording) return span;
  const url = shownUrl(endpoint.url);
  span.set({
    'http.request.method': 'POST',
    'url.full': url?.href,
    'server.address': url?.hostname,
    'server.port': url ? Number(url.port || (url.protocol === 'https:' ? 443 : 80)) : undefined,
    'emulator.workspace.id': ws.id,
    'webhook.endpoint.id': endpoint.id,
    'webhook.delivery.id': delivery.id,
    'webhook.event.id': delivery.event_id,
    'webhook.event.type': delivery.event_type,
    'webhook.attempt': delivery.attempts + 1,
    'webhook.attempt.manual': manual,
  });
  return span;
}

/** Ends the attempt's span with what came back. */
export function endAttemptSpan(span: Span, result: { ok: boolean; status: number | null; error: string | null }, injected: string | undefined): void {
  if (!span.recording) return span.end();
  span.set({
    'http.response.status_code': result.status ?? undefined,
    'webhook.injected_fault': injected,
  });
  if (!result.ok) {
    span.set({ 'error.type': result.status !== null ? String(result.status) : 'no_answer' });
    span.fail(result.error ?? 'failed');
  }
  span.end();
}
