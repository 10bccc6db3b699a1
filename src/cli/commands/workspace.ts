import type { Command } from 'commander';
import { action, clientCommand, commandGroup, optionsOf, printFields, printJson, printTable } from '../client.js';
import { httpControl, UsageError } from '../../client/http.js';
import { scenarioFromFiles } from './scenario.js';

export function registerWorkspace(program: Command): void {
  const workspace = commandGroup(program, 'workspace', 'Isolated workspaces, each with its own data, keys and clock');

  clientCommand(workspace, 'create', 'Create a workspace from the fixtures the emulator started with (POST /_emulator/workspaces); prints its id and keys')
    .option('--seed <seed>', 'makes the ids, codes and tokens of the workspace reproducible')
    .option('--frozen', 'a frozen clock that stands still until advanced (default: realtime)')
    .option('--start <iso>', 'emulated time the workspace clock starts at')
    .option('--scenario <file>', 'scenario file (JSON or YAML) or ready scenario name (happy-path) the workspace plays, checked here first; repeat for several (rules in order)', (file: string, files: string[] = []) => [...files, file])
    .option('--no-scenario', 'no scenario at all (default: the scenario the emulator started with)')
    .addHelpText('after', '\nThe keys of a new workspace are new too; pass one as --key (or EMULATOR_KEY) to reach that workspace.')
    .action(action(async (opts: { seed?: string; frozen?: boolean; start?: string; scenario?: string[] | false }, cmd: Command) => {
      const o = optionsOf(cmd);
      if (opts.start !== undefined && !Number.isFinite(Date.parse(opts.start))) throw new UsageError(`not a valid ISO 8601 instant: ${opts.start}`);
      const scenario = Array.isArray(opts.scenario) ? scenarioFromFiles(opts.scenario, 'no workspace was made') : opts.scenario === false ? null : undefined;
      if (scenario === null && opts.scenario !== false) return; // mistakes printed, exit 1
      const clock: { mode?: 'frozen'; start?: string } = { ...(opts.frozen ? { mode: 'frozen' as const } : {}), ...(opts.start ? { start: opts.start } : {}) };
      const body = {
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        ...(Object.keys(clock).length > 0 ? { clock } : {}),
        ...(scenario !== undefined ? { scenario } : {}),
      };
      const created = await httpControl(o).workspace.create(body);
      if (o.json) return printJson(created);
      process.stdout.write(`workspace ${created.id} (clock ${created.clock.mode}, now ${created.clock.now})\n\n`);
      printTable(['key', 'environment', 'organization', 'scopes', 'name'], created.keys.map((k) => [k.key, k.environment, k.organization_id, k.scopes.length, k.name]));
    }));

  clientCommand(workspace, 'list', 'Every workspace, with its clock and counts (GET /_emulator/workspaces)')
    .action(action(async (_opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const list = await httpControl(o).workspace.list();
      if (o.json) return printJson({ data: list });
      printTable(['id', 'now', 'clock', 'onboardings', 'keys', 'created at'], list.map((w) => [w.id, w.clock.now, w.clock.mode, w.counts.onboardings, w.counts.keys, w.created_at]));
    }));

  clientCommand(workspace, 'show', 'One workspace (GET /_emulator/workspaces/{id})')
    .argument('<id>', 'the workspace')
    .action(action(async (id: string, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const w = await httpControl(o).workspace.describe(id);
      if (o.json) return printJson(w);
      printFields([['id', w.id], ['now', w.clock.now], ['clock', w.clock.mode], ['onboardings', w.counts.onboardings], ['employees', w.counts.employees], ['keys', w.counts.keys], ['created at', w.created_at]]);
    }));

  clientCommand(workspace, 'delete', 'Drop a workspace and its keys (DELETE /_emulator/workspaces/{id}); the default one stays')
    .argument('<id>', 'the workspace')
    .action(action(async (id: string, _opts: unknown, cmd: Command) => {
      const o = optionsOf(cmd);
      const deleted = await httpControl(o).workspace.delete(id);
      if (o.json) return printJson(deleted);
      process.stdout.write(`deleted ${deleted.id}\n`);
    }));

  clientCommand(workspace, 'reset', 'Back to the fixtures, clock and random sequence the workspace started with (POST /_emulator/reset)')
    .option('--workspace <id>', 'the workspace to reset (default: the one --key belongs to, else default)')
    .action(action(async (opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const w = await httpControl(o, opts.workspace).workspace.reset();
      if (o.json) return printJson(w);
      process.stdout.write(`workspace ${w.id} reset: clock ${w.clock.mode}, now ${w.clock.now}, ${w.counts.onboardings} onboardings\n`);
    }));
}
