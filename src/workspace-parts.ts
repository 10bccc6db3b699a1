import type { WorkspacePartTable } from './core/workspace.js';
import { DELIVERY_FAULTS_PART } from './delivery-faults/delivery-faults.parts.js';
import { CLOCK_PART, FAULTS_PART, IDEMPOTENCY_PART, RANDOM_PART, REQUESTS_PART, TIMERS_PART } from './persistence/core.parts.js';
import { snapshotSchema } from './persistence/snapshot.schemas.js';
import { STORE_PART } from './persistence/store.parts.js';
import { AUDIT_LOG_PART } from './resources/documents/documents.parts.js';
import { OUTBOX_PART } from './resources/onboardings/onboardings.parts.js';
import { AUTOPILOT_PART, SCENARIO_PART } from './scenarios/scenario.parts.js';

/**
 * Every piece of workspace state, by the workspace field holding it, each with how it is made
 * (creation, reset), saved and read back (snapshots, the state file): wired here, in one table,
 * and given to every workspace in its recipe. The order is the snapshot document's: keep it,
 * or equal states stop giving the same bytes as before.
 */
export const WORKSPACE_PARTS: WorkspacePartTable = {
  clock: CLOCK_PART,
  random: RANDOM_PART,
  store: STORE_PART,
  timers: TIMERS_PART,
  idempotency: IDEMPOTENCY_PART,
  outbox: OUTBOX_PART,
  auditLog: AUDIT_LOG_PART,
  faults: FAULTS_PART,
  scenario: SCENARIO_PART,
  autopilot: AUTOPILOT_PART,
  requests: REQUESTS_PART,
  deliveryFaults: DELIVERY_FAULTS_PART,
};

/** The snapshot document's schema (GET and PUT /_emulator/snapshot), assembled from the table. */
export const SnapshotSchema = snapshotSchema(WORKSPACE_PARTS);
