import { Argument, type Command } from 'commander';
import { CreateFaultBody } from '../../control/control.schemas.js';
import { FAULT_KINDS, type Fault } from '../../core/faults.js';
import { DELIVERY_FAULT_KINDS, type DeliveryFault } from '../../delivery-faults/delivery-faults.js';
import { CreateDeliveryFaultBody } from '../../delivery-faults/delivery-faults.schemas.js';
import { action, clientCommand, commandGroup, optionsOf, WORKSPACE_OPTION, printFields, printJson, printTable } from '../client.js';
import { httpControl } from '../../client/http.js';
import { bodyFrom, bodyOptions } from '../schema-options.js';

type Opts = Record<string, unknown> & { workspace?: string };

const faultRow = (f: Fault) => [f.id, f.kind, f.method, f.path, f.remaining, f.count];
const deliveryFaultRow = (f: DeliveryFault) => [f.id, f.kind, f.endpoint_id ?? f.url, f.remaining ?? 'until', f.until, f.applied];

/** Faults on /v1 requests (/_emulator/faults) and on webhook messages (/_emulator/delivery-faults). */
export function registerFaults(program: Command): void {
  const faults = commandGroup(program, 'faults', 'Make the next /v1 requests fail on purpose: latency, 429, 500, a lost connection, a slow answer, payroll down (/_emulator/faults)');

  bodyOptions(clientCommand(faults, 'add', 'Add a fault; it plays on the next matching /v1 requests (POST /_emulator/faults)'), CreateFaultBody, ['kind'])
    .addArgument(new Argument('<kind>', 'what the requests get').choices(FAULT_KINDS))
    .option(...WORKSPACE_OPTION)
    .addHelpText('after', '\nExamples:\n  onboarding-emulator faults add error --path /v1/onboardings --count 2\n  onboarding-emulator faults add latency --latency-ms 1500 --method POST')
    .action(action(async (kind: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const fault = await httpControl(o, opts.workspace).faults.add(bodyFrom(CreateFaultBody, opts, { kind }));
      if (o.json) return printJson(fault);
      printFields([['id', fault.id], ['kind', fault.kind], ['method', fault.method], ['path', fault.path], ['remaining', fault.remaining]]);
    }));

  clientCommand(faults, 'list', 'The faults still to play, in the order they are matched (GET /_emulator/faults)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const list = await httpControl(o, opts.workspace).faults.list();
      if (o.json) return printJson({ data: list });
      if (list.length === 0) return void process.stdout.write('no faults\n');
      printTable(['id', 'kind', 'method', 'path', 'remaining', 'count'], list.map(faultRow));
    }));

  clientCommand(faults, 'show', 'One fault, with the times it has left (GET /_emulator/faults/{id})')
    .argument('<id>', 'the fault (flt_...)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (id: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const fault = await httpControl(o, opts.workspace).faults.get(id);
      if (o.json) return printJson(fault);
      printFields(Object.entries(fault).map(([k, v]) => [k, v as string | number | null]));
    }));

  removeAndClear(faults, 'fault', '/_emulator/faults', (o, ws) => httpControl(o, ws).faults);

  const delivery = commandGroup(program, 'delivery-faults', 'Make webhook messages misbehave: duplicated, reordered, delayed, unacknowledged, badly signed, stale (/_emulator/delivery-faults)');

  bodyOptions(clientCommand(delivery, 'add', 'Add a delivery fault (POST /_emulator/delivery-faults)'), CreateDeliveryFaultBody, ['kind'])
    .addArgument(new Argument('<kind>', 'what happens to the messages').choices(DELIVERY_FAULT_KINDS))
    .option(...WORKSPACE_OPTION)
    .addHelpText('after', '\nExamples:\n  onboarding-emulator delivery-faults add duplicate --count 3\n  onboarding-emulator delivery-faults add delay --delay-ms 60000')
    .action(action(async (kind: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const fault = await httpControl(o, opts.workspace).deliveryFaults.add(bodyFrom(CreateDeliveryFaultBody, opts, { kind }));
      if (o.json) return printJson(fault);
      printFields([['id', fault.id], ['kind', fault.kind], ['endpoint', fault.endpoint_id ?? fault.url], ['remaining', fault.remaining ?? 'until'], ['until', fault.until]]);
    }));

  clientCommand(delivery, 'list', 'The delivery faults still to play, in the order they are matched (GET /_emulator/delivery-faults)')
    .option(...WORKSPACE_OPTION)
    .action(action(async (opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const list = await httpControl(o, opts.workspace).deliveryFaults.list();
      if (o.json) return printJson({ data: list });
      if (list.length === 0) return void process.stdout.write('no delivery faults\n');
      printTable(['id', 'kind', 'endpoint', 'remaining', 'until', 'applied'], list.map(deliveryFaultRow));
    }));

  removeAndClear(delivery, 'delivery fault', '/_emulator/delivery-faults', (o, ws) => httpControl(o, ws).deliveryFaults);
}

interface RemovableList {
  remove(id: string): Promise<{ id: string; deleted: true }>;
  clear(): Promise<{ deleted: number }>;
}

/** `remove <id>` and `clear`, the same for both kinds of fault. */
function removeAndClear(group: Command, noun: string, path: string, list: (o: ReturnType<typeof optionsOf>, workspace: string | undefined) => RemovableList): void {
  clientCommand(group, 'remove', `Remove one ${noun} (DELETE ${path}/{id})`)
    .argument('<id>', `the ${noun}`)
    .option(...WORKSPACE_OPTION)
    .action(action(async (id: string, opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const removed = await list(o, opts.workspace).remove(id);
      if (o.json) return printJson(removed);
      process.stdout.write(`removed ${removed.id}\n`);
    }));

  clientCommand(group, 'clear', `Remove every ${noun} (DELETE ${path})`)
    .option(...WORKSPACE_OPTION)
    .action(action(async (opts: Opts, cmd: Command) => {
      const o = optionsOf(cmd);
      const cleared = await list(o, opts.workspace).clear();
      if (o.json) return printJson(cleared);
      process.stdout.write(`removed ${cleared.deleted}\n`);
    }));
}
