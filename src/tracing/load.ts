/**
 * Whether the environment asks for traces, and if so the adapter loaded and installed. The
 * adapter (adapter.ts and the modules it imports) is imported only here, on demand, so a start
 * without tracing loads none of it and takes no longer.
 */
import { EMULATOR_VERSION } from '../core/product.js';
import { installTracer } from '../core/tracing.js';

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_SERVICE_NAME = 'onboarding-emulator';

const setting = (env: Env, name: string): string => (env[name] ?? '').trim();

/**
 * On when an OTLP endpoint is named (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces' own
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); off again with OTEL_SDK_DISABLED=true, or with
 * OTEL_TRACES_EXPORTER set without otlp in its list (none, say).
 */
export function tracingWanted(env: Env): boolean {
  if (setting(env, 'OTEL_SDK_DISABLED').toLowerCase() === 'true') return false;
  const exporters = setting(env, 'OTEL_TRACES_EXPORTER').toLowerCase().split(',').map((e) => e.trim()).filter(Boolean);
  if (exporters.length && !exporters.includes('otlp')) return false;
  return setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== '' || setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== '';
}

/** What a start with tracing on is handed: sending what waits, and stopping. */
export interface TracingHandle {
  /** The service name the spans carry. */
  readonly serviceName: string;
  /** Sends the spans finished so far. */
  flush(): Promise<void>;
  /** Sends what waits and turns tracing off. */
  shutdown(): Promise<void>;
  /** Spans sent so far, spans dropped (queue full, or an export that failed) and failed exports. */
  counts(): { exported: number; dropped: number; failedExports: number };
}

/**
 * Turns tracing on for this process when the environment asks for it (tracingWanted), with the
 * same variables as `serve`; null when it does not. Everything is read from `env`: endpoint,
 * headers, timeout, protocol, resource, sampler and batching (docs/tracing.md).
 */
export async function enableTracing(env: Env = process.env): Promise<TracingHandle | null> {
  if (!tracingWanted(env)) return null;
  const serviceName = setting(env, 'OTEL_SERVICE_NAME') || DEFAULT_SERVICE_NAME;
  const { leanTracer } = await import('./adapter.js');
  const lean = leanTracer(env, serviceName, EMULATOR_VERSION);
  if (lean.warning) process.stderr.write(`${lean.warning}\n`);
  installTracer(lean.tracer);
  return {
    serviceName: lean.serviceName,
    flush: () => lean.flush(),
    shutdown: async () => {
      installTracer(null);
      await lean.shutdown();
    },
    counts: () => lean.counts(),
  };
}
