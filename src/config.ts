import { instantOutOfRange } from './core/clock.js';
import { JOURNAL_MAX_LIMIT } from './core/journal.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './core/product.js';

/**
 * The `serve` options, declared once: the CLI builds its flags from this table, each with an
 * environment variable for Docker. createEmulator() takes the same settings, but not all under
 * these names: it takes the Emulator's grouped options, so --webhook-url-policy is
 * `webhooks.urlPolicy`, --clock and --start-time are `clock.mode` and `clock.start`, and
 * --log-level is a pino `logger`; port and host are arguments of start() and listen(), and
 * --drain-timeout-ms is CLI only. The whole mapping is the options table of
 * docs/configuration.md, which test/unit/options.test.ts holds to this list and to the types.
 */
export interface ServeOptions {
  port: number;
  host: string;
  fixtures?: string | undefined;
  /** Repeatable; from the environment, a comma-separated list. */
  scenario?: string[] | undefined;
  seed?: string | undefined;
  logLevel: string;
  /** `pretty` or `json`; left out, pretty when stdout is a terminal, else json. */
  logFormat?: 'pretty' | 'json' | undefined;
  clock: 'realtime' | 'frozen';
  startTime?: string | undefined;
  publicUrl?: string | undefined;
  webhookUrlPolicy: 'local' | 'strict';
  signatureClock: 'wall' | 'emulated';
  webhookTimeoutMs: string;
  /** `N/s` or `N/m` per API key on /v1; off when left out. */
  rateLimit?: string | undefined;
  /** Keeps the default workspace in this JSON file (a snapshot), read at start and written after each change. */
  stateFile?: string | undefined;
  /** With stateFile: start from the fixtures and overwrite the file. */
  resetState?: boolean | undefined;
  /** With stateFile: a change log damaged before its end is cut there and moved aside, not refused. */
  stateFileRepair?: boolean | undefined;
  /** On SIGTERM/SIGINT: how long requests and webhook attempts in flight may take before they are cut. */
  drainTimeoutMs: string;
  /** Requests each workspace's journal keeps; `0` turns the journal off. */
  journalLimit: string;
  /** The inspector at /_emulator/ui and the API explorer at /_emulator/docs; `--no-ui` sets false. */
  ui?: boolean | undefined;
  /** Host names answered besides the default ones, comma-separated; `*` for any. */
  allowedHosts?: string | undefined;
}

export interface OptionSpec {
  key: keyof ServeOptions;
  flag: string;
  env: string;
  description: string;
  default?: string;
  choices?: string[];
  /** Given several times, the values collect into a list. */
  repeatable?: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const SERVE_OPTIONS: OptionSpec[] = [
  { key: 'port', flag: '-p, --port <port>', env: 'EMULATOR_PORT', default: String(DEFAULT_PORT), description: 'TCP port to listen on (0 picks a free one)' },
  { key: 'host', flag: '--host <host>', env: 'EMULATOR_HOST', default: DEFAULT_HOST, description: 'interface to bind; 0.0.0.0 inside a container' },
  { key: 'fixtures', flag: '-f, --fixtures <file>', env: 'EMULATOR_FIXTURES', description: 'fixtures document (JSON or YAML) for the default workspace; default: the bundled fixtures/default.json' },
  { key: 'scenario', flag: '--scenario <file>', env: 'EMULATOR_SCENARIO', repeatable: true, description: 'scenario (JSON or YAML file, or the name of a ready scenario such as happy-path) played by the default and new workspaces; repeat for several (rules in order); environment: comma-separated' },
  { key: 'seed', flag: '--seed <seed>', env: 'EMULATOR_SEED', description: 'makes every generated id, code and request id reproducible' },
  { key: 'logLevel', flag: '--log-level <level>', env: 'EMULATOR_LOG_LEVEL', default: 'info', choices: LOG_LEVELS, description: 'pino log level; info logs one line per request' },
  { key: 'logFormat', flag: '--log-format <format>', env: 'EMULATOR_LOG_FORMAT', choices: ['pretty', 'json'], description: 'pretty: readable lines for a person; json: one JSON object a line, for machines; default: pretty when stdout is a terminal, else json' },
  { key: 'clock', flag: '--clock <mode>', env: 'EMULATOR_CLOCK', default: 'realtime', choices: ['realtime', 'frozen'], description: 'realtime follows the wall clock; frozen stands still until advanced' },
  { key: 'startTime', flag: '--start-time <iso>', env: 'EMULATOR_START_TIME', description: 'emulated time at start (ISO 8601); default: now' },
  { key: 'publicUrl', flag: '--public-url <url>', env: 'EMULATOR_PUBLIC_URL', description: 'base URL for hosted links; default: the scheme and Host of each request' },
  { key: 'webhookUrlPolicy', flag: '--webhook-url-policy <policy>', env: 'EMULATOR_WEBHOOK_URL_POLICY', default: 'local', choices: ['local', 'strict'], description: 'local: http and https, loopback and private hosts allowed; strict: the production rules (https only, internal addresses refused)' },
  { key: 'signatureClock', flag: '--signature-clock <clock>', env: 'EMULATOR_SIGNATURE_CLOCK', default: 'wall', choices: ['wall', 'emulated'], description: 't of Service-Signature: wall time, or the workspace clock for receivers on a fake clock' },
  { key: 'webhookTimeoutMs', flag: '--webhook-timeout-ms <ms>', env: 'EMULATOR_WEBHOOK_TIMEOUT_MS', default: '10000', description: 'how long a webhook attempt waits for the answer' },
  { key: 'stateFile', flag: '--state-file <file>', env: 'EMULATOR_STATE_FILE', description: 'keep the default workspace in this JSON file and its change log (FILE.log): read at start (a bad file stops the start), created when missing, each change appended to the log before its answer' },
  { key: 'resetState', flag: '--reset-state', env: 'EMULATOR_RESET_STATE', description: 'with --state-file: start from the fixtures and overwrite the file, whatever it holds (environment: true or false)' },
  { key: 'stateFileRepair', flag: '--state-file-repair', env: 'EMULATOR_STATE_FILE_REPAIR', description: 'with --state-file: when its change log is damaged before its end (which stops a start), keep the records before the damage, move the log aside to FILE.log.damaged and say how many records were dropped (environment: true or false)' },
  { key: 'drainTimeoutMs', flag: '--drain-timeout-ms <ms>', env: 'EMULATOR_DRAIN_TIMEOUT_MS', default: '10000', description: 'on SIGTERM or SIGINT: how long requests and webhook attempts in flight may run before they are cut (attempts cut are stored as due again); then the state file is written and the process exits 0' },
  { key: 'journalLimit', flag: '--journal-limit <n>', env: 'EMULATOR_JOURNAL_LIMIT', default: '1000', description: `requests each workspace's journal (GET /_emulator/requests) keeps, 0 to ${JOURNAL_MAX_LIMIT}; older ones are dropped and counted; 0 turns the journal off (nothing recorded, lists empty)` },
  { key: 'ui', flag: '--no-ui', env: 'EMULATOR_NO_UI', description: 'turn the inspector (/_emulator/ui, and the redirect from /) and the API explorer (/_emulator/docs) off: 404 (environment: true or false)' },
  { key: 'rateLimit', flag: '--rate-limit <rate>', env: 'EMULATOR_RATE_LIMIT', description: 'per-key limit on /v1 requests, N/s or N/m (e.g. 10/s): over it, 429 rate_limited with Retry-After; default: off' },
  { key: 'allowedHosts', flag: '--allowed-hosts <hosts>', env: 'EMULATOR_ALLOWED_HOSTS', description: "host names answered besides IP addresses, localhost, single-label names and the --public-url host, comma-separated (a.test, .b.test for a domain and its names); '*' for every name; other names get 403 host_not_allowed (DNS rebinding)" },
];

/** Decimal digits only: `1e3`, `0x10`, ` 5` and an empty value are mistakes, not numbers. */
function whole(value: string): number {
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

export function parseTimeout(value: string): number {
  const ms = whole(value);
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 600_000) throw new Error(`not a valid timeout in ms (1 to 600000): ${value}`);
  return ms;
}

export function parseDrainTimeout(value: string): number {
  const ms = whole(value);
  if (!Number.isSafeInteger(ms) || ms > 600_000) throw new Error(`not a valid drain timeout in ms (0 to 600000): ${value}`);
  return ms;
}

export function parseJournalLimit(value: string): number {
  const limit = whole(value);
  if (!Number.isSafeInteger(limit) || limit > JOURNAL_MAX_LIMIT) throw new Error(`not a valid journal limit (0 to ${JOURNAL_MAX_LIMIT}): ${value}`);
  return limit;
}

export function parsePort(value: string): number {
  const port = whole(value);
  if (!Number.isSafeInteger(port) || port > 65535) throw new Error(`not a valid port (0 to 65535): ${value}`);
  return port;
}

export function parseStartTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`not a valid ISO 8601 instant: ${value}`);
  const outside = instantOutOfRange(ms);
  if (outside) throw new Error(`${value}: ${outside}`);
  return value;
}

/**
 * --public-url: the base of every link handed out, so an absolute http(s) URL with a host and
 * nothing after its path (a query or fragment would end up inside every link).
 */
export function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '') {
    throw new Error(`must be an http:// or https:// URL such as https://emulator.example.test; got ${JSON.stringify(value)}`);
  }
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    throw new Error(`${value}: no query or fragment; it is the base links are built on`);
  }
  if (url.username !== '' || url.password !== '') throw new Error(`${value}: no user name or password in it`);
  return value;
}

/** Files from repeated flags, or one comma-separated environment value. */
export function scenarioFiles(value: string[] | undefined): string[] {
  return (value ?? []).flatMap((v) => v.split(',')).map((f) => f.trim()).filter(Boolean);
}
