import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { Type } from '../../src/core/schema.js';
import { Workspace, type WorkspacePartTable } from '../../src/core/workspace.js';
import { applyState, buildState, readSnapshot, takeSnapshot } from '../../src/persistence/snapshot.js';
import { STORE_LAYOUT } from '../../src/resources/collections.js';
import { WORKSPACE_PARTS } from '../../src/workspace-parts.js';

const START = Date.parse('2026-10-05T09:00:00Z');

/**
 * A piece of state only this file has: a Set live, a sorted list in a snapshot, so saving and
 * reading back are real conversions. Added the way docs/architecture.md says, by one entry in
 * a table of parts; the casts stand in for the declaration its owner would merge into
 * WorkspaceParts, which here would make the emulator's own table incomplete.
 */
const VISITS = {
  name: 'visits',
  create: () => new Set<string>(),
  save: (visits: Set<string>) => [...visits].sort(),
  load: (saved: string[]) => new Set(saved),
  schema: Type.Array(Type.String({ minLength: 1 })),
  // A Set would merge a repeated name silently: the document is refused instead.
  check: (saved: string[]) => saved.flatMap((v, i) => (saved.indexOf(v) < i ? [{ path: `visits[${i}]`, message: `${v} appears twice` }] : [])),
};
const PARTS = { ...WORKSPACE_PARTS, visits: VISITS } as unknown as WorkspacePartTable;

const workspace = (parts: WorkspacePartTable) =>
  new Workspace({ id: 'ws_parts', seed: 'parts', keySuffix: '', collections: STORE_LAYOUT, parts, clock: { mode: 'frozen', start: START } });
const visitsOf = (ws: Workspace) => (ws as unknown as { visits: Set<string> }).visits;

function refusal(document: unknown): { path: string; message: string }[] {
  try {
    readSnapshot(document, PARTS);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'snapshot_invalid') return err.details!;
    throw err;
  }
  throw new Error('the document was accepted');
}

describe('a piece of workspace state added as one part of the table', () => {
  it('is made at creation, saved as its last snapshot field, read back by a restore and made afresh by a reset', () => {
    const ws = workspace(PARTS);
    expect(visitsOf(ws)).toEqual(new Set());
    visitsOf(ws).add('b').add('a');
    const snapshot = takeSnapshot(ws) as unknown as Record<string, unknown>;
    expect(Object.keys(snapshot).at(-1)).toBe('visits');
    expect(snapshot.visits).toEqual(['a', 'b']);

    ws.clear();
    expect(visitsOf(ws)).toEqual(new Set());

    const other = workspace(PARTS);
    applyState(other, buildState(readSnapshot(snapshot, PARTS), other));
    expect(visitsOf(other)).toEqual(new Set(['a', 'b']));
    expect(JSON.stringify(takeSnapshot(other))).toBe(JSON.stringify(snapshot));
  });

  it('brings its schema and its check into the document’s, with paths from the root', () => {
    const snapshot = takeSnapshot(workspace(PARTS)) as unknown as Record<string, unknown>;
    expect(refusal({ ...snapshot, visits: ['a', 7] })).toEqual([expect.objectContaining({ path: 'visits[1]' })]);
    expect(refusal({ ...snapshot, visits: ['a', 'b', 'a'] })).toEqual([{ path: 'visits[2]', message: 'a appears twice' }]);
    const { visits: _gone, ...without } = snapshot;
    expect(refusal(without)).toEqual([expect.objectContaining({ path: 'visits' })]);
  });
});

describe("the emulator's table of parts", () => {
  it('lists the fields in the order every snapshot has had, so equal states keep giving the same bytes', () => {
    const ws = workspace(WORKSPACE_PARTS);
    expect(Object.keys(takeSnapshot(ws))).toEqual([
      'format', 'version', 'workspace', 'clock', 'random', 'store', 'timers', 'idempotency', 'outbox', 'audit_log', 'faults', 'scenario', 'autopilot', 'requests', 'delivery_faults',
    ]);
  });

  it('refuses a field no part of it names', () => {
    const snapshot = takeSnapshot(workspace(PARTS));
    expect(() => readSnapshot(snapshot, WORKSPACE_PARTS)).toThrow(expect.objectContaining({ code: 'snapshot_invalid', details: [{ path: 'visits', message: 'is not a known field' }] }));
  });
});
