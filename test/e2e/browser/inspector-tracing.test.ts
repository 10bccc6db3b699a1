import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableTracing, type TracingHandle } from '../../../src/tracing/load.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, KEYS } from '../../support/harness.js';
import { jsonRequest } from '../../support/net.js';
import { otlpReceiver, type OtlpReceiver } from '../../support/otlp.js';
import { answer, useReceivers } from '../../support/receiver.js';
import { until } from '../../support/wait.js';

/**
 * With tracing on, the inspector in headless Chromium shows the trace id of a /v1 request (in
 * its details) and of each webhook attempt: the id to look up in a tracing UI.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);
const env = useBrowserAndEmulator();
const receivers = useReceivers();
let collector: OtlpReceiver;
let tracing: TracingHandle | null;
const before = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

beforeAll(async () => {
  collector = await otlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  tracing = await enableTracing();
});
afterAll(async () => {
  await tracing?.shutdown();
  await collector.close();
  if (before === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = before;
});

describe('the inspector with tracing on', () => {
  it("shows the trace id of a request and of its webhook's attempt", async () => {
    expect(tracing).not.toBeNull();
    const r = await receivers.start(answer(204));
    const hook = await api('POST', '/v1/webhooks', { url: r.url(), events: ['onboarding.created'] }, KEYS.owner);
    expect(hook.status).toBe(201);
    const created = await fetch(`${env.server.url}/v1/onboardings`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'inspector-trace', traceparent: TRACEPARENT },
      body: JSON.stringify(createBody({ reference: 'traced' })),
    });
    expect(created.status).toBe(201);
    await until(async () => ((await api('GET', `/_emulator/webhooks/${hook.body.id}/deliveries`)).body.data as { status: string }[])[0]?.status === 'succeeded', 'the delivery');

    const page = await env.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.server.url}/_emulator/ui`);
    const request = page.locator('#requests-content tr[data-request]').filter({ hasText: 'POST' }).first();
    await request.getByRole('button', { name: /^Show the query, headers and body/ }).click();
    expect(await page.locator('#requests-content dd.trace code').innerText()).toBe(TRACE_ID);
    expect(await page.locator('#webhooks-content ol.attempts > li .trace code').first().innerText()).toBe(TRACE_ID);
    expect(errors).toEqual([]);
    await page.close();
  });
});
