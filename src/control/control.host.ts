import type { Static } from '../core/schema.js';
import type { UnmatchedRequests } from '../core/unmatched.js';
import type { Waits } from '../core/waits.js';
import type { Workspace } from '../core/workspace.js';
import type { RelayHub } from '../delivery/relay.js';
import type { WorkspaceSnapshot } from '../persistence/snapshot.js';
import type { CreateWorkspaceBody } from './control.schemas.js';

/**
 * What the control API asks of the emulator, and nothing more: the members its rows and
 * services use. The composition root (src/emulator.ts), which this folder may not import, has
 * them all; a transport hands its Emulator in wherever a ControlHost is asked for, so the
 * compiler checks that it fits. A row needing more of the emulator adds the member here.
 */
export interface ControlHost {
  readonly startedAt: string;
  /** Every workspace, the default one first. */
  workspaces(): Workspace[];
  /** The workspace of this id; workspace_not_found otherwise. */
  workspace(id: string): Workspace;
  /** A new workspace, its fixtures and scenario checked in full first. */
  createWorkspace(input: Static<typeof CreateWorkspaceBody>): Workspace;
  /** Drops a workspace and its keys; workspace_protected for the default one. */
  deleteWorkspace(id: string): void;
  /** Back to the fixtures, clock and random sequence of its creation. */
  reset(ws: Workspace): void;
  snapshot(ws: Workspace): WorkspaceSnapshot;
  /** Replaces the workspace's state with a snapshot; a refusal changes nothing. */
  restore(ws: Workspace, document: unknown): void;
  /** The long polls of every workspace. */
  readonly waits: Waits;
  /** The webhook relays of every workspace. */
  readonly relays: RelayHub;
  /** The requests that reached no workspace. */
  readonly unmatched: UnmatchedRequests;
}
