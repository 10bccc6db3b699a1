import { Type, type TSchema } from '../core/schema.js';
import type { PartField, SavedParts, WorkspacePart, WorkspacePartTable } from '../core/workspace.js';

/**
 * The snapshot document (`GET/PUT /_emulator/snapshot`, and the `--state-file`):
 * one workspace's whole state as plain JSON. `format` and `version` come first, so a reader
 * knows at once whether it can read the rest; a change of shape gets a new version. The
 * fields between the header and `state_file` are the workspace's parts, in the table's order
 * (src/workspace-parts.ts): their types, schemas and checks are their owners'.
 */
export const SNAPSHOT_FORMAT = 'onboarding-emulator-snapshot';
export const SNAPSHOT_VERSION = 1;

interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** Where the snapshot was taken; informative: it may be restored into another workspace. */
  workspace: { id: string; created_at: string };
}

interface SnapshotTrailer {
  /**
   * Only in a --state-file: the digest of the start scenario (--scenario) in force when it was
   * written, null for none, so a restart tells a changed flag from a scenario changed through the
   * API. A restore ignores it.
   */
  state_file?: {
    start_scenario: string | null;
    /**
     * True from the start of a process on the file until its clean stop writes false: a start on
     * a file still open follows a kill, whose last answers may have handed out ids the file
     * does not hold. Absent in older files and saved snapshots: taken as closed.
     */
    open?: boolean;
    /** How many starts followed such a kill; each draws ids from a stream of its own. */
    restarts?: number;
    /**
     * Names this document for its change log (`PATH.log`, src/persistence/change-log.ts): only
     * records naming it apply to it. Absent in files written before the log: no log applies.
     */
    log?: string;
  };
}

export type WorkspaceSnapshot = SnapshotHeader & SavedParts & SnapshotTrailer;

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });
const Nullable = <T>(schema: TSchema<T>) => Type.Union([schema, Type.Null()]);

const built = new WeakMap<WorkspacePartTable, TSchema<WorkspaceSnapshot>>();

/**
 * The document's schema: the header, every part's field in the table's order, then
 * `state_file`. One object per table, so its validator is compiled once.
 */
export function snapshotSchema(parts: WorkspacePartTable): TSchema<WorkspaceSnapshot> {
  let schema = built.get(parts);
  if (schema) return schema;
  const partFields = Object.values(parts).map((part) => [(part as WorkspacePart<PartField>).name, (part as WorkspacePart<PartField>).schema]);
  schema = Type.Unsafe<WorkspaceSnapshot>(
    Type.Object(
      {
        format: Type.Literal(SNAPSHOT_FORMAT),
        version: Type.Literal(SNAPSHOT_VERSION),
        workspace: Type.Object({ id: Str, created_at: Instant }),
        ...(Object.fromEntries(partFields) as Record<string, TSchema>),
        state_file: Type.Optional(
          Type.Object(
            { start_scenario: Nullable(Str), open: Type.Optional(Type.Boolean()), restarts: Type.Optional(Type.Integer({ minimum: 0 })), log: Type.Optional(Str) },
            { additionalProperties: false, description: 'written by --state-file; ignored by a restore' },
          ),
        ),
      },
      {
        additionalProperties: false,
        title: 'WorkspaceSnapshot',
        description: 'A whole workspace as one JSON document: store, clock, timers, random position, idempotency records, outbox, audit log, faults and scenario state. Take it with GET, give it back with PUT.',
      },
    ),
  );
  built.set(parts, schema);
  return schema;
}
