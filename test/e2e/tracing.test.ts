import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { otlpReceiver, OTLP_KIND, partnerTracer, type OtlpReceiver, type ReceivedSpan } from '../support/otlp.js';
import { receiver, serve, type Receiver, type Served } from '../support/serve.js';
import { until } from '../support/wait.js';

/**
 * Traces from the built CLI (`serve`, a child process) to an OTLP/HTTP receiver written here:
 * one trace from a partner's API call through the emulator to the partner's webhook receiver,
 * spans for clock advances and scenario steps, the trace ids the journal and the inspector
 * show, OTLP/protobuf by default, no OpenTelemetry loaded at all without an endpoint, and a
 * start that names the packages to install when they are missing.
 */
const OWNER = 'hrs_test_acme_owner';
const AUTH = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
/** Spans leave the emulator's batch within 50 ms, so the test waits for them, not for a guessed time. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '50' };
/** Left empty, so variables of the machine running the tests cannot turn tracing on. */
const NO_OTEL = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_EXPORTER_OTLP_PROTOCOL: '', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '', OTEL_SDK_DISABLED: '', OTEL_TRACES_EXPORTER: '' };

/**
 * Preloaded into the child: a module hook that reports each ES module file loaded, and at exit
 * one JSON line on stderr naming the OpenTelemetry packages in the CommonJS cache (the SDK's
 * packages load as CommonJS, from ES imports too) and counting the files of the tracing adapter
 * (dist/tracing/, but load.js which every start bundles). Inline, so no file outside the test
 * names it.
 */
const HOOKS = [
  'let port;',
  'export function initialize(data) { port = data.port; }',
  'export async function load(url, context, next) { port.postMessage(url); return next(url, context); }',
].join('\n');
const COUNT_AT_EXIT = [
  "import { createRequire, register } from 'node:module';",
  "import { MessageChannel } from 'node:worker_threads';",
  'const cache = createRequire(process.execPath).cache;',
  'const { port1, port2 } = new MessageChannel();',
  'let adapter = 0;',
  "port1.on('message', (url) => { if (/\\/dist\\/tracing\\/(?!load\\.js)/.test(url)) adapter++; });",
  'port1.unref();',
  `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { port: port2 }, transferList: [port2] });`,
  "const packages = () => [...new Set(Object.keys(cache).map((f) => /@opentelemetry[\\/\\\\]([^\\/\\\\]+)/.exec(f)?.[1]).filter(Boolean))].sort();",
  "process.on('exit', () => process.stderr.write(JSON.stringify({ opentelemetry_packages: packages(), tracing_modules: adapter }) + '\\n'));",
].join('\n');
const PRELOAD = { NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(COUNT_AT_EXIT).toString('base64')}` };

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const close of closers.splice(0)) await close();
});

async function otlp(): Promise<OtlpReceiver> {
  const r = await otlpReceiver();
  closers.push(r.close);
  return r;
}

/** A partner's webhook receiver: each message gets a SERVER span continuing its traceparent, then 204. */
async function webhookReceiver(partner: ReturnType<typeof partnerTracer>, seen: IncomingHttpHeaders[]): Promise<Receiver> {
  const r = await receiver((_body, req, res) => {
    seen.push(req.headers);
    partner.server('partner receives webhook', req.headers).end();
    res.writeHead(204).end();
  });
  closers.push(r.close);
  return r;
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { method, headers: { ...AUTH, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const onboarding = (reference: string) => ({
  reference,
  employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
  employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
});

interface Loaded {
  /** The @opentelemetry packages loaded (their names in the scope). */
  opentelemetry_packages: string[];
  /** The files of dist/tracing/ loaded, but load.js. */
  tracing_modules: number;
}

/** Stops the child cleanly (SIGTERM) and reads the preload's report from its last lines. */
async function modulesLoadedBy(served: Served): Promise<Loaded> {
  served.child.kill('SIGTERM');
  expect(await served.exited).toBe(0);
  const line = served.lines().reverse().find((l) => l.includes('opentelemetry_packages'));
  expect(line, served.output()).toBeDefined();
  return JSON.parse(line!) as Loaded;
}

const byName = (spans: ReceivedSpan[], traceId: string, name: string) => spans.filter((s) => s.traceId === traceId && s.name === name);

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set (serve)', () => {
  it("makes one trace of the partner's call, the /v1 request, the webhook attempt and the partner's receiver", async () => {
    const collector = await otlp();
    const partner = partnerTracer(collector.url, 'partner-app');
    closers.push(partner.shutdown);
    const delivered: IncomingHttpHeaders[] = [];
    const hooks = await webhookReceiver(partner, delivered);
    const served = await serve(['--log-level', 'warn', '--seed', 'tracing'], children, { ...NO_OTEL, ...FAST_EXPORT, ...PRELOAD, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const { url } = served;
    const hook = await call(url, 'POST', '/v1/webhooks', { url: `${hooks.url}/hooks`, events: ['onboarding.created'] });
    expect(hook.status).toBe(201);

    const { span: client, headers } = partner.client('partner creates onboarding');
    const created = await call(url, 'POST', '/v1/onboardings', onboarding('TRACE-1'), { ...headers, 'Idempotency-Key': 'trace-1' });
    client.end();
    expect(created.status).toBe(201);
    const traceId = client.spanContext().traceId;

    const spans = await collector.waitFor(
      (s) => ['POST /v1/onboardings', 'webhook.attempt', 'partner receives webhook', 'partner creates onboarding'].every((n) => byName(s, traceId, n).length === 1),
      'the four spans of the trace',
    );
    const [clientSpan] = byName(spans, traceId, 'partner creates onboarding');
    const [api] = byName(spans, traceId, 'POST /v1/onboardings');
    const [attempt] = byName(spans, traceId, 'webhook.attempt');
    const [received] = byName(spans, traceId, 'partner receives webhook');
    // One chain: partner's call -> /v1 request -> delivery attempt -> partner's receiver.
    expect(clientSpan).toMatchObject({ service: 'partner-app', parentSpanId: '', kind: OTLP_KIND.client });
    expect(api).toMatchObject({ service: 'onboarding-emulator', parentSpanId: clientSpan!.spanId, kind: OTLP_KIND.server, status: 0 });
    expect(api!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/onboardings', 'url.path': '/v1/onboardings', 'http.response.status_code': 201, 'server.address': '127.0.0.1', 'server.port': Number(new URL(url).port), 'url.scheme': 'http' });
    expect(attempt).toMatchObject({ service: 'onboarding-emulator', parentSpanId: api!.spanId, kind: OTLP_KIND.client });
    expect(attempt!.attributes).toMatchObject({ 'http.request.method': 'POST', 'url.full': `${hooks.url}/hooks`, 'http.response.status_code': 204, 'webhook.event.type': 'onboarding.created', 'webhook.attempt': 1 });
    expect(received).toMatchObject({ service: 'partner-app', parentSpanId: attempt!.spanId, kind: OTLP_KIND.server });
    expect(delivered[0]!.traceparent).toBe(`00-${traceId}-${attempt!.spanId}-01`);

    // The trace id where a person looks: the journal entry and the inspector's delivery and attempt.
    const journal = await call(url, 'GET', '/_emulator/requests?method=POST');
    const entry = (journal.body.data as { path: string; trace_id?: string }[]).find((e) => e.path === '/v1/onboardings');
    expect(entry?.trace_id).toBe(traceId);
    const deliveries = await call(url, 'GET', `/_emulator/webhooks/${String(hook.body.id)}/deliveries`);
    const [delivery] = deliveries.body.data as { trace_id?: string; attempt_log: { trace_id?: string }[] }[];
    expect(delivery).toMatchObject({ trace_id: traceId, attempt_log: [{ trace_id: traceId }] });

    // A route with a parameter is named by its template, not by the path asked for.
    const id = String(created.body.id);
    expect((await call(url, 'GET', `/v1/onboardings/${id}`)).status).toBe(200);
    const [read] = await collector.waitFor((s) => s.some((x) => x.name === 'GET /v1/onboardings/{id}'), 'the span of the read').then((s) => s.filter((x) => x.name === 'GET /v1/onboardings/{id}'));
    expect(read!.attributes).toMatchObject({ 'http.route': '/v1/onboardings/{id}', 'url.path': `/v1/onboardings/${id}`, 'http.response.status_code': 200, 'server.port': Number(new URL(url).port) });
    // Each span its own request id, though the listener's attributes are one object shared by both.
    expect(read!.attributes['emulator.request.id']).toMatch(/^req_/);
    expect(read!.attributes['emulator.request.id']).not.toBe(api!.attributes['emulator.request.id']);
    expect(read!.parentSpanId).toBe('');

    // The positive control of the check below: with tracing on, the preload does see the variables'
    // and the adapter's modules load, and the SDK's packages with the JSON exporter alone.
    const loaded = await modulesLoadedBy(served);
    expect(loaded.tracing_modules).toBe(2);
    expect(loaded.opentelemetry_packages).toEqual(expect.arrayContaining(['api', 'core', 'resources', 'sdk-trace-base', 'exporter-trace-otlp-http']));
    expect(loaded.opentelemetry_packages).not.toContain('exporter-trace-otlp-proto');
    // Asked for http/json, the emulator sent JSON, as the partner's SDK did.
    expect(collector.encodings()).toEqual(['json']);
  });

  it('gives clock advances and scenario steps spans, and the deliveries of a step join its trace', async () => {
    const collector = await otlp();
    const partner = partnerTracer(collector.url, 'partner-app');
    closers.push(partner.shutdown);
    const delivered: IncomingHttpHeaders[] = [];
    const hooks = await webhookReceiver(partner, delivered);
    const { url } = await serve(['--log-level', 'warn', '--seed', 'tracing', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00.000Z', '--scenario', 'happy-path'], children, {
      ...NO_OTEL, ...FAST_EXPORT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'emulator-under-test',
    });
    expect((await call(url, 'POST', '/v1/webhooks', { url: `${hooks.url}/hooks`, events: ['onboarding.started'] })).status).toBe(201);
    const created = await call(url, 'POST', '/v1/onboardings', onboarding('TRACE-2'), { 'Idempotency-Key': 'trace-2' });
    expect(created.status).toBe(201);
    // The scenario opens the link an hour after the invitation: onboarding.started.
    expect((await call(url, 'POST', '/_emulator/clock/advance', { by: '90m' })).status).toBe(200);

    // The advance ends once the work of its timers (the attempts) has: its span comes last.
    const spans = await collector.waitFor((s) => s.some((x) => x.name === 'clock.advance'), 'the span of the advance');
    const [advance] = spans.filter((s) => s.name === 'clock.advance');
    expect(advance).toMatchObject({ service: 'emulator-under-test', parentSpanId: '', kind: OTLP_KIND.internal });
    expect(advance!.attributes).toMatchObject({ 'emulator.clock.from': '2026-10-05T09:00:00.000Z', 'emulator.clock.to': '2026-10-05T10:30:00.000Z', 'emulator.clock.mode': 'frozen' });
    const steps = spans.filter((s) => s.name === 'scenario.step');
    for (const step of steps) expect(step).toMatchObject({ traceId: advance!.traceId, parentSpanId: advance!.spanId });
    const mine = steps.filter((s) => s.attributes['onboarding.id'] === created.body.id).map((s) => s.attributes['scenario.step']);
    expect(mine).toEqual(['employee_opened', 'employee_submitted']);
    // Each onboarding.started message is sent by an attempt whose parent is the step that opened the link.
    const attempts = spans.filter((s) => s.name === 'webhook.attempt');
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) {
      const parent = steps.find((s) => s.spanId === attempt.parentSpanId);
      expect(parent?.attributes['scenario.step']).toBe('employee_opened');
      expect(attempt.attributes['webhook.event.type']).toBe('onboarding.started');
    }
    await until(() => delivered.length > 0, 'the webhook');
    expect(String(delivered[0]!.traceparent)).toContain(advance!.traceId);
  });

  it('sends OTLP/protobuf by default, with the protobuf exporter alone loaded', async () => {
    const collector = await otlp();
    const served = await serve(['--log-level', 'warn'], children, { ...NO_OTEL, ...FAST_EXPORT, ...PRELOAD, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'protobuf-emulator' });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const read = await call(served.url, 'GET', '/v1/onboardings/onb_demo_jansen', undefined, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(read.status).toBe(200);
    await until(() => collector.protobufBodies.some((b) => b.includes(Buffer.from(traceId, 'hex'))), 'a protobuf export of the trace');
    expect(collector.encodings()).toEqual(['protobuf']);
    // Protobuf writes ids as their bytes and text as it is: the caller's trace, the span's name, the service.
    const body = collector.protobufBodies.find((b) => b.includes(Buffer.from(traceId, 'hex')))!;
    for (const text of ['GET /v1/onboardings/{id}', '/v1/onboardings/onb_demo_jansen', 'protobuf-emulator']) expect(body.includes(Buffer.from(text)), text).toBe(true);
    const loaded = await modulesLoadedBy(served);
    expect(loaded.opentelemetry_packages).toContain('exporter-trace-otlp-proto');
    expect(loaded.opentelemetry_packages).not.toContain('exporter-trace-otlp-http');
  });
});

/**
 * A copy of the built package whose node_modules holds every package of this checkout's but the
 * OpenTelemetry ones left out (`without`: every one, or the names in the scope given): a project
 * that installed the emulator without its optional peers.
 */
function installedWithout(without: 'all' | string[]): string {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'emulator-without-otel-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  for (const data of ['fixtures', 'scenarios']) symlinkSync(join(root, data), join(dir, data));
  mkdirSync(join(dir, 'node_modules', '@opentelemetry'), { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@opentelemetry') symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  }
  if (without !== 'all') {
    for (const name of readdirSync(join(root, 'node_modules', '@opentelemetry'))) {
      if (!without.includes(name)) symlinkSync(join(root, 'node_modules', '@opentelemetry', name), join(dir, 'node_modules', '@opentelemetry', name));
    }
  }
  return join(dir, 'dist', 'cli', 'main.js');
}

describe('tracing asked for, the OpenTelemetry packages not installed', () => {
  it.each<[string, 'all' | string[], string]>([
    ['none of them', 'all', '@opentelemetry/api'],
    ['the protobuf exporter alone missing', ['exporter-trace-otlp-proto'], '@opentelemetry/exporter-trace-otlp-proto'],
  ])('%s: one line naming the npm command, tracing off, and the emulator serves on', async (_name, without, missing) => {
    const collector = await otlp();
    const cli = installedWithout(without);
    const served = await serve(['--log-level', 'warn'], children, { ...NO_OTEL, ...FAST_EXPORT, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, undefined, cli);
    expect(served.ready).not.toHaveProperty('traces');
    const created = await call(served.url, 'POST', '/v1/onboardings', onboarding('NO-OTEL-1'), { 'Idempotency-Key': 'no-otel-1' });
    expect(created.status).toBe(201);
    expect(((await call(served.url, 'GET', '/_emulator/requests')).body.data as Record<string, unknown>[])[0]).not.toHaveProperty('trace_id');
    const warnings = served.lines().filter((l) => !l.startsWith('{'));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^onboarding-emulator: tracing needs the OpenTelemetry packages \\(${missing} is not installed\\): npm i @opentelemetry/api@\\S+ .*; tracing is off$`))]);
    expect(warnings[0]).toContain('@opentelemetry/exporter-trace-otlp-proto@');
    expect(served.child.exitCode).toBeNull();
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    expect(collector.exports()).toBe(0);
  });
});

describe('tracing off', () => {
  it.each([
    ['no endpoint', {}],
    ['OTEL_SDK_DISABLED=true', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SDK_DISABLED: 'true' }],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_EXPORTER: 'none' }],
  ])('%s: no tracing module is loaded, and no trace id is shown', async (_name, env) => {
    const served = await serve(['--log-level', 'warn', '--seed', 'untraced'], children, { ...NO_OTEL, ...PRELOAD, ...env });
    const created = await call(served.url, 'POST', '/v1/onboardings', onboarding('PLAIN-1'), { 'Idempotency-Key': 'plain-1', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect(created.status).toBe(201);
    const journal = await call(served.url, 'GET', '/_emulator/requests');
    expect((journal.body.data as Record<string, unknown>[])[0]).not.toHaveProperty('trace_id');
    expect(await modulesLoadedBy(served)).toEqual({ opentelemetry_packages: [], tracing_modules: 0 });
  });
});
