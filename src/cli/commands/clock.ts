import type { Command } from 'commander';
import type { ClockMove, ClockState } from '../../control/control.client.js';
import { action, clientCommand, commandGroup, optionsOf, printFields, printJson, printTable } from '../client.js';
import { httpControl, UsageError } from '../../client/http.js';

/** A pending or fired timer as the clock's answers describe it. */
type TimerInfo = NonNullable<ClockState['next_timer']>;

/** What a timer is about and, once fired, what it did: its payload and facts as name=value. */
function detailsOf(t: TimerInfo): string {
  return Object.entries(t)
    .filter(([name, value]) => name !== 'kind' && name !== 'due_at' && value !== null && value !== undefined)
    .map(([name, value]) => `${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ');
}

function printClock(clock: ClockState | ClockMove): void {
  const next = clock.next_timer;
  printFields([
    ['now', clock.now],
    ['mode', clock.mode],
    ['pending timers', clock.pending_timers],
    ['next due at', clock.next_due_at],
    ['next timer', next ? [next.kind, detailsOf(next)].filter(Boolean).join(' ') : null],
  ]);
  if ('fired' in clock && clock.fired.length > 0) {
    process.stdout.write(`\nfired ${clock.fired.length}:\n`);
    printTable(['due at', 'kind', 'details'], clock.fired.map((f) => [f.due_at, f.kind, detailsOf(f)]));
  }
}

/** A number of seconds goes as a number; anything else ("90m", "1h30m", "PT1H") as the server's duration string. */
function durationValue(input: string): number | string {
  const trimmed = input.trim();
  if (trimmed === '') throw new UsageError('the duration is empty');
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

export function registerClock(program: Command): void {
  const clock = commandGroup(program, 'clock', "Show, advance or set the workspace clock (GET/POST /_emulator/clock)");

  clientCommand(clock, 'show', 'Show the emulated time, the clock mode, the pending timers and when the next one is due')
    .action(action(async (_opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const state = await httpControl(o).clock.state();
      if (o.json) printJson(state);
      else printClock(state);
    }));

  clientCommand(clock, 'advance', 'Advance the clock, firing every timer that falls due at its own instant (webhook retries, reminders, expiries)')
    .argument('<duration>', 'seconds ("3600"), a duration ("90m", "1h30m", "2d") or ISO 8601 ("PT1H"); 0 runs what is due now')
    .addHelpText('after', '\nExamples:\n  onboarding-emulator clock advance 90m\n  onboarding-emulator clock advance PT24H --json')
    .action(action(async (duration: string, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const state = await httpControl(o).clock.advance(durationValue(duration));
      if (o.json) printJson(state);
      else printClock(state);
    }));

  clientCommand(clock, 'set', 'Jump the clock to an instant, firing what falls due on the way; the clock never goes backwards (409 clock_backwards)')
    .argument('<time>', 'an ISO 8601 instant, e.g. 2026-10-06T09:00:00Z')
    .action(action(async (time: string, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const state = await httpControl(o).clock.set(time);
      if (o.json) printJson(state);
      else printClock(state);
    }));
}
