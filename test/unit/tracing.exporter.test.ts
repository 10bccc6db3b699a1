import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen } from '../../src/http/server.js';
import { batchExporter, type BatchExporter, type ExporterOptions } from '../../src/tracing/exporter.js';
import type { SpanRecord } from '../../src/tracing/span-record.js';
import { otlpReceiver, type OtlpReceiver } from '../support/otlp.js';
import { until } from '../support/wait.js';

const span = (name: string, attributes: SpanRecord['attributes'] = []): SpanRecord => ({
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  parentSpanId: '',
  tracestate: '',
  name,
  kind: 2,
  startMs: 1,
  endMs: 2,
  attributes,
  statusCode: 0,
  statusMessage: '',
});

let receiver: OtlpReceiver | undefined;
let exporter: BatchExporter | undefined;
afterEach(async () => {
  await exporter?.shutdown();
  await receiver?.close();
  exporter = receiver = undefined;
});

async function setUp(maxExportBatchSize = 512, encoding: 'json' | 'protobuf' = 'json'): Promise<{ receiver: OtlpReceiver; exporter: BatchExporter }> {
  receiver = await otlpReceiver();
  exporter = batchExporter({
    endpoint: `${receiver.url}/v1/traces`,
    encoding,
    headers: {},
    timeoutMs: 2_000,
    scheduleDelayMs: 60_000,
    maxQueueSize: 2048,
    maxExportBatchSize,
    resource: { 'service.name': 'svc' },
    scope: { name: 'n', version: 'v' },
  });
  return { receiver, exporter };
}

describe('the batch exporter', () => {
  it('encodes the spans of a turn of the event loop once it is over: flush sends spans ended just before it', async () => {
    const { receiver, exporter } = await setUp();
    exporter.add(span('a'));
    exporter.add(span('b'));
    await exporter.flush();
    expect(receiver.spans.map((s) => s.name)).toEqual(['a', 'b']);
    expect(exporter.counts()).toEqual({ exported: 2, dropped: 0, failedExports: 0 });
  });

  it('a full batch goes out without a flush; the rest waits for one', async () => {
    const { receiver, exporter } = await setUp(3);
    for (const name of ['a', 'b', 'c', 'd']) exporter.add(span(name));
    const got = await receiver.waitFor((s) => s.length >= 3, 'the full batch', 5_000);
    expect(got.map((s) => s.name)).toEqual(['a', 'b', 'c']);
    await exporter.flush();
    expect(receiver.spans.map((s) => s.name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('sends OTLP/protobuf when asked, with its content type', async () => {
    const { receiver, exporter } = await setUp(512, 'protobuf');
    exporter.add(span('p', [{ 'url.path': '/v1/x', 'server.port': 8080, ok: true }]));
    await exporter.flush();
    expect(receiver.encodings()).toEqual(['protobuf']);
    expect(receiver.spans).toMatchObject([{ service: 'svc', name: 'p', kind: 2, attributes: { 'url.path': '/v1/x', 'server.port': 8080, ok: true } }]);
  });

  it('after shutdown a span is dropped and counted, not sent', async () => {
    const { receiver, exporter } = await setUp();
    exporter.add(span('kept'));
    await exporter.shutdown();
    exporter.add(span('late'));
    // A flush sends whatever is queued: the late span is not among it.
    await exporter.flush();
    expect(receiver.spans.map((s) => s.name)).toEqual(['kept']);
    expect(exporter.counts()).toEqual({ exported: 1, dropped: 1, failedExports: 0 });
  });
});

describe('the batch exporter under an endpoint or headers node:http refuses', () => {
  const options: ExporterOptions = {
    endpoint: 'http://127.0.0.1:9/v1/traces', encoding: 'json', headers: {}, timeoutMs: 2_000, scheduleDelayMs: 20,
    maxQueueSize: 2048, maxExportBatchSize: 512, resource: { 'service.name': 'svc' }, scope: { name: 'n', version: 'v' },
  };

  it.each([
    ['a space in a header name', { headers: { 'x team': 'a' } }],
    ['CR LF in a header value', { headers: { 'x-team': 'a\r\nb: c' } }],
    ['a header value beyond Latin-1', { headers: { 'x-team': '\u20ac' } }],
    ['an ftp:// endpoint', { endpoint: 'ftp://127.0.0.1:9/v1/traces' }],
    ['an endpoint that is no URL', { endpoint: 'not a url' }],
  ])('%s: each export fails, counted and reported, and a server in the same process keeps answering', async (_, bad: Partial<ExporterOptions>) => {
    const running = await listen(new Emulator(), { host: '127.0.0.1', port: 0 });
    try {
      const errors: unknown[] = [];
      exporter = batchExporter({ ...options, ...bad, onError: (err) => errors.push(err) });
      exporter.add(span('flushed'));
      await exporter.flush();
      // The next one goes on the schedule, from a timer: nothing there may throw either.
      exporter.add(span('scheduled'));
      await until(() => exporter!.counts().failedExports === 2, 'the scheduled export', 2_000);
      expect(exporter.counts()).toEqual({ exported: 0, dropped: 2, failedExports: 2 });
      expect(errors).toHaveLength(2);
      expect(errors[0]).toBeInstanceOf(Error);
      expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
