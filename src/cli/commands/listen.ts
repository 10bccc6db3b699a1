import { Option, type Command } from 'commander';
import { action, clientCommand, optionsOf } from '../client.js';
import { UsageError } from '../../client/http.js';
import { startRelay, type RelayedDelivery } from '../../client/relay.js';

interface ListenOptions {
  url: string;
  key?: string;
  json?: boolean;
  forwardTo?: string;
  workspace?: string;
  urlPrefix?: string;
  sessionAddress: boolean;
  organization?: string;
}

/**
 * `listen`: the relay for a receiver the emulator cannot reach (a test's server on the host
 * while the emulator runs in a container). Runs until Ctrl-C or SIGTERM (exit 0); an emulator
 * that cannot be reached at the start or goes away later ends it with exit 2, a refusal with 1.
 */
export function registerListen(program: Command): void {
  clientCommand(program, 'listen', 'Relay webhook messages from the emulator to a receiver it cannot reach (a server on this machine while the emulator runs in a container)')
    .addOption(new Option('--forward-to <url>', "post every message here; without it, each goes to its webhook address's own URL").env('EMULATOR_FORWARD_TO'))
    .addOption(new Option('--workspace <id>', 'relay for this workspace (default: the workspace of --key, else default)').env('EMULATOR_WORKSPACE'))
    .option('--url-prefix <prefix>', 'take only the webhook addresses whose URL starts with this')
    .option('--no-session-address', 'never register a webhook address for this session (by default one is, with --forward-to, when the workspace has none for the relay to take)')
    .option('--organization <id>', "the organization the session address belongs to (default: the workspace's first employer)")
    .addHelpText('after', [
      '',
      'Example (the emulator in a container, the receiver on this machine):',
      '  docker run --rm -p 127.0.0.1:4010:4010 onboarding-emulator',
      '  onboarding-emulator listen --url http://127.0.0.1:4010 --forward-to http://127.0.0.1:3000/webhooks',
      '',
      'With --forward-to and no webhook address to take, listen registers one for its session',
      '(every event), prints its signing secret on stderr ("Ready! Your webhook signing secret is',
      'whsec_..."), and removes it when it stops. Verify the messages with that secret.',
      '',
      'Every message is posted byte for byte with its signature headers, and the receiver\'s answer',
      '(or a timeout) is reported back: retries, auto-disable and the delivery log are those of a',
      'direct delivery. Exit codes: 0 stopped (Ctrl-C, SIGTERM), 1 the emulator refused the relay,',
      '2 the emulator cannot be reached or went away, or the command line is wrong.',
    ].join('\n'))
    .action(action(async (_opts: unknown, cmd: Command) => {
      const o = { ...optionsOf(cmd), ...cmd.opts<ListenOptions>() };
      const handle = await startRelay({
        url: o.url, key: o.key, workspace: o.workspace, forwardTo: o.forwardTo, urlPrefix: o.urlPrefix,
        sessionAddress: o.sessionAddress && { organizationId: o.organization },
        onDelivery: (d) => process.stdout.write(o.json ? `${JSON.stringify(d)}\n` : line(d)),
        // stderr, once each: stdout holds the deliveries alone, one record a line under --json.
        onNotice: (n) => process.stderr.write(`note: ${n.message}\n`),
      });
      const r = handle.relay;
      // Before the line that says it runs: a Ctrl-C sent on seeing it must find the handler.
      const stop = () => void handle.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      process.stderr.write(`relaying the webhooks of workspace ${r.workspace} (relay ${r.id}${r.url_prefix ? `, addresses starting ${r.url_prefix}` : ''}) to ${o.forwardTo ?? "each address's own URL"}; Ctrl-C stops\n`);
      // On stderr, as the line before it: under --json stdout stays one delivery per line.
      if (r.session_address) process.stderr.write(`Ready! Your webhook signing secret is ${r.session_address.secret} (session address ${r.session_address.id}; Ctrl-C to quit)\n`);
      const end = await handle.done;
      if (end.reason === 'lost') throw new UsageError(`lost the emulator at ${o.url}: ${end.message}`);
    }));
}

function line(d: RelayedDelivery): string {
  const outcome = d.status_code ?? d.error ?? 'failed';
  const note = d.recorded ? '' : '  (too late: the emulator had recorded a timeout)';
  return `${new Date().toISOString()}  ${String(outcome).padEnd(3)}  ${(d.event_type ?? '-').padEnd(34)}  ${d.event_id ?? '-'}  ${d.duration_ms} ms  ${d.url}${note}\n`;
}
