/**
 * The one place webhook messages leave the process: a plain HTTP(S) POST per attempt. What
 * counts as received follows the spec (Events → Delivery): every 2xx; redirects are not followed;
 * the wait is bounded. The dispatcher gets a result object, never an exception, so a broken
 * receiver can only ever fail its own delivery. Tests inject a fake Transport or point this one
 * at receivers on 127.0.0.1.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Addresses the URL policy vetted: the connection goes to one of them, with no lookup of its own. */
  addresses?: readonly string[] | undefined;
  /**
   * false: a refusal is reported by its status alone, without an excerpt of the body or a
   * redirect's Location (the strict policy: the emulator does not read out other hosts' pages).
   */
  quote?: boolean | undefined;
}

export interface TransportResult {
  /** Any 2xx. */
  ok: boolean;
  /** null when no response arrived. */
  status: number | null;
  /** null on success; otherwise a short sentence for the delivery's last_error. */
  error: string | null;
  durationMs: number;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResult>;
}

/** Enough of an error page to tell what went wrong; the rest is never read. */
const BODY_CAP_BYTES = 4096;
const EXCERPT_CHARS = 300;
const LOCATION_CHARS = 200;
/** Set by the transport from the body; a caller's value could only disagree with it. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection']);

/**
 * node:http / node:https POST; never follows redirects (3xx is a failure); times out after
 * timeoutMs for the whole exchange; reads at most 4 KiB of a non-2xx response body (a 2xx body
 * is not read at all) and then closes the socket; never throws. No keep-alive: every attempt
 * opens a fresh connection, so one receiver's stale socket cannot affect the next attempt.
 */
export function httpTransport(): Transport {
  return { send };
}

function send(request: TransportRequest): Promise<TransportResult> {
  const started = performance.now();
  return new Promise<TransportResult>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    let res: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (status: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Frees the socket at once: keep-alive is off and whatever the receiver still sends is unwanted.
      res?.destroy();
      req?.destroy();
      const ok = error === null && status !== null && status >= 200 && status < 300;
      resolve({ ok, status, error, durationMs: Math.round(performance.now() - started) });
    };
    const failStatus = (status: number): void => finish(status, httpError(status, Buffer.concat(chunks).subarray(0, BODY_CAP_BYTES)));

    const timeoutMs = Number.isFinite(request.timeoutMs) ? Math.max(1, Math.floor(request.timeoutMs)) : 1;
    const timer = setTimeout(() => {
      // A status that already arrived is the better explanation than the timeout.
      if (res?.statusCode !== undefined) failStatus(res.statusCode);
      else finish(null, `timed out after ${timeoutMs} ms`);
    }, timeoutMs);

    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      finish(null, 'invalid URL');
      return;
    }
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (!client) {
      finish(null, `unsupported protocol ${url.protocol}`);
      return;
    }

    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!OWN_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    headers['Content-Length'] = String(Buffer.byteLength(request.body, 'utf8'));

    try {
      // agent: false gives a one-off agent without keep-alive (the request says Connection: close).
      req = client.request(url, { method: 'POST', headers, agent: false, ...(request.addresses?.length ? { lookup: pinnedLookup(request.addresses) } : {}) });
    } catch (error) {
      // Invalid header names or values are refused synchronously by node:http.
      finish(null, `invalid request (${errorCode(error)})`);
      return;
    }

    req.on('error', (error) => finish(null, describeError(error, url.hostname)));
    req.on('response', (response) => {
      res = response;
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return finish(status, null);
      if (status >= 300 && status < 400) {
        const location = request.quote === false ? undefined : response.headers.location;
        const to = location ? ` to ${clip(clean(location), LOCATION_CHARS)}` : '';
        return finish(status, `redirect (${status}${to}) not followed`);
      }
      if (request.quote === false) return finish(status, `HTTP ${status}`);
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= BODY_CAP_BYTES) failStatus(status);
      });
      response.on('error', () => failStatus(status));
      // 'close' also follows 'end' and a reset in the middle of the body: report what arrived.
      response.on('close', () => failStatus(status));
    });
    req.end(request.body, 'utf8');
  });
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;

/** A lookup that answers with the vetted addresses (the host name stays for TLS and the Host header). */
function pinnedLookup(addresses: readonly string[]) {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

function httpError(status: number, body: Buffer): string {
  const excerpt = clip(clean(body.toString('utf8')), EXCERPT_CHARS);
  return excerpt ? `HTTP ${status}: ${excerpt}` : `HTTP ${status}`;
}

/** One line of printable text: last_error is shown in logs and JSON, never as raw bytes. */
function clean(text: string): string {
  return text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

function clip(text: string, max: number): string {
  const chars = [...text]; // by code point, so an emoji is never cut in half
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

function describeError(error: unknown, host: string): string {
  const code = errorCode(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET': // also "socket hang up": closed before any response
    case 'EPIPE':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
      return `could not resolve ${host}`;
    case 'EHOSTUNREACH':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'network unreachable';
    case 'ETIMEDOUT':
      return 'connection timed out';
  }
  if (code.startsWith('HPE_')) return `invalid HTTP response (${code})`;
  if (/CERT|TLS|SSL|EPROTO/.test(code)) return `TLS error (${code})`;
  return `request failed (${clip(clean(code), 100)})`;
}
