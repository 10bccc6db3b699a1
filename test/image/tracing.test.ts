import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docker, LABEL, logs, must, removeContainers, start, type Container } from './docker.js';
import { until } from '../support/wait.js';

/**
 * Tracing in the image: the OpenTelemetry packages are optional peers that `npm ci --omit=dev`
 * leaves out, so the image ships them on its own (Dockerfile). An emulator container sends its
 * spans to a collector container on a network of their own: OTLP/protobuf by default, OTLP/JSON
 * when asked, each by its exporter in the image. The collector is the image's own Node running
 * a few lines that keep each export and hand them back on GET, published on 127.0.0.1 only.
 */
const OWNER = { Authorization: 'Bearer hrs_test_acme_owner' };
const NETWORK = `oe-image-suite-tracing-${process.pid}`;
const COLLECTOR = [
  "const exports = [];",
  "require('node:http').createServer((req, res) => {",
  "  const chunks = [];",
  "  req.on('data', (c) => chunks.push(c));",
  "  req.on('end', () => {",
  "    if (req.method === 'POST') exports.push({ type: req.headers['content-type'], body: Buffer.concat(chunks).toString('base64') });",
  "    res.writeHead(200, { 'Content-Type': 'application/json' }).end(req.method === 'POST' ? '{}' : JSON.stringify(exports));",
  "  });",
  "}).listen(4318, '0.0.0.0');",
].join('\n');

interface Export {
  type: string;
  body: Buffer;
}

let collector: Container;

beforeAll(async () => {
  await must(['network', 'create', '--label', LABEL, NETWORK]);
  collector = await start({ docker: ['--network', NETWORK, '--network-alias', 'collector', '--no-healthcheck', '--entrypoint', 'node'], args: ['-e', COLLECTOR], port: 4318 });
});
afterAll(async () => {
  await removeContainers();
  await docker(['network', 'rm', NETWORK]);
});

async function received(): Promise<Export[]> {
  const res = await fetch(`${collector.base}/`, { signal: AbortSignal.timeout(2_000) });
  return ((await res.json()) as { type: string; body: string }[]).map((e) => ({ type: e.type, body: Buffer.from(e.body, 'base64') }));
}

/** The first export that carries the trace, within 15 s. */
async function exportOf(traceId: string): Promise<Export> {
  let found: Export | undefined;
  const carries = (e: Export) => e.body.includes(Buffer.from(traceId, 'hex')) || e.body.includes(Buffer.from(traceId));
  await until(async () => (found = (await received().catch(() => [])).find(carries)) !== undefined, `an export of trace ${traceId}`, 15_000);
  return found!;
}

/** An emulator container exporting to the collector, once it has answered a /v1 request that continues `traceId`. */
async function tracedEmulator(env: Record<string, string>, traceId: string): Promise<Container> {
  const vars = Object.entries({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_BSP_SCHEDULE_DELAY: '100', ...env }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const c = await start({ docker: ['--network', NETWORK, ...vars] });
  const headers = { ...OWNER, traceparent: `00-${traceId}-00f067aa0ba902b7-01` };
  const answered = async () => (await fetch(`${c.base}/v1/onboardings/onb_demo_jansen`, { headers, signal: AbortSignal.timeout(1_000) }).catch(() => null))?.status === 200;
  await until(answered, `the emulator in ${c.id} to answer`, 15_000).catch(async (err: Error) => {
    throw new Error(`${err.message}: ${await logs(c.id)}`);
  });
  return c;
}

describe('tracing in the image', () => {
  it('ships the SDK: the spans go out as OTLP/protobuf by default, the service named in the ready line', async () => {
    const service = 'image-protobuf';
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const c = await tracedEmulator({ OTEL_SERVICE_NAME: service }, traceId);
    const found = await exportOf(traceId);
    expect(found.type).toBe('application/x-protobuf');
    for (const text of ['GET /v1/onboardings/{id}', service]) expect(found.body.includes(Buffer.from(text)), text).toBe(true);
    const out = await logs(c.id);
    expect(out).toContain(`"traces":"${service}"`);
    expect(out).not.toContain('tracing needs the OpenTelemetry packages');
  });

  it('and OTLP/JSON when asked, the span whole', async () => {
    const service = 'image-json';
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await tracedEmulator({ OTEL_SERVICE_NAME: service, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, traceId);
    const found = await exportOf(traceId);
    expect(found.type).toMatch(/^application\/json/);
    const request = JSON.parse(found.body.toString('utf8')) as {
      resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { traceId: string; name: string; kind: number; attributes: { key: string }[] }[] }[] }[];
    };
    const [rs] = request.resourceSpans;
    expect(rs!.resource.attributes).toEqual(expect.arrayContaining([{ key: 'service.name', value: { stringValue: service } }]));
    const span = rs!.scopeSpans.flatMap((s) => s.spans).find((s) => s.traceId === traceId);
    expect(span).toMatchObject({ name: 'GET /v1/onboardings/{id}', kind: 2 });
    expect(span!.attributes.map((a) => a.key)).toEqual(expect.arrayContaining(['http.route', 'http.response.status_code', 'emulator.request.id']));
  });
});
