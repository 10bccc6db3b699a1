import type { Command } from 'commander';
import { action, clientCommand, optionsOf, printJson, printTable, request } from '../client.js';

interface Mail {
  id: string;
  to: string;
  kind: string;
  subject: string;
  code: string | null;
  onboarding_id: string;
  sent_at: string;
}

export function registerOutbox(program: Command): void {
  clientCommand(program, 'outbox', 'List the intercepted e-mails (invitations, new links, reminders, contracts), oldest first (GET /_emulator/outbox)')
    .option('--onboarding <id>', 'only the mails of this onboarding')
    .option('--to <address>', 'only the mails to this address')
    .action(action(async (opts: { onboarding?: string; to?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const query = new URLSearchParams();
      if (opts.onboarding) query.set('onboarding_id', opts.onboarding);
      if (opts.to) query.set('to', opts.to);
      const qs = query.size > 0 ? `?${query}` : '';
      const outbox = await request<{ data: Mail[] }>(o, 'GET', `/_emulator/outbox${qs}`);
      if (o.json) return printJson(outbox);
      if (outbox.data.length === 0) return void process.stdout.write('no mails\n');
      printTable(['sent at', 'kind', 'onboarding', 'to', 'code', 'subject'], outbox.data.map((m) => [m.sent_at, m.kind, m.onboarding_id, m.to, m.code, m.subject]));
    }));
}
