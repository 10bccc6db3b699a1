import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, enableTracing, type TracingHandle } from '../../src/index.js';
import { otlpReceiver, OTLP_KIND, partnerTracer } from '../support/otlp.js';
import { receiver } from '../support/serve.js';

/**
 * In process, tracing is turned on by the host: `await enableTracing()` reads the same variables
 * as `serve` and installs the adapter for the process; createEmulator() then traces as the CLI does.
 */
const AUTH = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };
const VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_SDK_DISABLED', 'OTEL_TRACES_EXPORTER', 'OTEL_BSP_SCHEDULE_DELAY', 'OTEL_SERVICE_NAME'];
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  for (const v of VARIABLES) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});

function setEnv(env: Record<string, string>): void {
  for (const v of VARIABLES) delete process.env[v];
  Object.assign(process.env, env);
}

describe('enableTracing() with createEmulator()', () => {
  it('answers null and installs nothing without an endpoint, or with OTEL_SDK_DISABLED=true', async () => {
    setEnv({});
    expect(await enableTracing()).toBeNull();
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'TRUE' });
    expect(await enableTracing()).toBeNull();
    const em = createEmulator({ seed: 1 });
    cleanup.push(() => em.close());
    const { url } = await em.start();
    await fetch(`${url}/v1/onboardings`, { headers: AUTH });
    expect((await em.requests.find({})).data[0]).not.toHaveProperty('trace_id');
  });

  it("joins the partner's trace from its call to its webhook receiver", async () => {
    const collector = await otlpReceiver();
    cleanup.push(collector.close);
    const partner = partnerTracer(collector.url, 'partner-app');
    cleanup.push(partner.shutdown);
    const seen: IncomingHttpHeaders[] = [];
    const hooks = await receiver((_body, req, res) => {
      seen.push(req.headers);
      partner.server('partner receives webhook', req.headers).end();
      res.writeHead(204).end();
    });
    cleanup.push(hooks.close);

    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'in-process-emulator' });
    const tracing: TracingHandle | null = await enableTracing();
    expect(tracing?.serviceName).toBe('in-process-emulator');
    cleanup.push(() => tracing!.shutdown());
    const em = createEmulator({ seed: 1 });
    cleanup.push(() => em.close());
    const { url } = await em.start();

    const hook = await fetch(`${url}/v1/webhooks`, { method: 'POST', headers: AUTH, body: JSON.stringify({ url: `${hooks.url}/in`, events: ['onboarding.created'] }) });
    expect(hook.status).toBe(201);
    const { span, headers } = partner.client('partner creates onboarding');
    const res = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { ...AUTH, ...headers, 'Idempotency-Key': 'in-process-trace' },
      body: JSON.stringify({
        reference: 'IN-1',
        employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
        employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
      }),
    });
    span.end();
    expect(res.status).toBe(201);
    const traceId = span.spanContext().traceId;
    const names = ['partner creates onboarding', 'POST /v1/onboardings', 'webhook.attempt', 'partner receives webhook'];
    const spans = await collector.waitFor((s) => names.every((n) => s.some((x) => x.traceId === traceId && x.name === n)), 'the four spans');
    const chain = names.map((n) => spans.find((x) => x.traceId === traceId && x.name === n)!);
    expect(chain.map((s) => s.service)).toEqual(['partner-app', 'in-process-emulator', 'in-process-emulator', 'partner-app']);
    expect(chain.map((s) => s.kind)).toEqual([OTLP_KIND.client, OTLP_KIND.server, OTLP_KIND.client, OTLP_KIND.server]);
    chain.slice(1).forEach((s, i) => expect(s.parentSpanId).toBe(chain[i]!.spanId));
    expect(seen[0]!.traceparent).toBe(`00-${traceId}-${chain[2]!.spanId}-01`);
    // The helpers read the same journal as GET /_emulator/requests.
    const [entry] = (await em.requests.find({ method: 'POST', path: '/v1/onboardings' })).data;
    expect(entry?.trace_id).toBe(traceId);
  });
});
