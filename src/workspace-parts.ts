import type { ErrorDetail } from './core/errors.js';
import type { WorkspacePartTable } from './core/workspace.js';
import { DELIVERY_FAULTS_PART } from './delivery-faults/delivery-faults.parts.js';
import { CLOCK_PART, FAULTS_PART, IDEMPOTENCY_PART, RANDOM_PART, REQUESTS_PART, TIMERS_PART } from './persistence/core.parts.js';
import { readSnapshot, type WorkspaceSnapshot } from './persistence/snapshot.js';
import { snapshotSchema } from './persistence/snapshot.schemas.js';
import { STORE_PART } from './persistence/store.parts.js';
import { AUDIT_LOG_PART } from './resources/documents/documents.parts.js';
import { OUTBOX_PART } from './resources/onboardings/onboardings.parts.js';
import { AUTOPILOT_PART, SCENARIO_PART } from './scenarios/scenario.parts.js';
import { TIMER_HANDLERS } from './timer-handlers.js';

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

/**
 * Reads a snapshot document with every check there is: each part's, and the one needing what
 * only this layer knows, the timer kinds there are. A refusal lists every mistake (422
 * snapshot_invalid) or names the version (snapshot_version_unsupported).
 */
export function checkSnapshot(document: unknown): WorkspaceSnapshot {
  return readSnapshot(document, WORKSPACE_PARTS, (s) => {
    const mistakes: ErrorDetail[] = [];
    s.timers.timers.forEach((t, i) => {
      if (!(t.kind in TIMER_HANDLERS)) mistakes.push({ path: `timers.timers[${i}].kind`, message: `"${t.kind}" is not a timer kind of this emulator (${Object.keys(TIMER_HANDLERS).join(', ')})` });
    });
    return mistakes;
  });
}
