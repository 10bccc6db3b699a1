import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { inSpan, installTracer, NO_TRACER, traceIdOf, tracer, type Span, type SpanStart, type Tracer } from '../../src/core/tracing.js';
import { installCommand, tracingWanted } from '../../src/tracing/load.js';

afterEach(() => installTracer(null));

describe('tracingWanted: the standard variables', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'false' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'console' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'console, otlp' }, true],
  ])('%j -> %s', (env, on) => expect(tracingWanted(env)).toBe(on));

  it('warns of a value the specification ignores: OTEL_SDK_DISABLED other than true or false, an exporter it does not know', () => {
    const lines: string[] = [];
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'yes' }, (l) => lines.push(l))).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'otpl' }, (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual([
      'onboarding-emulator: OTEL_SDK_DISABLED: not true or false: "yes"; read as false',
      'onboarding-emulator: OTEL_TRACES_EXPORTER: otpl: not an exporter this emulator has (otlp, none); ignored',
    ]);
  });
});

describe('the OpenTelemetry packages', () => {
  it('the install command a start without them prints names each optional peer at the version the tests run with', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, { version: string }> };
    const peers = Object.keys(manifest.peerDependencies!).filter((n) => n.startsWith('@opentelemetry/'));
    expect(peers).toEqual(expect.arrayContaining(['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-trace-otlp-http']));
    // Optional, and installed for the tests: the command names the versions the lock installs for them.
    for (const name of peers) {
      expect(manifest.peerDependenciesMeta![name]).toEqual({ optional: true });
      expect(manifest.devDependencies).toHaveProperty([name]);
    }
    expect(installCommand()).toBe(`npm i ${peers.map((n) => `${n}@${lock.packages[`node_modules/${n}`]!.version}`).join(' ')}`);
  });
});

/** A tracer of the port that records what it is asked, with no OpenTelemetry. */
function recording() {
  const log: string[] = [];
  const t: Tracer = {
    enabled: true,
    start(name: string, options?: SpanStart): Span {
      log.push(`start ${name} ${JSON.stringify(options?.attributes ?? {})}`);
      return { traceId: 'a'.repeat(32), recording: true, headers: () => ({}), set: (a) => void log.push(`set ${JSON.stringify(a)}`), fail: (r) => void log.push(`fail ${r}`), end: () => void log.push(`end ${name}`) };
    },
    within: (_span, fn) => fn(),
    current: () => null,
    traceId: () => '',
  };
  return { t, log };
}

describe('the tracing port', () => {
  it('is off by default: inSpan runs the function and nothing else', () => {
    expect(tracer()).toBe(NO_TRACER);
    expect(inSpan('x', {}, (span) => span.traceId)).toBe('');
  });

  it('ends a span when its function returns, or when its promise settles, and marks a failure', async () => {
    const { t, log } = recording();
    installTracer(t);
    expect(inSpan('sync', { attributes: { a: 1 } }, () => 5)).toBe(5);
    await expect(inSpan('async', {}, () => Promise.resolve(6))).resolves.toBe(6);
    expect(() => inSpan('throws', {}, () => { throw new Error('boom'); })).toThrow('boom');
    await expect(inSpan('rejects', {}, () => Promise.reject(new Error('late')))).rejects.toThrow('late');
    expect(log).toEqual(['start sync {"a":1}', 'end sync', 'start async {}', 'end async', 'start throws {}', 'fail boom', 'end throws', 'start rejects {}', 'fail late', 'end rejects']);
  });

  it('reads the trace id of a traceparent, and nothing else', () => {
    expect(traceIdOf({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(traceIdOf({ traceparent: 'garbage' })).toBeNull();
    expect(traceIdOf(null)).toBeNull();
  });
});
