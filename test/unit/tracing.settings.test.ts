import { describe, expect, it } from 'vitest';
import { sdkSampler } from '../../src/tracing/adapter.js';
import { headerList, samplerChoice, tracesEndpoint, tracingSettings as read } from '../../src/tracing/settings.js';

/**
 * The standard variables as the emulator reads them before any OpenTelemetry package loads
 * (src/tracing/settings.ts): what each gives, and the one warning for a value that cannot be
 * used. The SDK is then handed what was read: the sampler is the SDK's own of that name.
 */
describe('OTEL_TRACES_SAMPLER and its argument', () => {
  it.each([
    ['always_on', '', 'AlwaysOnSampler'],
    ['always_off', '', 'AlwaysOffSampler'],
    ['traceidratio', '0.25', 'TraceIdRatioBased{0.25}'],
    ['parentbased_always_on', '', 'ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}'],
    ['parentbased_always_off', '', 'ParentBased{root=AlwaysOffSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}'],
    ['PARENTBASED_TRACEIDRATIO', '0.1', 'ParentBased{root=TraceIdRatioBased{0.1}, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}'],
  ])('%s (arg %j): the SDK sampler %s', (name, arg, sdk) => {
    expect(sdkSampler(samplerChoice({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: arg })).toString()).toBe(sdk);
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

  it('the protocol: http/protobuf, as the SDKs default to, unless http/json is asked for; the traces variable wins', () => {
    expect(tracingSettings({}, 's', 'v').protocol).toBe('http/protobuf');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 's', 'v').protocol).toBe('http/json');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }, 's', 'v').protocol).toBe('http/protobuf');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 's', 'v').protocol).toBe('http/protobuf');
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
