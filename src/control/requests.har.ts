import { bodyTextOf, type AnsweredEntry } from '../core/journal.js';
import type { HarEntry } from './har.schemas.js';
import { byteLength, harTimings, nameValues, queryPairs, statusText } from './har.document.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * One recorded /v1 request as a HAR entry. The key is shown masked, as the journal keeps it;
 * the headers are the ones the journal records. The answer's text is there while the journal
 * still holds it (not in a snapshot or after its own budget); an answer an injected fault
 * dropped is status 0 with `_error`, as a browser shows a request that got no answer.
 */
export function requestEntry({ entry: e, answer }: AnsweredEntry, baseUrl: string): HarEntry {
  const query = queryPairs(e.query);
  const search = query.length > 0 ? `?${new URLSearchParams(query.map((q): [string, string] => [q.name, q.value]))}` : '';
  const sentBody = e.body_bytes !== null;
  // The body as sent, as the journal keeps it: not parsed to be written again.
  const kept = bodyTextOf(e);
  const bodyText = kept !== undefined ? kept : e.body === null ? null : JSON.stringify(e.body);
  const ms = e.duration_ms ?? 0;
  const status = e.answered ? e.status : 0;
  return {
    startedDateTime: e.at,
    time: ms,
    request: {
      method: e.method,
      url: `${baseUrl.replace(/\/+$/, '')}${e.path}${search}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues({
        Authorization: e.key ? `Bearer ${e.key}` : null,
        'Content-Type': sentBody ? 'application/json' : null,
        'Idempotency-Key': e.headers.idempotency_key,
        'Service-Version': e.headers.service_version,
        'Service-Organization': e.headers.service_organization,
      }),
      queryString: query,
      ...(sentBody
        ? { postData: { mimeType: 'application/json', text: bodyText ?? '', ...(bodyText === null ? { comment: 'larger than the journal keeps: only its size (bodySize) is known' } : {}) } }
        : {}),
      headersSize: -1,
      bodySize: e.body_bytes ?? 0,
    },
    response: {
      status,
      statusText: statusText(status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues({ 'Content-Type': answer === null ? null : JSON_TYPE, 'Idempotent-Replayed': e.replayed ? 'true' : null }),
      content:
        answer === null
          ? { size: -1, mimeType: JSON_TYPE, comment: 'the answer is no longer held (read back from a snapshot, or past the journal\'s budget for answers)' }
          : { size: byteLength(answer), mimeType: JSON_TYPE, text: answer },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer === null ? -1 : byteLength(answer),
      ...(e.answered ? {} : { _error: `the answer was dropped (an injected fault, or the client gave up on a slow answer); it would have been ${e.status}` }),
    },
    cache: {},
    timings: harTimings(ms),
    _id: e.id,
    ...(e.error_code === null ? {} : { _error_code: e.error_code }),
    _onboarding_ids: e.onboarding_ids,
  };
}
