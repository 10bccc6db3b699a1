import { MAX_FAULTS } from './control.service.js';
import { fail } from '../core/errors.js';
import type { Workspace } from '../core/workspace.js';
import type { DeliveryFault, DeliveryFaultInput } from '../delivery-faults/delivery-faults.js';

/**
 * Delivery faults (src/delivery-faults/delivery-faults.ts) of one workspace: over HTTP
 * (/_emulator/delivery-faults) and in process, the same functions.
 */
export function addDeliveryFault(ws: Workspace, input: DeliveryFaultInput): DeliveryFault {
  if (input.endpoint_id !== undefined && !ws.store.webhooks.get(input.endpoint_id)) {
    throw fail('resource_not_found', `endpoint_id: no webhook address ${input.endpoint_id} in this workspace.`, 'endpoint_id');
  }
  if (ws.deliveryFaults.list(ws.clock.nowMs()).length >= MAX_FAULTS) {
    throw fail('fault_limit_reached', `A workspace keeps at most ${MAX_FAULTS} delivery faults waiting: remove some (DELETE /_emulator/delivery-faults) first.`);
  }
  return ws.deliveryFaults.add(input, ws.ids, ws.clock.nowMs());
}

export function listDeliveryFaults(ws: Workspace): DeliveryFault[] {
  return ws.deliveryFaults.list(ws.clock.nowMs());
}

export function removeDeliveryFault(ws: Workspace, id: string) {
  ws.deliveryFaults.remove(id);
  return { id, deleted: true as const };
}

/** Removes every delivery fault, a scenario's too; says how many there were. */
export function clearDeliveryFaults(ws: Workspace) {
  return { deleted: ws.deliveryFaults.clear() };
}
