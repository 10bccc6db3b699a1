import type { Command } from 'commander';
import { action, clientCommand, optionsOf, printJson, printTable } from '../client.js';
import { httpControl } from '../../client/http.js';

export function registerOutbox(program: Command): void {
  clientCommand(program, 'outbox', 'List the intercepted e-mails (invitations, new links, reminders, contracts), oldest first (GET /_emulator/outbox)')
    .option('--onboarding <id>', 'only the mails of this onboarding')
    .option('--to <address>', 'only the mails to this address')
    .action(action(async (opts: { onboarding?: string; to?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      // An empty option filters nothing, as before the interface: only a given value is sent.
      const mails = await httpControl(o).outbox({
        ...(opts.onboarding ? { onboarding_id: opts.onboarding } : {}),
        ...(opts.to ? { to: opts.to } : {}),
      });
      // --json prints the route's answer as it came, its list in `data`.
      if (o.json) return printJson({ data: mails });
      if (mails.length === 0) return void process.stdout.write('no mails\n');
      printTable(['sent at', 'kind', 'onboarding', 'to', 'code', 'subject'], mails.map((m) => [m.sent_at, m.kind, m.onboarding_id, m.to, m.code, m.subject]));
    }));
}
