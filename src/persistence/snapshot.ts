import { ApiError, type ErrorDetail } from '../core/errors.js';
import { largerThan, mistakesUpTo, WHOLE_CHECK_VALUES } from '../core/bounded-validation.js';
import { compile } from '../core/validation.js';
import type { PartField, PartValues, Workspace, WorkspacePart, WorkspacePartTable } from '../core/workspace.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, snapshotSchema, type WorkspaceSnapshot } from './snapshot.schemas.js';

export {    type WorkspaceSnapshot } from './snapshot.schemas.js';

/**
 * Snapshots of one workspace (the control API's snapshot and restore, and the state file):
 * taken as plain JSON, read back with every mistake listed, and built into a complete new state
 * before anything of the workspace is touched, so a refused restore changes nothing. Every
 * step goes over the workspace's table of parts (WorkspacePart, src/workspace-parts.ts): this
 * file knows the document's header and nothing of what the parts hold.
 */

/** The parts of a table as [workspace field, part] pairs, in the table's (and the document's) order. */
const partsOf = (parts: WorkspacePartTable) => Object.entries(parts) as [PartField, WorkspacePart<PartField>][];

/** A deep copy of the workspace's whole state; equal states give byte-identical JSON. */
export function takeSnapshot(ws: Workspace): WorkspaceSnapshot {
  const snapshot: Record<string, unknown> = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    workspace: { id: ws.id, created_at: ws.createdAt },
  };
  for (const [field, part] of partsOf(ws.recipe.parts)) snapshot[part.name] = part.save(ws[field], ws);
  return JSON.parse(JSON.stringify(snapshot)) as WorkspaceSnapshot;
}

/** Mistakes a refusal lists: past these, a document is wrong throughout and more would only weigh on the answer. */
export const SNAPSHOT_MISTAKES_LISTED = 100;

/** `atLeast`: the check stopped at the listed mistakes, so their total is not known. */
export function snapshotRefusal(mistakes: ErrorDetail[], atLeast = false): ApiError {
  const listed = mistakes.slice(0, SNAPSHOT_MISTAKES_LISTED);
  const count = atLeast ? `at least ${listed.length} mistakes` : `${mistakes.length} mistake(s)`;
  const where = listed.length < mistakes.length || atLeast ? `the first ${listed.length} are in details` : 'see details';
  const e = new ApiError('snapshot_invalid', `The snapshot has ${count}; ${where}. Nothing was changed.`);
  e.details = listed;
  return e;
}

/**
 * Checks a document in full against a table of parts: the format and version first (another
 * version is snapshot_version_unsupported), then the shape, then what the shape cannot say
 * (each part's check(), in the table's order). `more` adds the checks of the composition root.
 */
export function readSnapshot(document: unknown, parts: WorkspacePartTable, more: (s: WorkspaceSnapshot) => ErrorDetail[] = () => []): WorkspaceSnapshot {
  const doc = document as { format?: unknown; version?: unknown } | null;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw snapshotRefusal([{ path: '(document)', message: 'must be a JSON object' }]);
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw snapshotRefusal([{ path: 'format', message: `must be "${SNAPSHOT_FORMAT}": this is not a snapshot of this emulator (take one with GET /_emulator/snapshot)` }]);
  }
  if (typeof doc.version === 'number' && doc.version !== SNAPSHOT_VERSION) {
    throw new ApiError('snapshot_version_unsupported', `The snapshot has version ${doc.version}; this emulator reads version ${SNAPSHOT_VERSION} only. Nothing was changed.`, 'version');
  }
  // A larger document is checked piece by piece, stopping at SNAPSHOT_MISTAKES_LISTED mistakes.
  if (largerThan(document, WHOLE_CHECK_VALUES)) {
    const found = mistakesUpTo(snapshotSchema(parts), document, SNAPSHOT_MISTAKES_LISTED);
    if (found.length) throw snapshotRefusal(found.map(detail), found.length >= SNAPSHOT_MISTAKES_LISTED);
  } else {
    const shape = validatorOf(parts)(document);
    if (!shape.ok) throw snapshotRefusal(shape.mistakes.map(detail));
  }
  const snapshot = document as WorkspaceSnapshot;
  const saved = snapshot as unknown as Record<string, unknown>;
  const mistakes = [...partsOf(parts).flatMap(([, part]) => part.check?.(saved[part.name] as never) ?? []), ...more(snapshot)];
  if (mistakes.length) throw snapshotRefusal(mistakes);
  return snapshot;
}

const detail = (m: { path: string; message: string }): ErrorDetail => ({ path: m.path || '(document)', message: m.message });

const validators = new WeakMap<WorkspacePartTable, ReturnType<typeof compile<WorkspaceSnapshot>>>();
function validatorOf(parts: WorkspacePartTable) {
  let validate = validators.get(parts);
  if (!validate) validators.set(parts, (validate = compile<WorkspaceSnapshot>(snapshotSchema(parts))));
  return validate;
}

/**
 * A complete new state from a checked snapshot, every part read back in the table's order; the
 * workspace is only read (its recipe and wall-clock source).
 */
export function buildState(checked: WorkspaceSnapshot, ws: Workspace): PartValues {
  const s = JSON.parse(JSON.stringify(checked)) as Record<string, unknown>; // nothing shared with the caller's object
  const state: Record<string, unknown> = {};
  for (const [field, part] of partsOf(ws.recipe.parts)) state[field] = part.load(s[part.name] as never, ws);
  return state as PartValues;
}

/**
 * Swaps the new state in, all at once. The realtime alarm of the old timers is stopped first;
 * the caller runs what is due and re-arms (Scheduler.runDue) once the key index is updated.
 */
export function applyState(ws: Workspace, state: PartValues): void {
  ws.scheduler.stop();
  ws.install(state);
}
