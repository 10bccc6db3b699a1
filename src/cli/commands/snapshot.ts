import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { WorkspaceSnapshot } from '../../persistence/snapshot.js';
import { withChangeLog } from '../../persistence/state-file.js';
import { action, clientCommand, commandGroup, optionsOf, printFields, printJson } from '../client.js';
import { httpControl, UsageError } from '../../client/http.js';

const count = (s: WorkspaceSnapshot, collection: 'onboardings' | 'events') => s.store[collection].length;

/**
 * Written beside the target and renamed over it, so an interrupted save never leaves half a
 * file; readable by its owner only, as it holds the workspace's keys and secrets.
 */
function writeAtomically(file: string, text: string): void {
  const target = resolve(file);
  const temp = join(dirname(target), `.${basename(target)}.tmp`);
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, target);
  } catch (err) {
    throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

function readSnapshotFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  // A state file: with what its change log (FILE.log) holds, as a start on it would restore.
  try {
    return withChangeLog(document, file);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function registerSnapshot(program: Command): void {
  const snapshot = commandGroup(program, 'snapshot', 'Save a workspace to a file, or replace a workspace with a saved one (GET/PUT /_emulator/snapshot)');

  clientCommand(snapshot, 'save', 'Save the whole workspace (data, clock, timers, random position, outbox, faults, scenario) as one JSON document')
    .argument('[file]', 'where to write it; without a file the snapshot goes to stdout')
    .option('--workspace <id>', 'the workspace to save (default: the one --key belongs to, else default)')
    .addHelpText('after', '\nExamples:\n  onboarding-emulator snapshot save before.json\n  onboarding-emulator snapshot save > before.json')
    .action(action(async (file: string | undefined, opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      const taken = await httpControl(o, opts.workspace).snapshot();
      const text = `${JSON.stringify(taken, null, 2)}\n`;
      if (file === undefined) return void process.stdout.write(text);
      writeAtomically(file, text);
      const summary = { file, bytes: Buffer.byteLength(text), workspace: taken.workspace.id, clock: taken.clock, onboardings: count(taken, 'onboardings'), events: count(taken, 'events'), pending_timers: taken.timers.timers.length };
      if (o.json) return printJson(summary);
      printFields([
        ['saved', file],
        ['workspace', summary.workspace],
        ['clock', `${taken.clock.now} (${taken.clock.mode})`],
        ['onboardings', summary.onboardings],
        ['events', summary.events],
        ['pending timers', summary.pending_timers],
        ['bytes', summary.bytes],
      ]);
    }));

  clientCommand(snapshot, 'load', "Replace the workspace's whole state with a saved snapshot; a refused snapshot changes nothing")
    .argument('<file>', 'a file written by `snapshot save` (or the body of GET /_emulator/snapshot), or a state file (with its change log FILE.log)')
    .option('--workspace <id>', 'the workspace to replace (default: the one --key belongs to, else default)')
    .addHelpText('after', "\nThe snapshot's keys must not belong to another workspace (409 snapshot_key_conflict).")
    .action(action(async (file: string, opts: { workspace?: string }, cmd: Command) => {
      const o = optionsOf(cmd);
      // Sent unchecked: the server checks it as it checks any PUT, and its refusal
      // (snapshot_invalid with every mistake) is what the command prints.
      const document = readSnapshotFile(file) as WorkspaceSnapshot;
      const restored = await httpControl(o, opts.workspace).restore(document);
      if (o.json) return printJson(restored);
      printFields([
        ['restored', restored.id],
        ['from', file],
        ['clock', `${restored.clock.now} (${restored.clock.mode})`],
        ['keys', restored.counts.keys],
        ['onboardings', restored.counts.onboardings],
        ['employees', restored.counts.employees],
      ]);
    }));
}
