import { Option, type Command } from 'commander';
import { UsageError } from '../../client/http.js';
import { WELL_KNOWN_KEYS } from '../../fixtures/well-known-keys.js';
import { buildOpenApi } from '../../http/openapi.js';
import { createEmulator } from '../../in-process.js';
import { CorpusError, readCorpus, SHIPPED_CORPUS } from '../../parity/corpus.js';
import { operationsOf } from '../../parity/coverage.js';
import { parityCtrf, parityJunit, paritySummary, runParity } from '../../parity/parity.js';
import { REPLAY_DEFAULTS, type ParityTarget } from '../../parity/replay.js';
import { action, printReportAs, usageExit } from '../client.js';
import { registerParityProxy } from './parity-proxy.js';

/**
 * `parity`: the emulator measured against a target. `run` replays a corpus (the shipped one
 * unless a folder is given) against --target, or against an emulator it starts itself, and
 * reports each flow's steps as match, drift or could not be checked. Exit 0 when nothing
 * drifted, 1 when something did, 2 on a usage mistake.
 */
interface RunOptions {
  target?: string;
  key: string[];
  format: 'summary' | 'json' | 'junit' | 'ctrf';
  seed?: string;
  stepTimeout?: string;
}

/** `--key KEY` is the owner's; `--key role=KEY` another role's. */
function keysOf(given: string[]): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const k of given) {
    const m = /^([a-z][a-z0-9_-]{0,39})=(.+)$/.exec(k);
    const [role, key] = m ? [m[1]!, m[2]!] : ['owner', k];
    if (!/^hrs_test_/.test(key)) throw new UsageError(`--key ${role}: a test key (hrs_test_...) is needed; parity never runs with a live key`);
    keys[role] = key;
  }
  return keys;
}

function targetUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--target must be an http(s) URL, not ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL, not ${raw}`);
  if (url.username || url.password) throw new UsageError('--target must not hold credentials: pass keys with --key');
  return url.origin;
}

export function registerParity(program: Command): void {
  const parity = program
    .command('parity')
    .description('Measure the emulator against a target: replay a corpus of recorded flows and report drift (docs/parity.md)')
    .exitOverride(usageExit);
  registerParityProxy(parity);
  parity
    .command('run [dir]')
    .description('Replay a corpus (default: the shipped one) against --target, or against an emulator started here')
    .option('--target <url>', 'the service to replay against, e.g. your sandbox\'s base URL (default: an emulator in this process)')
    .addOption(new Option('--key <key>', 'the test key of the owner role, or role=key for another role (repeatable)').argParser((v: string, prev: string[]) => [...prev, v]).default([]))
    .addOption(new Option('--format <format>', 'what to print: summary, json, junit (JUnit XML) or ctrf (CTRF JSON)').choices(['summary', 'json', 'junit', 'ctrf']).default('summary'))
    .option('--seed <seed>', 'without --target: the seed of the emulator started here')
    .option('--step-timeout <ms>', `how long a step may wait for its answer (default ${REPLAY_DEFAULTS.stepTimeoutMs})`)
    .addHelpText('after', [
      '',
      'Exit status: 0 when nothing drifted, 1 when something did, 2 on a usage mistake.',
      '',
      'Examples:',
      '  onboarding-emulator parity run',
      '  onboarding-emulator parity run ./corpus --target https://sandbox.example.com --key "$SANDBOX_KEY" --format junit > parity.xml',
    ].join('\n'))
    .exitOverride(usageExit)
    .action(action(async (dir: string | undefined, o: RunOptions) => {
      const stepTimeoutMs = o.stepTimeout === undefined ? undefined : /^\d{1,7}$/.test(o.stepTimeout) && Number(o.stepTimeout) >= 100 ? Number(o.stepTimeout) : NaN;
      if (Number.isNaN(stepTimeoutMs)) throw new UsageError('--step-timeout must be a number of milliseconds, 100 or more');
      let flows;
      try {
        flows = readCorpus(dir ?? SHIPPED_CORPUS);
      } catch (err) {
        if (err instanceof CorpusError) throw new UsageError(err.message);
        throw err;
      }
      const keys = keysOf(o.key);
      let target: ParityTarget;
      let close = async () => {};
      if (o.target !== undefined) {
        if (o.seed !== undefined) throw new UsageError('--seed is for the emulator started here; it means nothing with --target');
        if (keys.owner === undefined) throw new UsageError('--target needs --key: the owner\'s test key');
        target = { url: targetUrl(o.target), keys };
      } else {
        const em = createEmulator(o.seed === undefined ? {} : { seed: o.seed });
        const { url } = await em.start(0, '127.0.0.1');
        close = () => em.close();
        target = { url, keys: { ...WELL_KNOWN_KEYS, ...keys } };
      }
      try {
        const report = await runParity(flows, target, operationsOf(buildOpenApi()), stepTimeoutMs === undefined ? {} : { stepTimeoutMs });
        printReportAs(o.format === 'summary' ? 'table' : o.format, {
          json: () => report,
          junit: () => parityJunit(report),
          ctrf: () => parityCtrf(report),
          table: () => process.stdout.write(paritySummary(report)),
        });
        if (!report.ok) process.exitCode = 1;
      } finally {
        await close();
      }
    }));
}
