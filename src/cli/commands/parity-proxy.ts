import { Option, type Command } from 'commander';
import { WELL_KNOWN_KEYS } from '../../fixtures/well-known-keys.js';
import { buildOpenApi } from '../../http/openapi.js';
import { PROXY_LIMITS, ProxyConfigError, startParityProxy } from '../../parity/proxy.js';
import { usageExit } from '../client.js';

interface ProxyOptions {
  target: string;
  record?: string;
  port: string;
  host: string;
  flowGap?: string;
  upstreamTimeout?: string;
  role: string[];
}

/** `--role name=KEY`: the name a key's requests are recorded under; the default fixtures' keys are named as the README names them. */
function rolesOf(given: string[]): Record<string, string> {
  const roles: Record<string, string> = { ...WELL_KNOWN_KEYS };
  for (const r of given) {
    const m = /^([a-z][a-z0-9_-]{0,39})=(hrs_test_\S+)$/.exec(r);
    if (!m) bad(`--role must be name=hrs_test_..., got ${JSON.stringify(r.replace(/=.*/, '=...'))}`);
    roles[m![1]!] = m![2]!;
  }
  return roles;
}

const bad = (message: string): never => {
  process.stderr.write(`onboarding-emulator: ${message}\n`);
  process.exit(2);
};

/** A flag's digits as a number within its range, or a usage mistake. */
function number(flag: string, raw: string, min: number, max: number): number {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= min && n <= max)) bad(`${flag} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * `parity proxy`: record real traffic as a parity corpus, checking every answer against the
 * OpenAPI document on the way. Runs until Ctrl-C or SIGTERM, which write the open flows (exit 0);
 * a wrong command line exits 2, a port in use 1.
 */
export function registerParityProxy(parity: Command): void {
  parity
    .command('proxy')
    .description('Forward traffic to a target, check each answer against the OpenAPI document, and record it as flows of a parity corpus')
    .requiredOption('--target <url>', 'the base URL forwarded to, e.g. https://sandbox.example.com')
    .option('--record <dir>', 'write each flow to <dir>/<name>.flow.json (made if missing)')
    .option('--port <port>', 'the port to listen on', String(PROXY_LIMITS.port))
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .option('--flow-gap <ms>', `a flow without a Parity-Flow header ends after this long without traffic (default ${PROXY_LIMITS.flowGapMs})`)
    .option('--upstream-timeout <ms>', `how long the target may take to answer (default ${PROXY_LIMITS.upstreamTimeoutMs})`)
    .addOption(new Option('--role <name=key>', 'record this test key\'s requests under this role, as `parity run --key name=key` will take it (repeatable; the default fixtures\' keys have their README names; others are key2, key3, ...)').argParser((v: string, prev: string[]) => [...prev, v]).default([]))
    .addHelpText('after', [
      '',
      'Name a flow with the request header Parity-Flow: <name> (not forwarded); without it, a flow',
      'ends after --flow-gap ms without traffic and is named flow-001, flow-002, ...',
      'Each answer that does not fit the document carries a Parity-Violations header (JSON).',
      '',
      'Example:',
      '  onboarding-emulator parity proxy --target https://sandbox.example.com --record corpus/',
    ].join('\n'))
    .exitOverride(usageExit)
    .action(async (o: ProxyOptions) => {
      const port = number('--port', o.port, 0, 65535);
      const flowGapMs = o.flowGap === undefined ? undefined : number('--flow-gap', o.flowGap, 1, 3_600_000);
      const upstreamTimeoutMs = o.upstreamTimeout === undefined ? undefined : number('--upstream-timeout', o.upstreamTimeout, 1, 600_000);
      let proxy;
      try {
        proxy = await startParityProxy({
          target: o.target, port, host: o.host, document: buildOpenApi(o.target), roles: rolesOf(o.role),
          ...(o.record ? { record: o.record } : {}),
          ...(flowGapMs !== undefined ? { flowGapMs } : {}),
          ...(upstreamTimeoutMs !== undefined ? { upstreamTimeoutMs } : {}),
          log: (line) => process.stderr.write(`${line}\n`),
        });
      } catch (err) {
        if (err instanceof ProxyConfigError) bad(err.message);
        const e = err as NodeJS.ErrnoException;
        process.stderr.write(`onboarding-emulator: cannot listen on ${o.host}:${port}: ${e.code ?? e.message}\n`);
        process.exit(1);
      }
      const running = proxy;
      const stop = () => void running.close().then(({ flows, violations }) => {
        process.stderr.write(`parity proxy stopped: ${flows.length} flows written, ${violations} violations\n`);
        process.exit(0);
      });
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      process.stderr.write(`parity proxy listening on ${running.url}, forwarding to ${new URL(o.target).origin}${o.record ? `, recording to ${o.record}` : ''}; Ctrl-C stops\n`);
    });
}
