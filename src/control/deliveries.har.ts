import type { AttemptRecord, DeliveryRecord } from '../resources/webhooks/webhooks.model.js';
import type { HarEntry } from './har.schemas.js';
import { byteLength, harTimings, nameValues, statusText } from './har.document.js';

/**
 * One webhook attempt as a HAR entry: the POST as sent (the signed headers the attempt kept,
 * the message's exact bytes) and what came back. The emulator never reads a 2xx body and keeps
 * only the start of a refusal's in its error, so the content is empty and the reason is in
 * `_error`; no answer at all (a refused connection, a timeout, the URL policy) is status 0 with
 * `_error`, as browsers export a request that failed.
 */
export function attemptEntry(delivery: DeliveryRecord, url: string, attempt: AttemptRecord, n: number): HarEntry {
  const status = attempt.status_code ?? 0;
  const ms = attempt.sent?.duration_ms ?? 0;
  return {
    startedDateTime: attempt.at,
    time: ms,
    request: {
      method: 'POST',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(attempt.sent?.headers ?? {}),
      queryString: [],
      postData: { mimeType: 'application/json', text: delivery.body },
      headersSize: -1,
      bodySize: byteLength(delivery.body),
      ...(attempt.sent ? {} : { comment: 'the headers sent are not known: refused before connecting, or read back from a snapshot (which does not keep them)' }),
    },
    response: {
      status,
      statusText: statusText(status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'application/octet-stream', comment: 'the emulator does not keep a receiver\'s answer body; a refusal\'s start is in _error' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(attempt.error === null ? {} : { _error: attempt.error }),
    },
    cache: {},
    timings: harTimings(ms),
    _id: delivery.id,
    _event_id: delivery.event_id,
    _event_type: delivery.event_type,
    _endpoint_id: delivery.endpoint_id,
    _attempt: n,
    _manual: attempt.manual,
    ...(attempt.injected ? { _injected: attempt.injected } : {}),
  };
}
