import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { ApiError, errorBody, fail } from '../core/errors.js';
import { CURRENT_API_VERSION } from '../core/versions.js';

/** How long a socket stays open after a parse error's answer, for the client to read it. */
const CLOSE_AFTER_MS = 2_000;

/**
 * What a request Node's HTTP parser refused is answered with; undefined for a socket that
 * failed (a reset, say), which gets no answer. The codes are llhttp's and Node's.
 */
export function clientErrorOf(code: string | undefined): ApiError | undefined {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return fail('request_header_too_large', 'The request line and headers are larger than 16 kB together; send fewer or shorter headers.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return fail('body_too_large', 'The chunk extensions of the body are too large to be read.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return fail('request_timeout', 'The request was not received in time.');
    default:
      if (code?.startsWith('HPE_')) {
        return fail('request_malformed', `The request could not be read as HTTP/1.1 (${code}): check the request line and the headers for characters HTTP does not allow.`);
      }
      return undefined;
  }
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 kB, a NUL or another character HTTP
 * forbids, a broken request line) never reach the app; Node's default answers them with an
 * empty body. They get the error envelope here, written raw, with a fresh request id.
 */
export function answerClientErrors(server: Server, requestId: () => string, logger?: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const error = clientErrorOf(err.code);
    // Node's own rule: no answer over one already begun on this socket.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!error || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    const id = requestId();
    const body = JSON.stringify(errorBody(error, id));
    const head = [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
      `Request-Id: ${id}`,
      `Service-Version: ${CURRENT_API_VERSION}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    logger?.info({ req: { id }, res: { status: error.status }, err: { code: err.code } }, 'request not parsed');
    // A half-close: destroying at once could reset the connection while the client still sends
    // (the rest of a long header), and take the answer with it.
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
  });
}
