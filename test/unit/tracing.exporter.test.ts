import { afterEach, describe, expect, it } from 'vitest';
import { batchExporter, type BatchExporter } from '../../src/tracing/exporter.js';
import type { SpanRecord } from '../../src/tracing/span-record.js';
import { otlpReceiver, type OtlpReceiver } from '../support/otlp.js';

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
    await new Promise((resolve) => setImmediate(resolve));
    expect(receiver.spans.map((s) => s.name)).toEqual(['kept']);
    expect(exporter.counts()).toEqual({ exported: 1, dropped: 1, failedExports: 0 });
  });
});
