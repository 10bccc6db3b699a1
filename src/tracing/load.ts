/**
 * Whether the environment asks for traces, and if so the adapter loaded and installed. The
 * variables (settings.ts) and the adapter (adapter.ts, over the OpenTelemetry SDK) are imported
 * only here, on demand, so a start without tracing loads none of them and takes no longer. The
 * OpenTelemetry packages are optional peer dependencies: when they are missing, one line says
 * what to install and the emulator runs untraced.
 */
import { readFileSync } from 'node:fs';
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
  /** Spans sent so far, spans dropped in exports that failed, and failed exports. */
  counts(): { exported: number; dropped: number; failedExports: number };
}

/** The OpenTelemetry package a failed import could not find; null for any other failure. */
function missingPackage(err: unknown): string | null {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' && e?.code !== 'MODULE_NOT_FOUND') return null;
  return /'(@opentelemetry\/[^/']+)/.exec(String(e.message))?.[1] ?? null;
}

/**
 * `npm i` of the OpenTelemetry packages this package names as optional peers, at the versions its
 * tests run with (its devDependencies; the peers' ranges are wider, so as not to refuse a project
 * that has other versions of them already).
 */
export function installCommand(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<'peerDependencies' | 'devDependencies', Record<string, string>>;
  const packages = Object.keys(manifest.peerDependencies)
    .filter((name) => name.startsWith('@opentelemetry/'))
    .map((name) => `${name}@${(manifest.devDependencies[name] ?? 'latest').replace(/^[~^]/, '')}`);
  return `npm i ${packages.join(' ')}`;
}

/**
 * Turns tracing on for this process when the environment asks for it (tracingWanted), with the
 * same variables as `serve`; null when it does not, when the endpoint or the headers cannot be
 * used, or when the OpenTelemetry packages are not installed (one warning on stderr says which).
 * Everything is read from `env`, at once: endpoint, headers, timeout, protocol, resource,
 * sampler and batching (docs/tracing.md).
 */
export async function enableTracing(env: Env = process.env): Promise<TracingHandle | null> {
  if (!tracingWanted(env, warnLine)) return null;
  const serviceName = setting(env, 'OTEL_SERVICE_NAME') || DEFAULT_SERVICE_NAME;
  const { tracingSettings } = await import('./settings.js');
  const { settings, warnings, off } = tracingSettings(env, serviceName, EMULATOR_VERSION);
  if (off !== null) {
    warnLine(off);
    return null;
  }
  for (const line of warnings) warnLine(line);
  let otel;
  try {
    const { openTelemetryTracing } = await import('./adapter.js');
    otel = await openTelemetryTracing(settings, EMULATOR_VERSION, warnLine);
  } catch (err) {
    // Tracing never stops a start: whatever went wrong setting it up leaves it off.
    const missing = missingPackage(err);
    warnLine(
      missing
        ? `onboarding-emulator: tracing needs the OpenTelemetry packages (${missing} is not installed): ${installCommand()}; tracing is off`
        : `onboarding-emulator: tracing could not start (${err instanceof Error ? err.message : String(err)}); tracing is off`,
    );
    return null;
  }
  installTracer(otel.tracer);
  return {
    serviceName: settings.resource['service.name']!,
    flush: () => otel.flush(),
    shutdown: async () => {
      installTracer(null);
      await otel.shutdown();
    },
    counts: () => otel.counts(),
  };
}
