/**
 * The standard OpenTelemetry variables the exporter and the tracer read, parsed once at start.
 * A malformed number falls back to its default, as the SDKs do: tracing is a diagnostic and
 * never stops the emulator from starting.
 */
import type { SamplerChoice, SamplerName } from './sampler.js';
import type { OtlpEncoding } from './span-batch.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface TracingSettings {
  /** Where each batch is POSTed. */
  endpoint: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** How the spans are sent: http/protobuf (the SDKs' default) unless http/json is asked for. */
  encoding: OtlpEncoding;
  /** A warning for stderr when the protocol asked for is neither of OTLP/HTTP's (grpc, say). */
  protocolWarning: string | null;
  /** The resource's attributes: service.name and service.version first. */
  resource: Record<string, string>;
  sampler: SamplerChoice;
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

const setting = (env: Env, name: string): string => (env[name] ?? '').trim();

function whole(env: Env, name: string, fallback: number, min: number): number {
  const text = setting(env, name);
  if (!/^\d+$/.test(text)) return fallback;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min ? n : fallback;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A comma list of key=value pairs, each side URL-decoded and trimmed; a pair without '=' is skipped. */
export function keyValueList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = decoded(pair.slice(0, eq).trim());
    if (key) out[key] = decoded(pair.slice(eq + 1).trim());
  }
  return out;
}

/** The traces' URL: the traces' own variable as it is, else the general one with /v1/traces added. */
export function tracesEndpoint(env: Env): string {
  const own = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (own) return own;
  const base = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : '';
}

const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** OTEL_TRACES_SAMPLER (default parentbased_always_on; an unknown name too) and its ratio (default 1). */
export function samplerChoice(env: Env): SamplerChoice {
  const name = setting(env, 'OTEL_TRACES_SAMPLER').toLowerCase() as SamplerName;
  const arg = setting(env, 'OTEL_TRACES_SAMPLER_ARG');
  const n = arg === '' ? Number.NaN : Number(arg);
  return { name: SAMPLERS.includes(name) ? name : 'parentbased_always_on', ratio: n >= 0 && n <= 1 ? n : 1 };
}

export function tracingSettings(env: Env, serviceName: string, serviceVersion: string): TracingSettings {
  const protocol = (setting(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') || setting(env, 'OTEL_EXPORTER_OTLP_PROTOCOL')).toLowerCase();
  const maxQueueSize = whole(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1);
  return {
    endpoint: tracesEndpoint(env),
    headers: { ...keyValueList(setting(env, 'OTEL_EXPORTER_OTLP_HEADERS')), ...keyValueList(setting(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS')) },
    timeoutMs: whole(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', whole(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, 1), 1),
    encoding: protocol === 'http/json' ? 'json' : 'protobuf',
    protocolWarning:
      protocol === '' || protocol === 'http/json' || protocol === 'http/protobuf'
        ? null
        : `onboarding-emulator: OTLP protocol ${protocol} is not supported; traces are sent as http/protobuf (OTLP/HTTP with protobuf bodies) instead`,
    // OTEL_SERVICE_NAME (the caller's serviceName) wins over a service.name among the resource attributes.
    resource: { 'service.name': serviceName, 'service.version': serviceVersion, ...keyValueList(setting(env, 'OTEL_RESOURCE_ATTRIBUTES')), ...(setting(env, 'OTEL_SERVICE_NAME') ? { 'service.name': serviceName } : {}) },
    sampler: samplerChoice(env),
    scheduleDelayMs: whole(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, 0),
    maxQueueSize,
    maxExportBatchSize: Math.min(maxQueueSize, whole(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1)),
  };
}
