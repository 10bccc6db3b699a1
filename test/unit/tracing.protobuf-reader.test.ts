import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeTraceRequest } from '../support/protobuf.js';

type Decoded = {
  resourceSpans: {
    resource: { attributes: { key: string; value: unknown }[] };
    scopeSpans: { scope: { name: string; version: string }; spans: Record<string, unknown>[] }[];
  }[];
};

// The tests hold our protobuf encoder to carry what our JSON encoder does, read by the tests' own
// wire-format reader (test/support/protobuf.ts). This holds that reader to the OpenTelemetry
// SDK's protobuf encoding, so the field numbers both sides use are the SDK's, not ours alone.
describe("the tests' protobuf reader", () => {
  it("reads the OpenTelemetry SDK's own OTLP/protobuf export as its OTLP/JSON form has it", () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'sdk-app' }), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const span = provider.getTracer('scope-x', '9.9.9').startSpan('GET /v1/x', { kind: SpanKind.SERVER, attributes: { s: 'Zoë ✓', n: -42, big: 2 ** 40, b: true, d: 0.5 } });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'answered 503' });
    span.end();
    const [finished] = exporter.getFinishedSpans();
    const body = ProtobufTraceSerializer.serializeRequest([finished!]);
    const decoded = decodeTraceRequest(Buffer.from(body!)) as unknown as Decoded;

    const [rs] = decoded.resourceSpans;
    expect(rs!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'sdk-app' } });
    const [ss] = rs!.scopeSpans;
    expect(ss!.scope).toEqual({ name: 'scope-x', version: '9.9.9' });
    const nanos = (t: [number, number]): string => (BigInt(t[0]) * 1_000_000_000n + BigInt(t[1])).toString();
    expect(ss!.spans[0]).toMatchObject({
      traceId: finished!.spanContext().traceId,
      spanId: finished!.spanContext().spanId,
      name: 'GET /v1/x',
      kind: 2,
      startTimeUnixNano: nanos(finished!.startTime),
      endTimeUnixNano: nanos(finished!.endTime),
      status: { code: 2, message: 'answered 503' },
      attributes: [
        { key: 's', value: { stringValue: 'Zoë ✓' } },
        { key: 'n', value: { intValue: '-42' } },
        { key: 'big', value: { intValue: String(2 ** 40) } },
        { key: 'b', value: { boolValue: true } },
        { key: 'd', value: { doubleValue: 0.5 } },
      ],
    });
  });
});
