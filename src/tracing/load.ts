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

const EXPORTERS = ['otlp', 'none'];
const warnLine = (line: string): void => void process.stderr.write(`${line}\n`);

/**
 * On when an OTLP endpoint is named (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces' own
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); off again with OTEL_SDK_DISABLED=true, or with
 * OTEL_TRACES_EXPORTER set without otlp in its list (none, say). A value the specification
 * would have ignored gets a warning through `warn`: OTEL_SDK_DISABLED other than true or false
 * (read as false), an exporter name other than otlp and none.
 */
export function tracingWanted(env: Env, warn: (line: string) => void = () => {}): boolean {
  const disabled = setting(env, 'OTEL_SDK_DISABLED').toLowerCase();
  if (disabled === 'true') return false;
  const named = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== '' || setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== '';
  if (disabled !== '' && disabled !== 'false' && named) warn(`onboarding-emulator: OTEL_SDK_DISABLED: not true or false: ${JSON.stringify(disabled)}; read as false`);
  const exporters = setting(env, 'OTEL_TRACES_EXPORTER').toLowerCase().split(',').map((e) => e.trim()).filter(Boolean);
  const unknown = exporters.filter((e) => !EXPORTERS.includes(e));
  if (unknown.length && named) warn(`onboarding-emulator: OTEL_TRACES_EXPORTER: ${unknown.join(', ')}: not an exporter this emulator has (otlp, none); ignored`);
  if (exporters.length && !exporters.includes('otlp')) return false;
  return named;
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
 * same variables as `serve`; null when it does not, or when the endpoint or the headers cannot
 * be used (one warning on stderr says which). Everything is read from `env`, at once: endpoint,
 * headers, timeout, protocol, resource, sampler and batching (docs/tracing.md).
 */
export async function enableTracing(env: Env = process.env): Promise<TracingHandle | null> {
  if (!tracingWanted(env, warnLine)) return null;
  const serviceName = setting(env, 'OTEL_SERVICE_NAME') || DEFAULT_SERVICE_NAME;
  const { leanTracer } = await import('./adapter.js');
  let lean;
  try {
    lean = leanTracer(env, serviceName, EMULATOR_VERSION, warnLine);
  } catch (err) {
    // Tracing never stops a start: whatever went wrong setting it up leaves it off.
    warnLine(`onboarding-emulator: tracing could not start (${(err as Error).message}); tracing is off`);
    return null;
  }
  if (!lean) return null;
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
