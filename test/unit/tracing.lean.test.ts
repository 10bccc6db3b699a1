import { describe, expect, it } from 'vitest';
import { unixNanos } from '../../src/tracing/otlp-json.js';
import { SpanBatch } from '../../src/tracing/span-batch.js';
import { decodeTraceRequest } from '../support/protobuf.js';

type Prefix = [resource: Record<string, string>, scope: { name: string; version: string }];
const requestPrefix = (...args: Prefix): Prefix => args;
/** The export request of `spans`, from a batch whose buffers start small, so that growing them is exercised too. */
function exportRequestJson([resource, scope]: Prefix, spans: readonly SpanRecord[]): string {
  const batch = new SpanBatch(resource, scope, 64);
  for (const s of spans) batch.add(s);
  return batch.take(10_000).body.toString('utf8');
}
import { sampler } from '../../src/tracing/sampler.js';
import { headerList, samplerChoice, tracesEndpoint, tracingSettings as read } from '../../src/tracing/settings.js';
import type { SpanRecord } from '../../src/tracing/span-record.js';
import { formatTraceparent, parseTraceparent } from '../../src/tracing/traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('parseTraceparent: W3C Trace Context', () => {
  it('reads a valid version 00 header, its sampled flag and the tracestate', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`, 'vendor=a,other=b')).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true, tracestate: 'vendor=a,other=b' });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)).toMatchObject({ sampled: false, tracestate: '' });
    // Flags other than the sampled bit are not ours to judge: only bit 0 counts.
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-03`)).toMatchObject({ sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-02`)).toMatchObject({ sampled: false });
  });

  it('reads a later version by its first four fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01`)).toMatchObject({ traceId: TRACE, spanId: SPAN });
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01-what-comes-later`)).toMatchObject({ traceId: TRACE });
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-01x`)).toBeNull();
  });

  it.each([
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with more after it', `00-${TRACE}-${SPAN}-01-extra`],
    ['uppercase hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['a non-hex flag', `00-${TRACE}-${SPAN}-0g`],
    ['no dashes', `00${TRACE}${SPAN}01xxx`],
    ['garbage', 'garbage'],
    ['empty', ''],
  ])('%s is not a parent', (_what, header) => expect(parseTraceparent(header)).toBeNull());

  it('writes version 00 with the sampled flag', () => {
    expect(formatTraceparent(TRACE, SPAN, true)).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(formatTraceparent(TRACE, SPAN, false)).toBe(`00-${TRACE}-${SPAN}-00`);
  });
});

describe('the samplers of OTEL_TRACES_SAMPLER', () => {
  const low = '0'.repeat(24) + '00000001'; // falls under any ratio above 0
  const high = '0'.repeat(24) + 'ffffffff'; // falls under none below 1
  it.each([
    // [sampler, arg, trace id, parent sampled (undefined: a new trace), recorded]
    ['always_on', '', high, false, true],
    ['always_off', '', low, true, false],
    ['traceidratio', '0.5', low, false, true],
    ['traceidratio', '0.5', high, true, false],
    ['parentbased_always_on', '', high, undefined, true],
    ['parentbased_always_on', '', high, false, false],
    ['parentbased_always_off', '', low, undefined, false],
    ['parentbased_always_off', '', low, true, true],
    ['parentbased_traceidratio', '0.5', low, undefined, true],
    ['parentbased_traceidratio', '0.5', high, undefined, false],
    ['parentbased_traceidratio', '0.5', high, true, true],
    ['parentbased_traceidratio', '0.5', low, false, false],
    ['traceidratio', '0', low, undefined, false],
    ['traceidratio', '1', high, undefined, true],
  ] as const)('%s (arg %j), trace %s, parent sampled %s: %s', (name, arg, traceId, parent, recorded) => {
    expect(sampler(samplerChoice({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: arg }))(traceId, parent)).toBe(recorded);
  });

  it('defaults to parentbased_always_on, for an unknown name too, and a bad ratio to 1, each with a warning', () => {
    expect(samplerChoice({})).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    const warnings: string[] = [];
    expect(samplerChoice({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, warnings)).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(samplerChoice({ OTEL_TRACES_SAMPLER: 'TraceIdRatio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, warnings)).toEqual({ name: 'traceidratio', ratio: 1 });
    expect(samplerChoice({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }, warnings)).toEqual({ name: 'traceidratio', ratio: 1 });
    expect(warnings).toEqual([
      expect.stringMatching(/^onboarding-emulator: OTEL_TRACES_SAMPLER: not a sampler .*"jaeger_remote"; ignored, parentbased_always_on holds$/),
      'onboarding-emulator: OTEL_TRACES_SAMPLER_ARG: not a ratio from 0 to 1: "1.5"; ignored, 1 holds',
      'onboarding-emulator: OTEL_TRACES_SAMPLER_ARG: not a ratio from 0 to 1: "half"; ignored, 1 holds',
    ]);
  });

  it('a ratio records about that share of random trace ids', () => {
    const decide = sampler({ name: 'traceidratio', ratio: 0.25 });
    let recorded = 0;
    for (let i = 0; i < 4000; i++) if (decide(Math.floor(Math.random() * 2 ** 32).toString(16).padStart(32, '1'), undefined)) recorded++;
    expect(recorded / 4000).toBeGreaterThan(0.2);
    expect(recorded / 4000).toBeLessThan(0.3);
  });
});

/** The settings of a valid endpoint and these variables. */
const tracingSettings = (env: Record<string, string>, serviceName: string, serviceVersion: string) => read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...env }, serviceName, serviceVersion).settings;

describe('the exporter settings from the standard variables', () => {
  it('the endpoint: the traces variable as it is, else the general one plus /v1/traces', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).url).toBe('http://c:4318/v1/traces');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/base/' }).url).toBe('http://c:4318/base/v1/traces');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:9/custom' })).toEqual({ url: 'http://t:9/custom', from: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' });
  });

  it('headers: a URL-decoded comma list, the traces variable winning per key', () => {
    expect(headerList('a=1, b = two%20words ,,c=x%3Dy')).toEqual({ a: '1', b: 'two words', c: 'x=y' });
    const s = tracingSettings({ OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Basic%20abc,x-team=a', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=b' }, 'svc', '1.0.0');
    expect(s.headers).toEqual({ authorization: 'Basic abc', 'x-team': 'b' });
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_HEADERS', 'x team=a', '"x team" is not a header name'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'x-team=a%0d%0ab: c', 'the value of x-team holds a character a header cannot carry'],
    ['OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'x-team=%E2%82%AC', 'the value of x-team holds a character a header cannot carry'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'authorization', '"authorization" is not a name=value pair'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'a=%zz', '"a=%zz" is not a name=value pair with valid %-escapes'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://c:4318', 'not an http:// or https:// URL: "ftp://c:4318/v1/traces"'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'c:4318/v1/traces', 'not an http:// or https:// URL'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'not a url', 'not an http:// or https:// URL'],
  ])('%s=%j cannot be sent: tracing is off, one line saying why', (name, value, says) => {
    const base = name.includes('ENDPOINT') ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    const { off, warnings } = read({ ...base, [name]: value }, 's', 'v');
    expect(off).toContain(`onboarding-emulator: ${name}: ${says}`);
    expect(off).toMatch(/; tracing is off$/);
    expect(warnings).toEqual([]);
  });

  it('timeout: the traces variable, else the general one, else 10 s; a bad number is ignored with a warning', () => {
    expect(tracingSettings({}, 's', 'v').timeoutMs).toBe(10_000);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500' }, 's', 'v').timeoutMs).toBe(2500);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '700' }, 's', 'v').timeoutMs).toBe(700);
    const bad = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' }, 's', 'v');
    expect(bad).toMatchObject({ off: null, settings: { timeoutMs: 10_000 } });
    expect(bad.warnings).toEqual(['onboarding-emulator: OTEL_EXPORTER_OTLP_TIMEOUT: not a whole number of 1 or more: "soon"; ignored, 10000 holds']);
  });

  it('resource attributes: OTEL_RESOURCE_ATTRIBUTES added, OTEL_SERVICE_NAME winning over its service.name; a list that does not decode dropped whole', () => {
    expect(tracingSettings({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci,team=a%2Cb' }, 'onboarding-emulator', '2.0.0').resource).toEqual({
      'service.name': 'onboarding-emulator', 'service.version': '2.0.0', 'deployment.environment': 'ci', team: 'a,b',
    });
    expect(tracingSettings({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs' }, 'onboarding-emulator', 'v').resource['service.name']).toBe('from-attrs');
    expect(tracingSettings({ OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs', OTEL_SERVICE_NAME: 'mine' }, 'mine', 'v').resource['service.name']).toBe('mine');
    const bad = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_RESOURCE_ATTRIBUTES: 'team=a,broken' }, 's', 'v');
    expect(bad.settings.resource).toEqual({ 'service.name': 's', 'service.version': 'v' });
    expect(bad.warnings).toEqual(['onboarding-emulator: OTEL_RESOURCE_ATTRIBUTES: "broken" is not a name=value pair with valid %-escapes; ignored whole']);
  });

  it('the encoding: http/protobuf, as the SDKs default to, unless http/json is asked for; the traces variable wins', () => {
    expect(tracingSettings({}, 's', 'v').encoding).toBe('protobuf');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 's', 'v').encoding).toBe('json');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }, 's', 'v').encoding).toBe('protobuf');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 's', 'v').encoding).toBe('protobuf');
  });

  it('the batch settings, and a warning for a protocol other than OTLP/HTTP', () => {
    const warnings = (env: Record<string, string>) => read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', ...env }, 's', 'v').warnings;
    expect(tracingSettings({}, 's', 'v')).toMatchObject({ scheduleDelayMs: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 });
    expect(tracingSettings({ OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' }, 's', 'v')).toMatchObject({ scheduleDelayMs: 50, maxQueueSize: 100, maxExportBatchSize: 100 });
    expect(warnings({})).toEqual([]);
    expect(warnings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual([]);
    expect(warnings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toEqual([expect.stringContaining('grpc is not supported')]);
    expect(warnings({ OTEL_BSP_MAX_QUEUE_SIZE: '0', OTEL_BSP_SCHEDULE_DELAY: '-5' })).toEqual([
      'onboarding-emulator: OTEL_BSP_MAX_QUEUE_SIZE: not a whole number of 1 or more: "0"; ignored, 2048 holds',
      'onboarding-emulator: OTEL_BSP_SCHEDULE_DELAY: not a whole number of 0 or more: "-5"; ignored, 5000 holds',
    ]);
  });
});

/** A batch's export request, as far as the batch tests read it: each span's first attribute, an integer. */
type BatchBody = { resourceSpans: { scopeSpans: { spans: { attributes: { value: { intValue: string } }[] }[] }[] }[] };

describe('OTLP/JSON', () => {
  const span = (over: Partial<SpanRecord>): SpanRecord => ({
    traceId: TRACE, spanId: SPAN, parentSpanId: '', tracestate: '', name: 'GET /v1/x', kind: 2, startMs: 1.5, endMs: 2.25, attributes: [], statusCode: 0, statusMessage: '', ...over,
  });

  it('writes resourceSpans[].scopeSpans[].spans[] as a collector reads it', () => {
    const prefix = requestPrefix({ 'service.name': 'svc', 'service.version': '1.2.3' }, { name: 'onboarding-emulator', version: '1.2.3' });
    const text = exportRequestJson(prefix, [
      span({ attributes: [{ 'http.route': '/v1/x', 'server.port': 8080, ratio: 0.5, ok: true, left: undefined, quote: 'a "b"\n', accents: 'Zoë ✓ 𝄞' }, { ok: false, 'http.response.status_code': 503 }] }),
      span({ spanId: 'a'.repeat(16), parentSpanId: SPAN, tracestate: 'v=1', name: 'webhook.attempt', kind: 3, statusCode: 2, statusMessage: 'answered 503' }),
    ]);
    const body = JSON.parse(text) as { resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[] };
    expect(body.resourceSpans).toHaveLength(1);
    const [rs] = body.resourceSpans;
    expect(rs!.resource.attributes).toEqual([{ key: 'service.name', value: { stringValue: 'svc' } }, { key: 'service.version', value: { stringValue: '1.2.3' } }]);
    expect(rs!.scopeSpans[0]!.scope).toEqual({ name: 'onboarding-emulator', version: '1.2.3' });
    const [first, second] = rs!.scopeSpans[0]!.spans;
    expect(first).toMatchObject({ traceId: TRACE, spanId: SPAN, name: 'GET /v1/x', kind: 2, status: { code: 0 } });
    expect(first).not.toHaveProperty('parentSpanId');
    // A later set of the same key wins; an undefined value is left out.
    expect(first!.attributes).toEqual([
      { key: 'http.route', value: { stringValue: '/v1/x' } },
      { key: 'server.port', value: { intValue: '8080' } },
      { key: 'ratio', value: { doubleValue: 0.5 } },
      { key: 'quote', value: { stringValue: 'a "b"\n' } },
      { key: 'accents', value: { stringValue: 'Zoë ✓ 𝄞' } },
      { key: 'ok', value: { boolValue: false } },
      { key: 'http.response.status_code', value: { intValue: '503' } },
    ]);
    expect(second).toMatchObject({ parentSpanId: SPAN, traceState: 'v=1', kind: 3, status: { code: 2, message: 'answered 503' }, attributes: [] });
    // Times are strings of unix nanoseconds: 0.75 ms apart here.
    expect(BigInt(first!.endTimeUnixNano as string) - BigInt(first!.startTimeUnixNano as string)).toBe(750_000n);
  });

  it('a frozen attribute object is written once and reused, unchanged', () => {
    const fixed = Object.freeze({ 'http.route': '/v1/x', 'url.scheme': 'http', gone: undefined });
    const prefix = requestPrefix({ 'service.name': 'svc' }, { name: 'n', version: 'v' });
    for (let i = 0; i < 2; i++) {
      const body = JSON.parse(exportRequestJson(prefix, [span({ attributes: [fixed, { 'url.path': `/v1/x/${i}` }] }), span({ attributes: [fixed] })])) as { resourceSpans: { scopeSpans: { spans: { attributes: unknown[] }[] }[] }[] };
      const [first, second] = body.resourceSpans[0]!.scopeSpans[0]!.spans;
      expect(first!.attributes).toEqual([{ key: 'http.route', value: { stringValue: '/v1/x' } }, { key: 'url.scheme', value: { stringValue: 'http' } }, { key: 'url.path', value: { stringValue: `/v1/x/${i}` } }]);
      expect(second!.attributes).toHaveLength(2);
    }
  });

  it('a batch: spans taken in order, at most as many as asked, the rest left waiting', () => {
    const batch = new SpanBatch({ 'service.name': 'svc' }, { name: 'n', version: 'v' }, 64);
    for (let i = 0; i < 600; i++) batch.add(span({ attributes: [{ i, name: `span ${i} é` }] }));
    const take = (max: number) => {
      const { body, spans } = batch.take(max);
      const parsed = (JSON.parse(body.toString('utf8')) as BatchBody).resourceSpans[0]!.scopeSpans[0]!.spans;
      expect(parsed).toHaveLength(spans);
      return parsed.map((s) => Number(s.attributes[0]!.value.intValue));
    };
    expect(take(512)).toEqual(Array.from({ length: 512 }, (_, i) => i));
    expect(batch.count).toBe(88);
    batch.add(span({ attributes: [{ i: 600 }] }));
    expect(take(512)).toEqual(Array.from({ length: 89 }, (_, i) => 512 + i));
    expect(batch.count).toBe(0);
    expect(take(512)).toEqual([]);
  });

  it('values the byte writer escapes or spells out: the same as JSON.stringify would give', () => {
    const odd = { yes: true, no: false, neg: -42, zero: 0, big: 2 ** 53 - 1, tiny: 1e-7, huge: 1e21, nan: Number.NaN, inf: Number.POSITIVE_INFINITY, minf: Number.NEGATIVE_INFINITY, ctrl: 'tab\tnul\u0000del\u007f', slash: 'a\\b/c', lone: 'x\ud800y', emoji: '😀' };
    const body = JSON.parse(exportRequestJson(requestPrefix({ 'service.name': 'svc "quoted" é' }, { name: 'n', version: 'v' }), [
      span({ name: 'ëp "x"', tracestate: 'a=1\\', attributes: [odd], statusCode: 2, statusMessage: 'bad\nthing ✓' }),
    ])) as { resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { spans: { name: string; traceState: string; status: unknown; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[] };
    const [rs] = body.resourceSpans;
    expect(rs!.resource.attributes).toEqual([{ key: 'service.name', value: { stringValue: 'svc "quoted" é' } }]);
    const s = rs!.scopeSpans[0]!.spans[0]!;
    expect(s).toMatchObject({ name: 'ëp "x"', traceState: 'a=1\\', status: { code: 2, message: 'bad\nthing ✓' } });
    const values = Object.fromEntries(s.attributes.map((a) => [a.key, a.value]));
    expect(values).toEqual({
      yes: { boolValue: true }, no: { boolValue: false }, neg: { intValue: '-42' }, zero: { intValue: '0' }, big: { intValue: String(2 ** 53 - 1) }, tiny: { doubleValue: 1e-7 }, huge: { doubleValue: 1e21 },
      nan: { doubleValue: 'NaN' }, inf: { doubleValue: 'Infinity' }, minf: { doubleValue: '-Infinity' },
      ctrl: { stringValue: odd.ctrl }, slash: { stringValue: odd.slash }, lone: { stringValue: JSON.parse(JSON.stringify(odd.lone)) as string }, emoji: { stringValue: '😀' },
    });
  });

  it('OTLP/protobuf carries what OTLP/JSON does, span for span, read by a wire-format reader of its own', () => {
    const odd = { s: 'plain', accents: 'Zoë ✓ 𝄞', ctrl: 'tab\tnul\u0000', yes: true, no: false, zero: 0, neg: -42, big: 2 ** 53 - 1, tiny: 1e-7, nan: Number.NaN, inf: Number.POSITIVE_INFINITY, long: 'x'.repeat(300) };
    const spans = [
      span({ attributes: [Object.freeze({ 'http.route': '/v1/x', 'url.scheme': 'http' }), odd, { ok: false, zero: undefined }] }),
      span({ spanId: 'a'.repeat(16), parentSpanId: SPAN, tracestate: 'v=1,w=2', name: 'webhook.attempt ✓', kind: 3, statusCode: 2, statusMessage: 'answered 503', startMs: performance.now(), endMs: performance.now() + 1234.567891 }),
      span({ name: 'n'.repeat(20_000), attributes: [{ 'a.long.value': 'v'.repeat(20_000) }] }),
    ];
    const both = (['json', 'protobuf'] as const).map((encoding) => {
      const batch = new SpanBatch({ 'service.name': 'svc ✓', 'service.version': '1.2.3' }, { name: 'n', version: 'v' }, 64, encoding);
      for (const s of spans) batch.add(s);
      const { body, spans: taken } = batch.take(512);
      expect(taken).toBe(3);
      return encoding === 'json' ? JSON.parse(body.toString('utf8')) : decodeTraceRequest(body);
    });
    expect(both[1]).toEqual(both[0]);
    const sent = both[1] as { resourceSpans: { scopeSpans: { spans: { attributes: unknown[] }[] }[] }[] };
    expect(sent.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes).toHaveLength(15);
  });

  it('a protobuf batch: spans taken in order, the rest left waiting', () => {
    const batch = new SpanBatch({ 'service.name': 'svc' }, { name: 'n', version: 'v' }, 64, 'protobuf');
    for (let i = 0; i < 600; i++) batch.add(span({ attributes: [{ i }] }));
    const take = () => (decodeTraceRequest(batch.take(512).body) as unknown as BatchBody).resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => Number(s.attributes[0]!.value.intValue));
    expect(take()).toEqual(Array.from({ length: 512 }, (_, i) => i));
    expect(take()).toEqual(Array.from({ length: 88 }, (_, i) => 512 + i));
  });

  it('times: unix nanoseconds of performance.timeOrigin + performance.now()', () => {
    const now = performance.now();
    const nanos = BigInt(unixNanos(now));
    const expected = BigInt(Math.round((performance.timeOrigin + now) * 1000)) * 1000n;
    expect(nanos - expected < 1000n && expected - nanos < 1000n).toBe(true);
    expect(unixNanos(now)).toMatch(/^\d{19}$/);
  });

  it('times written into a span: the digits unixNanos gives, zeros kept in the fraction', () => {
    for (const startMs of [0, 0.000001, 1.5, 1234.000999, performance.now()]) {
      const body = JSON.parse(exportRequestJson(requestPrefix({ 'service.name': 'svc' }, { name: 'n', version: 'v' }), [span({ startMs, endMs: startMs + 0.001 })])) as { resourceSpans: { scopeSpans: { spans: { startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[] };
      const s = body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      expect(s.startTimeUnixNano).toBe(unixNanos(startMs));
      expect(s.endTimeUnixNano).toBe(unixNanos(startMs + 0.001));
    }
  });
});
