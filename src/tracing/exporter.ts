/**
 * The batch exporter: finished spans are encoded at the end of the event loop's turn they ended
 * in and wait as bytes (span-batch.ts); they go out as one OTLP/HTTP POST (JSON or protobuf) when a batch is full
 * or the schedule's delay has passed, one request in flight at a time. Beyond the queue's bound
 * a span is dropped and counted. A failed export (no collector, a timeout,
 * a non-2xx answer) drops its spans and is counted too: it never reaches the emulator. Nothing
 * here throws out of the exporter: an error in a request, an encoder or a timer's callback is
 * counted as a failed export and handed to `onError`, never left to end the process.
 */
import http from 'node:http';
import { afterThisTurn, wallInterval } from '../core/timers.js';
import https from 'node:https';
import { CONTENT_TYPES, SpanBatch, type OtlpEncoding } from './span-batch.js';
import type { SpanRecord } from './span-record.js';

export interface ExporterOptions {
  endpoint: string;
  encoding: OtlpEncoding;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
  resource: Readonly<Record<string, string>>;
  scope: { name: string; version: string };
  /** Told of an exception the exporter caught (a request node:http refused, say). */
  onError?: ((err: unknown) => void) | undefined;
}

/** What became of the spans so far. */
export interface ExportCounts {
  exported: number;
  /** Dropped: over the queue's bound, or in a failed export. */
  dropped: number;
  failedExports: number;
}

export interface BatchExporter {
  add(span: SpanRecord): void;
  /** Sends every span waiting now; resolves when they have gone (or failed). */
  flush(): Promise<void>;
  /** flush(), then no more sending. */
  shutdown(): Promise<void>;
  counts(): ExportCounts;
}

export function batchExporter(o: ExporterOptions): BatchExporter {
  // An endpoint that is no URL fails each export instead of the start (settings.ts checks it first).
  const url = URL.canParse(o.endpoint) ? new URL(o.endpoint) : null;
  const secure = url?.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 1 });
  const caught = (err: unknown): void => {
    try {
      o.onError?.(err);
    } catch {
      // A report that fails is dropped too.
    }
  };
  const counts: ExportCounts = { exported: 0, dropped: 0, failedExports: 0 };
  const waiting = new SpanBatch(o.resource, o.scope, undefined, o.encoding);
  let inFlight: Promise<void> | null = null;
  let stopped = false;

  /** POSTs one batch (`spans` of them in `body`); resolves whatever happens. */
  const post = (body: Buffer, spans: number): Promise<void> =>
    new Promise<void>((resolve) => {
      let settled = false;
      const done = (ok: boolean): void => {
        if (settled) return;
        settled = true;
        if (ok) counts.exported += spans;
        else {
          counts.dropped += spans;
          counts.failedExports++;
        }
        resolve();
      };
      let req: http.ClientRequest;
      try {
        if (!url) throw new Error(`not a URL: ${o.endpoint}`);
        // node:http throws at once for a header it cannot send or a protocol it does not speak.
        req = transport.request(url, {
          method: 'POST',
          agent,
          timeout: o.timeoutMs,
          headers: { ...o.headers, 'Content-Type': CONTENT_TYPES[o.encoding], 'Content-Length': body.length },
        });
      } catch (err) {
        caught(err);
        done(false);
        return;
      }
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300));
        res.on('error', () => done(false));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => done(false));
      req.end(body);
    });

  /** Sends batches while spans wait (or only full ones), one at a time; never rejects. */
  const drain = (onlyFull: boolean): Promise<void> => {
    if (inFlight) return inFlight;
    if (waiting.count === 0 || (onlyFull && waiting.count < o.maxExportBatchSize)) return Promise.resolve();
    let batch: { body: Buffer; spans: number };
    try {
      // A view of a reused buffer: safe, as the next batch is taken only once this export is over.
      batch = waiting.take(o.maxExportBatchSize);
    } catch (err) {
      caught(err);
      return Promise.resolve();
    }
    inFlight = post(batch.body, batch.spans)
      .then(() => {
        inFlight = null;
        // A batch that filled up meanwhile goes at once; the rest waits for the schedule.
        if (!stopped) void drain(true);
      })
      .catch((err: unknown) => {
        inFlight = null;
        caught(err);
      });
    return inFlight;
  };

  const stopSchedule = wallInterval(o.scheduleDelayMs, () => void drain(false));

  /**
   * Spans that ended during this turn of the event loop, encoded together once it is over: the
   * request that ended one has answered by then, and the encoder runs warm over a run of spans
   * instead of cold between two requests' work.
   */
  const ended: SpanRecord[] = [];
  const encodeEnded = (): void => {
    for (let i = 0; i < ended.length; i++) {
      try {
        enqueue(ended[i]!);
      } catch (err) {
        counts.dropped++;
        caught(err);
      }
    }
    ended.length = 0;
  };
  const enqueue = (span: SpanRecord): void => {
    if (stopped || waiting.count >= o.maxQueueSize) {
      counts.dropped++;
      return;
    }
    waiting.add(span);
    if (waiting.count >= o.maxExportBatchSize && !inFlight) void drain(true);
  };

  const flushAll = async (): Promise<void> => {
    encodeEnded();
    // Bounded: each round sends or waits for one batch, and what waits now is finite.
    for (let rounds = Math.ceil(waiting.count / o.maxExportBatchSize) + 2; rounds > 0 && (waiting.count > 0 || inFlight); rounds--) await drain(false);
  };

  return {
    add(span) {
      if (stopped) counts.dropped++;
      else if (ended.push(span) === 1) afterThisTurn(encodeEnded);
    },
    flush: flushAll,
    async shutdown() {
      stopSchedule();
      await flushAll();
      stopped = true;
      agent.destroy();
    },
    counts: () => ({ ...counts }),
  };
}
