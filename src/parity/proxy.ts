import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { monotonicMs } from '../core/clock.js';
import { errorBody, fail, type ErrorCode } from '../core/errors.js';
import { createIds } from '../core/ids.js';
import { createRandom } from '../core/random.js';
import { responseChecker, type Violation } from './proxy-check.js';
import { FLOW_NAME, flowSink, recordFolderProblem } from './proxy-flows.js';
import { isSetUp } from './corpus.js';
import type { Exchange } from './record.js';

/**
 * `parity proxy`: a recording, checking proxy in front of a target. Every request is forwarded as
 * it comes and every answer streamed back; on the way, at most 1 MB of each body is kept, so an
 * answer of a /v1 operation is checked against the OpenAPI document and the exchange recorded
 * into a flow. The head of a JSON answer waits for its body (at most the 1 MB kept) so the
 * violations can go in a header; a larger answer is streamed on unchecked and unrecorded.
 */
export const PROXY_LIMITS = {
  /** Bytes of each request and response body kept for checking and recording. */
  keptBodyBytes: 1024 * 1024,
  /** The Parity-Violations header is left out above this many bytes. */
  violationsHeaderBytes: 8 * 1024,
  /** Violations of one answer written as lines; the rest are counted. */
  violationLines: 100,
  /** How long the target may take to answer, or stay silent mid-answer (ms). */
  upstreamTimeoutMs: 30_000,
  flowGapMs: 2_000,
  port: 4020,
} as const;

export interface ParityProxyOptions {
  /** The base URL forwarded to: `https://sandbox.example.com`, `http://127.0.0.1:4010`. */
  target: string;
  /** The folder flows are written to; without it, the proxy checks and records nothing. */
  record?: string;
  port?: number;
  host?: string;
  /** The OpenAPI document answers are checked against. */
  document: object;
  flowGapMs?: number;
  upstreamTimeoutMs?: number;
  log?: (line: string) => void;
  /** The role of each key, by role: `{ owner: 'hrs_test_...', readonly: 'hrs_test_...' }` (the keys `parity run` then takes for them). */
  roles?: Readonly<Record<string, string>>;
}

export interface ParityProxy {
  url: string;
  /** Stops taking requests, writes the open flows; the files written and the violations counted. */
  close(): Promise<{ flows: string[]; violations: number }>;
}

export class ProxyConfigError extends Error {}

/** Hop-by-hop headers (RFC 9110), Host, and the proxy's own header never go on. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'parity-flow']);

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim());
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !NOT_FORWARDED.has(k) && !named.includes(k)));
}

const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v!]));

/** A body kept up to the bound: the bytes, or undefined once it went past. */
class Kept {
  private chunks: Buffer[] | undefined = [];
  private size = 0;
  add(chunk: Buffer): void {
    if (!this.chunks) return;
    this.size += chunk.length;
    if (this.size > PROXY_LIMITS.keptBodyBytes) this.chunks = undefined;
    else this.chunks.push(chunk);
  }
  get whole(): Buffer | undefined {
    return this.chunks && Buffer.concat(this.chunks);
  }
}

/** A kept body as recorded: JSON parsed, other text as it is, nothing when empty. */
function bodyOf(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8');
  if (/json/.test(contentType ?? '')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Request ids of the proxy's own answers, made as the emulator makes its own. */
const ids = createIds(createRandom());

function refuse(res: ServerResponse, code: ErrorCode, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const err = fail(code, message);
  const id = ids.id('req');
  res.writeHead(err.status, { 'content-type': 'application/json', 'request-id': id });
  res.end(JSON.stringify(errorBody(err, id)));
}

export async function startParityProxy(options: ParityProxyOptions): Promise<ParityProxy> {
  let target: URL;
  try {
    target = new URL(options.target);
  } catch {
    throw new ProxyConfigError(`--target must be an http(s) URL: ${options.target}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new ProxyConfigError(`--target must be an http(s) URL: ${options.target}`);
  if (options.record) {
    const problem = recordFolderProblem(options.record);
    if (problem) throw new ProxyConfigError(problem);
  }
  const log = options.log ?? (() => {});
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? PROXY_LIMITS.upstreamTimeoutMs;
  const checker = responseChecker(options.document);
  const agent = target.protocol === 'https:' ? https : http;
  const base = target.pathname.replace(/\/$/, '');
  let violations = 0;

  const getJson = (path: string, authorization: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = agent.request(new URL(`${base}${path}`, target), { method: 'GET', headers: { authorization, accept: 'application/json' }, timeout: upstreamTimeoutMs }, (res) => {
        const kept = new Kept();
        res.on('data', (c: Buffer) => kept.add(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: bodyOf(kept.whole ?? Buffer.alloc(0), res.headers['content-type']) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${upstreamTimeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  const flows = flowSink({ target: options.target, gapMs: options.flowGapMs ?? PROXY_LIMITS.flowGapMs, log, get: getJson, ...(options.record ? { record: options.record } : {}), ...(options.roles ? { roles: options.roles } : {}) });

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const flowName = req.headers['parity-flow'];
    if (typeof flowName === 'string' && !FLOW_NAME.test(flowName)) {
      req.resume();
      refuse(res, 'request_malformed', `Parity-Flow must be a flow name: lower-case letters, digits, '.', '_' and '-', at most 80, got ${JSON.stringify(flowName.slice(0, 100))}`);
      return;
    }
    // The service's API, and the emulator's control API as a flow's set-up (replayed only against an emulator).
    const recorded = path.startsWith('/v1/') || isSetUp(path);
    const slot = recorded ? flows.join(typeof flowName === 'string' ? flowName : undefined) : undefined;
    // The first request of a new flow waits until the flow it ends has read its events: it may reset what they are read from.
    if (slot?.after) void slot.after.then(() => forward(req, res, method, path, slot));
    else forward(req, res, method, path, slot);
  };

  const forward = (req: IncomingMessage, res: ServerResponse, method: string, path: string, slot: ReturnType<typeof flows.join> | undefined): void => {
    let settled = false;
    const settle = (x: Exchange | undefined) => {
      if (!settled) slot?.settle(x);
      settled = true;
    };
    const requestBody = new Kept();
    // The socket's idle timeout, as getJson has it: no answer, or a stalled one, within the bound ends the exchange.
    const upstream = agent.request(new URL(`${base}${path}`, target), { method, headers: forwardable(req.headers), timeout: upstreamTimeoutMs });
    let connected = false;
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => void (connected = true));
      else connected = true;
    });
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('timeout'), { code: 'PARITY_TIMEOUT' })));
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      let dropped: Exchange | undefined;
      if (err.code === 'PARITY_TIMEOUT') {
        log(`${method} ${path}: the target did not answer within ${upstreamTimeoutMs} ms`);
        refuse(res, 'upstream_timeout', `The target ${target.origin} did not answer within ${upstreamTimeoutMs / 1000} s.`);
      } else if (connected && !res.headersSent) {
        // The target took the request and dropped the connection (a lost answer is what some tests rehearse): so does the proxy,
        // and the flow records a step without an answer (status 0), so that a replay sends it too.
        log(`${method} ${path}: the target closed the connection without an answer; so does the proxy`);
        const sent = requestBody.whole;
        if (sent !== undefined) dropped = { method, path, headers: flat(req.headers), ...(sent.length ? { body: bodyOf(sent, req.headers['content-type']) } : {}), response: { status: 0, headers: {} } };
        req.socket.destroy();
      } else {
        log(`${method} ${path}: the target cannot be reached: ${err.code ?? err.message}`);
        refuse(res, 'upstream_unreachable', `The target ${target.origin} cannot be reached (${err.code ?? err.message}).`);
      }
      settle(dropped);
    });
    req.on('data', (c: Buffer) => requestBody.add(c));
    req.pipe(upstream);
    const began = monotonicMs();
    res.on('close', () => {
      if (!res.writableFinished) {
        upstream.destroy();
        // The client gave up waiting (a timeout it rehearses): recorded with how long it waited, so a replay waits as long.
        const sent = requestBody.whole;
        const waited = Math.round(monotonicMs() - began);
        settle(connected && !res.headersSent && sent !== undefined
          ? { method, path, headers: flat(req.headers), ...(sent.length ? { body: bodyOf(sent, req.headers['content-type']) } : {}), response: { status: 0, headers: {}, abandoned_after_ms: waited } }
          : undefined);
      }
    });

    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const headers = forwardable(answer.headers);
      const contentType = answer.headers['content-type'];
      const op = checker.operation(method, path);
      const report = (found: Violation[]): void => {
        violations += found.length;
        // One line each, up to a bound: a 1 MB body can hold tens of thousands.
        for (const v of found.slice(0, PROXY_LIMITS.violationLines)) log(`violation ${method} ${path} ${status}: ${v.location} ${v.message} (${v.severity})`);
        if (found.length > PROXY_LIMITS.violationLines) log(`violation ${method} ${path} ${status}: ${found.length - PROXY_LIMITS.violationLines} more not shown`);
        const header = JSON.stringify(found);
        if (found.length && Buffer.byteLength(header) <= PROXY_LIMITS.violationsHeaderBytes) headers['parity-violations'] = header;
      };
      const finish = (body: Buffer | undefined): void => {
        const requestBytes = requestBody.whole;
        if (!slot) return;
        if (body === undefined || requestBytes === undefined) {
          log(`${method} ${path}: a body over ${PROXY_LIMITS.keptBodyBytes} bytes passed through unrecorded`);
          settle(undefined);
          return;
        }
        settle({
          method,
          path,
          headers: flat(req.headers),
          ...(requestBytes.length ? { body: bodyOf(requestBytes, req.headers['content-type']) } : {}),
          response: { status, headers: flat(answer.headers), ...(body.length ? { body: bodyOf(body, contentType) } : {}) },
        });
      };
      if (!op || !/json/.test(contentType ?? '')) {
        // Not JSON of a /v1 operation: nothing to wait for before the head; the status still checked.
        if (op) report(checker.check(method, path, status, contentType, undefined));
        res.writeHead(status, answer.statusMessage, headers);
        const kept = new Kept();
        answer.on('data', (c: Buffer) => kept.add(c));
        answer.on('end', () => finish(kept.whole));
        answer.pipe(res);
        return;
      }
      // JSON of a /v1 operation: the head waits for the body, up to the bound.
      let held: Buffer[] = [];
      let size = 0;
      let streaming = false;
      answer.on('data', (c: Buffer) => {
        if (streaming) return;
        size += c.length;
        if (size <= PROXY_LIMITS.keptBodyBytes) {
          held.push(c);
          return;
        }
        streaming = true;
        log(`${method} ${path}: an answer over ${PROXY_LIMITS.keptBodyBytes} bytes passed through unchecked`);
        res.writeHead(status, answer.statusMessage, headers);
        res.write(Buffer.concat([...held, c]));
        held = [];
        answer.pipe(res);
      });
      answer.on('end', () => {
        if (streaming) {
          finish(undefined);
          return;
        }
        const bytes = Buffer.concat(held);
        const body = bodyOf(bytes, contentType);
        report(checker.check(method, path, status, contentType, body));
        res.writeHead(status, answer.statusMessage, { ...headers, ...(answer.headers['content-length'] !== undefined ? {} : { 'content-length': String(bytes.length) }) });
        res.end(bytes);
        finish(bytes);
      });
    });
  };

  const server = http.createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? PROXY_LIMITS.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return { flows: await flows.close(), violations };
    },
  };
}
