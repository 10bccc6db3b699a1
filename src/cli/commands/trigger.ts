import type { Command } from 'commander';
import type { ControlClient } from '../../control/control.client.js';
import { action, clientCommand, optionsOf, printJson, WORKSPACE_OPTION } from '../client.js';
import { httpControl } from '../../client/http.js';

type Opts = { onboarding?: string; org?: string; workspace?: string };
/** The server checks the type, so an unknown one is its 422 naming the accepted types (exit 1). */
type EventTypeArg = Parameters<ControlClient['trigger']>[0];

/**
 * `trigger <event-type>`: POST /_emulator/trigger, one event of the type made to happen through
 * the life cycle and delivered to the webhook addresses like any other.
 */
export function registerTrigger(program: Command): void {
  clientCommand(program, 'trigger', 'Make one webhook event of a type happen through the life cycle, delivered and signed like any other (POST /_emulator/trigger)')
    .argument('<event-type>', 'an event type of GET /v1/events (older names too), or ping')
    .option('--onboarding <id>', 'play this onboarding forward instead of creating one (409 when the type cannot happen from its status)')
    .option('--org <id>', 'the employer the onboarding is created for; for ping, whose webhook addresses get it')
    .option(...WORKSPACE_OPTION)
    .addHelpText(
      'after',
      '\nExamples:\n  onboarding-emulator trigger onboarding.completed\n  onboarding-emulator trigger onboarding.returned --onboarding onb_demo_jansen\n' +
        '  onboarding-emulator trigger ping --json\n\nExit codes: 0 the event was made, 1 the emulator refused (unknown type, status, no address), 2 usage or no emulator.',
    )
    .action(action(async (type: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const made = await httpControl(o, opts.workspace).trigger(type as EventTypeArg, opts.onboarding, opts.org);
      if (o.json) return printJson(made);
      const onboarding = made.onboarding_id === null ? 'no onboarding' : `onboarding ${made.onboarding_id}${made.onboarding_created ? ' (new)' : ''}`;
      process.stdout.write(`${made.event_type} ${made.event_id}  ${onboarding}  ${made.deliveries} deliver${made.deliveries === 1 ? 'y' : 'ies'}\n`);
    }));
}
