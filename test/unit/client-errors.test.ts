import { describe, expect, it } from 'vitest';
import { clientErrorOf } from '../../src/http/client-errors.js';

/** The codes Node's HTTP server reports in 'clientError', in the emulator's vocabulary. */
describe('clientErrorOf', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'request_header_too_large'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'request_malformed'],
    ['HPE_INVALID_METHOD', 400, 'request_malformed'],
    ['HPE_INVALID_CHUNK_SIZE', 400, 'request_malformed'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'body_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
  ])('%s is %i %s', (code, status, errorCode) => {
    expect(clientErrorOf(code)).toMatchObject({ status, code: errorCode, type: 'invalid_request' });
  });

  it.each(['ECONNRESET', 'EPIPE', undefined])('a failed socket (%s) gets no answer', (code) => {
    expect(clientErrorOf(code)).toBeUndefined();
  });
});
