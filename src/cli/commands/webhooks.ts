import type { Command } from 'commander';
import { action, clientCommand, commandGroup, optionsOf, WORKSPACE_OPTION, printFields, printJson, printTable } from '../client.js';
import { httpControl, UsageError } from '../../client/http.js';

type Opts = { workspace?: string; limit?: string };

interface DeliveryLine {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}
const deliveryRow = (d: DeliveryLine) => [d.id, d.event_type, d.status, d.attempts, d.last_status_code ?? d.last_error, d.next_attempt_at];
const DELIVERY_HEADERS = ['delivery', 'event', 'status', 'attempts', 'last answer', 'next attempt'];

/** The workspace's webhook addresses and their deliveries, as the inspector shows them (/_emulator/webhooks). */
export function registerWebhooks(program: Command): void {
  const webhooks = commandGroup(program, 'webhooks', "The workspace's webhook addresses, their deliveries and attempts; retry a delivery, enable a disabled address (/_emulator/webhooks)");

  clientCommand(webhooks, 'list', 'Every webhook address with its status and delivery counts (GET /_emulator/webhooks)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const list = await httpControl(o, opts.workspace).webhooks.list();
      if (o.json) return printJson({ data: list });
      if (list.length === 0) return void process.stdout.write('no webhook addresses\n');
      printTable(['id', 'status', 'url', 'events', 'deliveries', 'dead in a row'], list.map((w) => [w.id, w.status, w.url, w.events.join(','), w.deliveries_total, w.dead_in_a_row]));
    }));

  clientCommand(webhooks, 'deliveries', "One address's deliveries, newest first, with their attempts (GET /_emulator/webhooks/{id}/deliveries)")
    .argument('<id>', 'the webhook address (wh_...)')
    .option('--limit <n>', 'how many (1 to 100; default 25)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (id: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      if (opts.limit !== undefined && !/^\d+$/.test(opts.limit)) throw new UsageError(`--limit must be a whole number: ${opts.limit}`);
      const page = await httpControl(o, opts.workspace).webhooks.deliveries(id, opts.limit === undefined ? undefined : Number(opts.limit));
      if (o.json) return printJson(page);
      if (page.data.length === 0) return void process.stdout.write('no deliveries\n');
      printTable(DELIVERY_HEADERS, page.data.map(deliveryRow));
    }));

  clientCommand(webhooks, 'har', "Every webhook attempt of the workspace, oldest first, as an HTTP Archive (HAR 1.2) on stdout: the signed POST and its answer (GET /_emulator/deliveries?format=har)")
    .option('--endpoint <id>', 'only the attempts to this address (we_...)')
    .option('--event-type <type>', 'only the attempts of this event type')
    .option('--since <iso>', 'only the attempts at or after this instant of the workspace clock')
    .option('--limit <n>', 'only the latest n attempts')
    .option(...WORKSPACE_OPTION)
    .addHelpText('after', '\nExample:\n  onboarding-emulator webhooks har > deliveries.har')
    .action(action(async (opts: Opts & { endpoint?: string; eventType?: string; since?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      if (opts.limit !== undefined && !/^\d+$/.test(opts.limit)) throw new UsageError(`--limit must be a whole number: ${opts.limit}`);
      printJson(await httpControl(o, opts.workspace).deliveries.har({
        ...(opts.endpoint ? { endpoint_id: opts.endpoint } : {}),
        ...(opts.eventType ? { event_type: opts.eventType } : {}),
        ...(opts.since ? { since: opts.since } : {}),
        ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
      }));
    }));

  clientCommand(webhooks, 'retry', 'Resend a delivery now with the same event id and bytes; answers after the attempt (POST /_emulator/deliveries/{id}/retry)')
    .argument('<delivery>', 'the delivery (whd_...)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (id: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const d = await httpControl(o, opts.workspace).deliveries.retry(id);
      if (o.json) return printJson(d);
      printTable(DELIVERY_HEADERS, [deliveryRow(d)]);
    }));

  clientCommand(webhooks, 'enable', 'Enable a disabled webhook address again, as the dashboard does (POST /_emulator/webhooks/{id}/enable)')
    .argument('<id>', 'the webhook address (wh_...)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (id: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const w = await httpControl(o, opts.workspace).webhooks.enable(id);
      if (o.json) return printJson(w);
      printFields([['id', w.id], ['status', w.status]]);
    }));
}
