import { Argument, type Command } from 'commander';
import { WAIT_FIELDS, WAIT_KINDS, WaitQuery } from '../../control/wait.schemas.js';
import { action, clientCommand, optionsOf, WORKSPACE_OPTION, printJson, printTable } from '../client.js';
import { httpControl } from '../../client/http.js';
import { bodyFrom, bodyOptions } from '../schema-options.js';

type Opts = Record<string, unknown> & { workspace?: string };

/** One line per match, whatever the kind: its id, what it is and where it stands. */
function lineOf(item: Record<string, unknown>): (string | number | null)[] {
  const id = String(item.id ?? '');
  if ('event_type' in item) return [id, String(item.event_type), String(item.status)];
  if ('method' in item) return [id, `${String(item.method)} ${String(item.path)}`, Number(item.status)];
  if ('waiting_on' in item) return [id, 'onboarding', String(item.status)];
  return [id, String(item.type), String(item.created_at)];
}

/**
 * `wait`: GET /_emulator/wait from a shell or a CI step, so a script goes on when what it waits
 * for happened instead of after a guessed sleep. Exit 0 met, 1 not met (timed out, or a final
 * status that will never become the one asked), 2 usage or no emulator.
 */
export function registerWait(program: Command): void {
  const kinds = WAIT_KINDS.map((k) => `  ${k}: ${WAIT_FIELDS[k].length ? WAIT_FIELDS[k].map((f) => `--${f.replaceAll('_', '-')}`).join(' ') : '(no other flag)'}`).join('\n');
  bodyOptions(clientCommand(program, 'wait', 'Wait until an event, a delivery, a request or a status shows up, or nothing is left to run (GET /_emulator/wait)'), WaitQuery, ['for'])
    .addArgument(new Argument('<for>', 'what to wait for').choices(WAIT_KINDS))
    .option(...WORKSPACE_OPTION)
    .addHelpText(
      'after',
      `\nThe flags each kind reads (--with-key is the request's key):\n${kinds.replaceAll('--key', '--with-key')}\n\n` +
        'Exit codes: 0 met, 1 not met within --timeout-ms (the nearest candidates on stderr), 2 usage or no emulator.\n\nExamples:\n' +
        '  onboarding-emulator wait status --onboarding-id onb_demo_jansen --status completed --timeout-ms 10000\n' +
        '  onboarding-emulator wait delivery --event-type onboarding.completed --status succeeded\n' +
        '  onboarding-emulator wait settled',
    )
    .action(action(async (kind: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const query = bodyFrom(WaitQuery, opts, { for: kind });
      const met = await httpControl(o, opts.workspace).waitFor(query);
      if (o.json) return printJson(met);
      process.stdout.write(`met after ${met.waited_ms} ms (workspace clock ${met.clock}): ${met.count} match${met.count === 1 ? '' : 'es'}\n`);
      if (met.data.length) printTable(['id', 'what', 'status'], met.data.map((item) => lineOf(item as Record<string, unknown>)));
    }));
}
