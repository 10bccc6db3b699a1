import { isIP } from 'node:net';
import { SERVE_OPTIONS, parseDrainTimeout, parseJournalLimit, parsePort, parsePublicUrl, parseStartTime, parseTimeout, scenarioFiles, type OptionSpec, type ServeOptions } from '../config.js';
import { parseRateLimit, type RateLimit } from '../http/rate-limit.js';

/**
 * Every `serve` option checked before anything starts: a value it cannot take stops the start
 * with one line naming the flag, or the variable it came from, and exit status 2 (a usage
 * mistake, as commander's own refusals of a choice). Files (fixtures, scenarios, the state
 * file) are read later and refused for what they hold with exit status 1.
 */
export class ConfigError extends Error {}

/** Where commander took a value from: `cli`, `env`, `default`, ... */
type Source = string | undefined;

type Env = Readonly<Record<string, string | undefined>>;

export interface ServeSettings {
  port: number;
  host: string;
  fixtures: string | undefined;
  scenarios: string[];
  seed: string | undefined;
  logLevel: string;
  /** Left out: the caller decides from where stdout goes (defaultLogFormat). */
  logFormat: 'pretty' | 'json' | undefined;
  clock: 'realtime' | 'frozen';
  startTime: string | undefined;
  publicUrl: string | undefined;
  webhookUrlPolicy: 'local' | 'strict';
  signatureClock: 'wall' | 'emulated';
  webhookTimeoutMs: number;
  rateLimit: RateLimit | undefined;
  stateFile: string | undefined;
  resetState: boolean;
  stateFileRepair: boolean;
  drainMs: number;
  journalLimit: number;
  ui: boolean;
  allowedHosts: string[] | undefined;
}

const spec = (key: keyof ServeOptions): OptionSpec => SERVE_OPTIONS.find((o) => o.key === key)!;
const longFlag = (o: OptionSpec): string => /--[a-z-]+/.exec(o.flag)![0];

/**
 * The switches' variables (EMULATOR_RESET_STATE, EMULATOR_STATE_FILE_REPAIR, EMULATOR_NO_UI) read as yes or no: commander
 * takes any value as yes, so `EMULATOR_RESET_STATE=false` would overwrite the state file.
 */
const YES = ['1', 'true', 'yes', 'on'];
const NO = ['0', 'false', 'no', 'off'];

/** A host name (labels of letters, digits, `-` and `_`), an IPv4 or an IPv6 address. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

function parseHost(value: string): string {
  if (isIP(value) === 0 && !HOST_NAME.test(value)) throw new Error(`not an address or host name to listen on (such as 127.0.0.1, 0.0.0.0 or ::1): ${JSON.stringify(value)}`);
  return value;
}

/** `a.test`, `.b.test` or `*.b.test` for a domain and its names, an IP address, or `*`: no scheme, port or path, which would never match a Host. */
function parseAllowedHosts(value: string): string[] {
  const entries = value.split(',').map((h) => h.trim()).filter(Boolean);
  for (const entry of entries) {
    const name = entry.replace(/^\*?\./, '');
    if (entry !== '*' && isIP(name.replace(/^\[(.*)\]$/, '$1')) === 0 && !HOST_NAME.test(name)) {
      throw new Error(`${JSON.stringify(entry)} is not a host name (give the name alone, without scheme, port or path: emulator.test, .example.test, or * for any)`);
    }
  }
  return entries;
}

function parseSwitch(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (YES.includes(v)) return true;
  if (NO.includes(v)) return false;
  throw new Error(`not a yes or no: ${JSON.stringify(value)} (use true or false)`);
}

/**
 * Checks and converts the options commander collected. `sourceOf` says where each came from, so
 * a mistake names what the user wrote: the flag, or the environment variable.
 */
export function serveSettings(options: ServeOptions & { port: string | number }, sourceOf: (key: keyof ServeOptions) => Source, env: Env): ServeSettings {
  const named = <T>(key: keyof ServeOptions, parse: () => T): T => {
    try {
      return parse();
    } catch (err) {
      const o = spec(key);
      throw new ConfigError(`${sourceOf(key) === 'env' ? o.env : longFlag(o)}: ${(err as Error).message}`);
    }
  };
  /** A switch set by its variable: the variable's value decides. */
  const variableSays = (key: 'resetState' | 'stateFileRepair' | 'ui'): boolean => named(key, () => parseSwitch(env[spec(key).env] ?? ''));
  const resetState = sourceOf('resetState') === 'env' ? variableSays('resetState') : options.resetState === true;
  const stateFileRepair = sourceOf('stateFileRepair') === 'env' ? variableSays('stateFileRepair') : options.stateFileRepair === true;
  const ui = sourceOf('ui') === 'env' ? !variableSays('ui') : options.ui !== false;
  if (resetState && !options.stateFile) throw new ConfigError('--reset-state needs --state-file: it says what to do with that file');
  if (stateFileRepair && !options.stateFile) throw new ConfigError('--state-file-repair needs --state-file: it says which file to repair');
  return {
    port: named('port', () => parsePort(String(options.port))),
    host: named('host', () => parseHost(options.host)),
    fixtures: options.fixtures,
    scenarios: scenarioFiles(options.scenario),
    seed: options.seed,
    logLevel: options.logLevel,
    logFormat: options.logFormat,
    clock: options.clock,
    startTime: named('startTime', () => parseStartTime(options.startTime)),
    publicUrl: named('publicUrl', () => parsePublicUrl(options.publicUrl)),
    webhookUrlPolicy: options.webhookUrlPolicy,
    signatureClock: options.signatureClock,
    webhookTimeoutMs: named('webhookTimeoutMs', () => parseTimeout(options.webhookTimeoutMs)),
    rateLimit: options.rateLimit === undefined ? undefined : named('rateLimit', () => parseRateLimit(options.rateLimit!)),
    stateFile: options.stateFile,
    resetState,
    stateFileRepair,
    drainMs: named('drainTimeoutMs', () => parseDrainTimeout(options.drainTimeoutMs)),
    journalLimit: named('journalLimit', () => parseJournalLimit(options.journalLimit)),
    ui,
    allowedHosts: options.allowedHosts === undefined ? undefined : named('allowedHosts', () => parseAllowedHosts(options.allowedHosts!)),
  };
}

/**
 * An empty variable counts as unset (as the OpenTelemetry variables do): a compose file's
 * `EMULATOR_SEED=${SEED:-}` must not set the seed to nothing, nor `EMULATOR_PORT=` pick port 0.
 * Removed before commander reads the environment.
 */
export function dropEmptyVariables(env: Record<string, string | undefined>): void {
  for (const o of SERVE_OPTIONS) if (env[o.env] !== undefined && env[o.env]!.trim() === '') delete env[o.env];
}
