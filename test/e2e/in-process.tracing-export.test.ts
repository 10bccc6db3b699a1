import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, enableTracing, type TracingHandle } from '../../src/index.js';
import { otlpReceiver } from '../support/otlp.js';
import { receiver } from '../support/serve.js';
import { until } from '../support/wait.js';

/**
 * The SDK's exporter against a collector that is not there, and the sampled flag: an unsampled
 * request records nothing but still carries its trace onward.
 */
const AUTH = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const saved = { ...process.env };
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  for (const k of Object.keys(process.env)) if (k.startsWith('OTEL_') && !(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

async function tracingTo(env: Record<string, string>): Promise<TracingHandle> {
  for (const k of Object.keys(process.env)) if (k.startsWith('OTEL_')) delete process.env[k];
  Object.assign(process.env, env);
  const tracing = await enableTracing();
  expect(tracing).not.toBeNull();
  cleanup.push(() => tracing!.shutdown());
  return tracing!;
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function emulator(): Promise<string> {
  const em = createEmulator({ seed: 1 });
  cleanup.push(() => em.close());
  return (await em.start()).url;
}

describe('the exporter', () => {
  it('with no collector listening, requests answer as ever, the lost spans are counted, and one line says so', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    cleanup.push(async () => void stderr.mockRestore());
    // An export timeout shorter than the SDK's first back-off: a refused connection is not retried.
    const tracing = await tracingTo({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, OTEL_EXPORTER_OTLP_TIMEOUT: '500', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4' });
    const url = await emulator();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers: AUTH })).status);
    expect(statuses).toEqual(Array(20).fill(200));
    await tracing.flush();
    const counts = tracing.counts();
    expect(counts.exported).toBe(0);
    expect(counts.dropped).toBe(20);
    expect(counts.failedExports).toBeGreaterThanOrEqual(5); // batches of at most 4
    const lines = stderr.mock.calls.map(([text]) => String(text));
    expect(lines).toEqual([expect.stringMatching(/^onboarding-emulator: a trace export failed \(connect ECONNREFUSED .*\); its spans are dropped and counted, and the emulator goes on\n$/)]);
  });

  it('flush() resolves once an export the schedule started has answered, and counts it', async () => {
    // A collector that holds its answer until the test lets it go.
    const arrived: (() => void)[] = [];
    const slow = createServer((req, res) => {
      req.resume();
      req.on('end', () => arrived.push(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => { slow.closeAllConnections(); slow.close(() => resolve()); }));
    const tracing = await tracingTo({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`, OTEL_BSP_SCHEDULE_DELAY: '20' });
    const url = await emulator();
    expect((await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers: AUTH })).status).toBe(200);
    await until(() => arrived.length === 1, 'the scheduled export at the collector');
    const flushed = tracing.flush();
    arrived[0]!();
    await flushed;
    expect(tracing.counts()).toMatchObject({ exported: 1, failedExports: 0 });
  });

  it('an unsampled caller: no span is recorded, the trace id still shows and goes on with flag 00', async () => {
    const collector = await otlpReceiver();
    cleanup.push(collector.close);
    const seen: IncomingHttpHeaders[] = [];
    const hooks = await receiver((_body, req, res) => {
      seen.push(req.headers);
      res.writeHead(204).end();
    });
    cleanup.push(hooks.close);
    const tracing = await tracingTo({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' });
    const url = await emulator();
    expect((await fetch(`${url}/v1/webhooks`, { method: 'POST', headers: AUTH, body: JSON.stringify({ url: `${hooks.url}/in`, events: ['onboarding.created'] }) })).status).toBe(201);
    const res = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { ...AUTH, 'Idempotency-Key': 'unsampled', traceparent: `00-${TRACE}-00f067aa0ba902b7-00`, tracestate: 'vendor=x' },
      body: JSON.stringify({
        reference: 'UNSAMPLED-1',
        employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
        employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
      }),
    });
    expect(res.status).toBe(201);
    await until(() => seen.length > 0, 'the webhook');
    expect(seen[0]!.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
    expect(seen[0]!.tracestate).toBe('vendor=x');
    const journal = (await (await fetch(`${url}/_emulator/requests?method=POST&path=/v1/onboardings`)).json()) as { data: { trace_id?: string }[] };
    expect(journal.data[0]?.trace_id).toBe(TRACE);
    await tracing.flush();
    // The webhook registration (a new, sampled trace) is the only span sent.
    expect(collector.spans.map((s) => s.name)).toEqual(['POST /v1/webhooks']);
    expect(tracing.counts()).toMatchObject({ exported: 1, dropped: 0 });
  });

  it('ends the span of an answer the writer never sends: a dropped answer, a reset, a 500', async () => {
    const collector = await otlpReceiver();
    cleanup.push(collector.close);
    const tracing = await tracingTo({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' });
    const url = await emulator();
    const path = '/v1/onboardings/onb_demo_jansen';
    for (const kind of ['drop_response_after_commit', 'reset_before_commit', 'error']) {
      expect((await fetch(`${url}/_emulator/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind, path }) })).status).toBe(201);
      const answer = await fetch(`${url}${path}`, { headers: AUTH }).then((r) => r.status, () => 'no answer');
      expect(answer).toBe(kind === 'error' ? 500 : 'no answer');
    }
    expect((await fetch(`${url}${path}`, { headers: AUTH })).status).toBe(200);
    const spans = await collector.waitFor((s) => s.filter((x) => x.name === 'GET /v1/onboardings/{id}').length === 4, 'four spans of the read');
    const reads = spans.filter((x) => x.name === 'GET /v1/onboardings/{id}').map((x) => x.attributes);
    expect(reads).toEqual(expect.arrayContaining([
      expect.objectContaining({ 'http.response.status_code': 200, 'emulator.answer.completed': false }), // dropped after the commit
      expect.objectContaining({ 'emulator.answer.completed': false }), // reset before it ran
      expect.objectContaining({ 'http.response.status_code': 500, 'error.type': '500' }),
    ]));
    expect(reads.filter((a) => a['emulator.answer.completed'] === false)).toHaveLength(2);
    expect(reads.filter((a) => a['http.response.status_code'] === 200 && a['emulator.answer.completed'] === undefined)).toHaveLength(1);
    await tracing.flush();
  });
});

