import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { until } from './wait.js';

/**
 * An OTLP/HTTP trace receiver for the tracing tests: a server on 127.0.0.1 taking
 * POST /v1/traces in JSON or protobuf. The spans of an OTLP/JSON export are read and kept with
 * their service; an OTLP/protobuf body is kept as it came (the tests that ask for the default
 * encoding look into it; the span's content is checked over JSON, which the same SDK writes).
 * Besides, the test's own tracer (a partner's client, a partner's webhook receiver), exporting
 * to the same receiver, so one trace can be checked whole.
 */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

export const OTLP_KIND = { internal: 1, server: 2, client: 3 } as const;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[]; status?: { code?: number } }[] }[];
  }[];
}

const valueOf = (v: AnyValue): string | number | boolean => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue ?? v.doubleValue ?? '');
const attributesOf = (list: KeyValue[] | undefined): Record<string, string | number | boolean> => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** How many export requests arrived. */
  exports(): number;
  /** The encodings they came in (OTLP/JSON, OTLP/protobuf), each once. */
  encodings(): ('json' | 'protobuf')[];
  /** The bodies of the OTLP/protobuf exports, as they came. */
  protobufBodies: Buffer[];
  /** Waits (bounded) until `condition` holds for the spans received. */
  waitFor(condition: (spans: ReceivedSpan[]) => boolean, what: string, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  let exports = 0;
  const encodings: ('json' | 'protobuf')[] = [];
  const protobufBodies: Buffer[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const type = String(req.headers['content-type']);
      const protobuf = type.startsWith('application/x-protobuf');
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(protobuf || type.startsWith('application/json'))) {
        res.writeHead(404).end();
        return;
      }
      exports++;
      encodings.push(protobuf ? 'protobuf' : 'json');
      const bytes = Buffer.concat(chunks);
      if (protobuf) {
        protobufBodies.push(bytes);
        res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
        return;
      }
      const body = JSON.parse(bytes.toString('utf8')) as ExportRequest;
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, attributes: attributesOf(s.attributes), status: s.status?.code ?? 0 });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    exports: () => exports,
    encodings: () => [...new Set(encodings)],
    protobufBodies,
    async waitFor(condition, what, ms = 10_000) {
      await until(() => condition(spans), what, ms);
      return spans;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The test's own tracer, a partner's: its spans go to the receiver at once (no batching). */
export function partnerTracer(receiverUrl: string, service: string) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${receiverUrl}/v1/traces` }))],
  });
  const tracer: Tracer = provider.getTracer('tracing-test');
  const propagator = new W3CTraceContextPropagator();
  const getter = { keys: (c: Record<string, string | string[] | undefined>) => Object.keys(c), get: (c: Record<string, string | string[] | undefined>, k: string) => c[k] };
  return {
    /** A CLIENT span and the traceparent header that continues it. */
    client(name: string): { span: Span; headers: Record<string, string> } {
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT }, ROOT_CONTEXT);
      const headers: Record<string, string> = {};
      propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, { set: (c, k, v) => void (c[k] = v) });
      return { span, headers };
    },
    /** A SERVER span continuing the trace of the headers a request came with. */
    server(name: string, headers: Record<string, string | string[] | undefined>): Span {
      const parent: Context = propagator.extract(ROOT_CONTEXT, headers, getter);
      return tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
