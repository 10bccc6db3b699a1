import type { WorkspaceSnapshot } from '../persistence/snapshot.js';
import type { Workspace } from '../core/workspace.js';
import type { ControlHost } from './control.host.js';
import { describeWorkspace } from './control.service.js';

/**
 * Snapshot and restore of one workspace, a control action like the others: over HTTP as GET/PUT
 * /_emulator/snapshot, in-process through createEmulator(), and for the --state-file. Both wait
 * for webhook attempts in flight first: an attempt half done would be in neither state, and one
 * finishing after a restore would write into the restored one.
 */
export async function snapshotWorkspace(emulator: ControlHost, ws: Workspace): Promise<WorkspaceSnapshot> {
  await ws.scheduler.settle();
  return emulator.snapshot(ws);
}

export async function restoreWorkspace(emulator: ControlHost, ws: Workspace, document: unknown) {
  await ws.scheduler.settle();
  emulator.restore(ws, document);
  return { ...describeWorkspace(ws), restored: true as const };
}
