/**
 * The standard OpenTelemetry variables, read once at start, before the port opens and before any
 * OpenTelemetry package is loaded; the SDK is then handed the values read here, so it acts on what
 * the warnings say (its own reading of a bad value is silent). Tracing is a diagnostic and never
 * stops the emulator from starting: as the OpenTelemetry specification asks, a number or a name
 * that cannot be read is ignored with a warning (its default holds); an endpoint or a header list
 * that cannot be sent turns tracing off with a warning, since every export would fail.
 * docs/decisions.md, Tracing.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** OTEL_TRACES_SAMPLER's standard names. */
type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export interface SamplerChoice {
  name: SamplerName;
  /** For the ratio samplers: the share of new traces recorded, 0 to 1. */
  ratio: number;
}

export interface TracingSettings {
  /** Where each batch is POSTed. */
  endpoint: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** How the spans are sent: http/protobuf (the SDKs' default) unless http/json is asked for. */
  protocol: 'http/protobuf' | 'http/json';
  /** The resource's attributes: service.name and service.version first. */
  resource: Record<string, string>;
  sampler: SamplerChoice;
  scheduleDelayMs: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

/** What the variables give: the settings, one line per value ignored, and why tracing is off when it is. */
interface SettingsRead {
  settings: TracingSettings;
  warnings: string[];
  /** Set when the endpoint or a header list cannot be used: tracing stays off. */
  off: string | null;
}

const setting = (env: Env, name: string): string => (env[name] ?? '').trim();

/** Warnings name the variable and what holds instead; `tracing off` ones say so. */
const ignored = (name: string, why: string, instead: string): string => `onboarding-emulator: ${name}: ${why}; ${instead}`;

/** A whole number of at least `min`, or the fallback with a warning (the specification's rule for numbers). */
function whole(env: Env, name: string, fallback: number, min: number, warnings: string[]): number {
  const text = setting(env, name);
  if (text === '') return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min) return n;
  warnings.push(ignored(name, `not a whole number of ${min} or more: ${JSON.stringify(text)}`, `ignored, ${fallback} holds`));
  return fallback;
}

/** Percent-decoded; undefined when the escapes do not decode. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A comma list of key=value pairs, each side trimmed and percent-decoded (the W3C Baggage form
 * the specification names); empty entries are skipped. Throws the first entry that is no pair
 * or does not decode.
 */
function pairs(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const raw of text.split(',')) {
    const pair = raw.trim();
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq > 0 ? decoded(pair.slice(0, eq).trim()) : undefined;
    const value = eq > 0 ? decoded(pair.slice(eq + 1).trim()) : undefined;
    if (!key || value === undefined) throw new Error(`${JSON.stringify(pair)} is not a name=value pair with valid %-escapes`);
    out.push([key, value]);
  }
  return out;
}

/** A header name is an HTTP token; a value holds no control character and nothing beyond Latin-1 (what node:http refuses to send). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;

/** OTEL_EXPORTER_OTLP_HEADERS and its traces twin: the headers, or why they cannot be sent. */
export function headerList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs(text)) {
    if (!TOKEN.test(name)) throw new Error(`${JSON.stringify(name)} is not a header name`);
    if (UNSENDABLE.test(value)) throw new Error(`the value of ${name} holds a character a header cannot carry (a line break, a control character, or one beyond Latin-1)`);
    out[name] = value;
  }
  return out;
}

/** The traces' URL, and the variable it comes from: the traces' own variable as it is, else the general one with /v1/traces added. */
export function tracesEndpoint(env: Env): { url: string; from: string } {
  const own = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (own) return { url: own, from: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return { url: base ? `${base.replace(/\/+$/, '')}/v1/traces` : '', from: 'OTEL_EXPORTER_OTLP_ENDPOINT' };
}

/** Only http and https with a host: OTLP/HTTP is all the exporter speaks. */
function checkEndpoint(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new Error(`not an http:// or https:// URL: ${JSON.stringify(url)}`);
  }
}

const SAMPLERS: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/** OTEL_TRACES_SAMPLER (default parentbased_always_on; an unknown name too, with a warning) and its ratio (default 1). */
export function samplerChoice(env: Env, warnings: string[] = []): SamplerChoice {
  const given = setting(env, 'OTEL_TRACES_SAMPLER').toLowerCase();
  let name: SamplerName = 'parentbased_always_on';
  if ((SAMPLERS as readonly string[]).includes(given)) name = given as SamplerName;
  else if (given !== '') warnings.push(ignored('OTEL_TRACES_SAMPLER', `not a sampler this emulator has (${SAMPLERS.join(', ')}): ${JSON.stringify(given)}`, 'ignored, parentbased_always_on holds'));
  const arg = setting(env, 'OTEL_TRACES_SAMPLER_ARG');
  const n = arg === '' ? Number.NaN : Number(arg);
  const ratio = n >= 0 && n <= 1 ? n : 1;
  if (arg !== '' && ratio !== n && name.endsWith('traceidratio')) warnings.push(ignored('OTEL_TRACES_SAMPLER_ARG', `not a ratio from 0 to 1: ${JSON.stringify(arg)}`, 'ignored, 1 holds'));
  return { name, ratio };
}

/** OTEL_RESOURCE_ATTRIBUTES: a list that does not decode is dropped whole, as the specification says. */
function resourceAttributes(env: Env, warnings: string[]): Record<string, string> {
  try {
    return Object.fromEntries(pairs(setting(env, 'OTEL_RESOURCE_ATTRIBUTES')));
  } catch (err) {
    warnings.push(ignored('OTEL_RESOURCE_ATTRIBUTES', (err as Error).message, 'ignored whole'));
    return {};
  }
}

export function tracingSettings(env: Env, serviceName: string, serviceVersion: string): SettingsRead {
  const warnings: string[] = [];
  let off: string | null = null;
  const protocol = (setting(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') || setting(env, 'OTEL_EXPORTER_OTLP_PROTOCOL')).toLowerCase();
  if (protocol !== '' && protocol !== 'http/json' && protocol !== 'http/protobuf') {
    warnings.push(`onboarding-emulator: OTLP protocol ${protocol} is not supported; traces are sent as http/protobuf (OTLP/HTTP with protobuf bodies) instead`);
  }
  const endpoint = tracesEndpoint(env);
  try {
    checkEndpoint(endpoint.url);
  } catch (err) {
    off = ignored(endpoint.from, (err as Error).message, 'tracing is off');
  }
  const headers: Record<string, string> = {};
  // The traces' list wins per name over the general one.
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    try {
      Object.assign(headers, headerList(setting(env, name)));
    } catch (err) {
      off ??= ignored(name, (err as Error).message, 'tracing is off');
    }
  }
  const maxQueueSize = whole(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, warnings);
  return {
    settings: {
      endpoint: endpoint.url,
      headers,
      timeoutMs: whole(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', whole(env, 'OTEL_EXPORTER_OTLP_TIMEOUT', 10_000, 1, warnings), 1, warnings),
      protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
      // OTEL_SERVICE_NAME (the caller's serviceName) wins over a service.name among the resource attributes.
      resource: { 'service.name': serviceName, 'service.version': serviceVersion, ...resourceAttributes(env, warnings), ...(setting(env, 'OTEL_SERVICE_NAME') ? { 'service.name': serviceName } : {}) },
      sampler: samplerChoice(env, warnings),
      scheduleDelayMs: whole(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, 0, warnings),
      maxQueueSize,
      maxExportBatchSize: Math.min(maxQueueSize, whole(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1, warnings)),
    },
    warnings,
    off,
  };
}
