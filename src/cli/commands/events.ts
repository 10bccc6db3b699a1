import type { Command } from 'commander';
import type { Page } from '../../core/pagination.js';
import type { Static } from '../../core/schema.js';
import type { EventSchema } from '../../resources/events/events.schemas.js';
import { action, clientCommand, commandGroup, optionsOf } from '../client.js';
import { request, type ClientOptions } from '../../client/http.js';
import { parseInterval, pollUntilInterrupted, printNdjson, tableStream } from '../follow.js';

/**
 * /v1/events is the public API, not the control interface, so it stays a plain request; its
 * answer is typed by the route's own schema rather than a copy.
 */
type Event = Static<typeof EventSchema>;

interface TailOptions {
  interval: string;
  once?: boolean;
  type?: string;
  since?: string;
}

/** Every event after `after` (all of them when undefined), oldest first, following has_more. */
async function fetchAfter(o: ClientOptions, opts: TailOptions, after: string | undefined): Promise<Event[]> {
  const events: Event[] = [];
  let cursor = after;
  for (;;) {
    const q = new URLSearchParams({ limit: '100' });
    if (cursor !== undefined) q.set('starting_after', cursor);
    else if (opts.since) q.set('since', opts.since);
    if (opts.type) q.set('type', opts.type);
    const page = await request<Page<Event>>(o, 'GET', `/v1/events?${q}`);
    events.push(...page.data);
    if (!page.has_more || page.data.length === 0) return events;
    cursor = page.data[page.data.length - 1]!.id;
  }
}

const HEADERS = ['created at', 'id', 'type', 'onboarding', 'data version'];
/** Wide enough for the usual ids and type names, so the rows polled later line up with the first ones. */
const MIN_WIDTHS = [24, 24, 34, 24];

export function registerEvents(program: Command): void {
  const events = commandGroup(program, 'events', 'Read the event stream of GET /v1/events');

  clientCommand(events, 'tail', 'Print the events oldest first, then follow new ones until Ctrl-C (needs a key with onboardings:read)')
    .option('--interval <ms>', 'how often to poll for new events, in milliseconds', '1000')
    .option('--once', 'print the events that exist now and exit (for scripts and tests)')
    .option('--type <type>', 'only events of this type, e.g. onboarding.created')
    .option('--since <iso>', 'only events created at or after this instant')
    .addHelpText('after', [
      '',
      'With --json each event is printed as one JSON object per line (NDJSON), as the API returns it.',
      '',
      'Example:',
      '  onboarding-emulator events tail --key hrs_test_acme_owner --type onboarding.completed',
    ].join('\n'))
    .action(action(async (opts: TailOptions, cmd: Command) => {
      const o = optionsOf(cmd);
      const interval = parseInterval(opts.interval);
      const table = tableStream(HEADERS, MIN_WIDTHS);
      const print = (batch: Event[]) => {
        if (o.json) printNdjson(batch);
        else table(batch.map((e) => [e.created_at, e.id, e.type, e.data.onboarding_id, e.data.data_version]));
      };
      const batch = await fetchAfter(o, opts, undefined);
      let last = batch.at(-1)?.id;
      print(batch);
      if (opts.once) {
        if (!o.json && batch.length === 0) process.stdout.write('no events\n');
        return;
      }
      await pollUntilInterrupted(interval, async () => {
        const next = await fetchAfter(o, opts, last);
        if (next.length > 0) last = next.at(-1)!.id;
        print(next);
      });
    }));
}
