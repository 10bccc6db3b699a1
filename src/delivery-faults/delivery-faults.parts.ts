import { Type, type TSchema } from '../core/schema.js';
import type { WorkspacePart } from '../core/workspace.js';
import { DeliveryFaultList, type DeliveryFault } from './delivery-faults.js';
import { DeliveryFaultSchema } from './delivery-faults.schemas.js';

/** The delivery faults still to play; absent in snapshots taken before they existed. */
export const DELIVERY_FAULTS_PART: WorkspacePart<'deliveryFaults'> = {
  name: 'delivery_faults',
  create: () => new DeliveryFaultList(),
  save: (faults, ws) => faults.list(ws.clock.nowMs()),
  load: (saved: DeliveryFault[] | undefined) => DeliveryFaultList.restore(saved ?? []),
  schema: Type.Optional(Type.Array(DeliveryFaultSchema)) as unknown as TSchema<DeliveryFault[]>,
};
