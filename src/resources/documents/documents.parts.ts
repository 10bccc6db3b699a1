import { Type } from '../../core/schema.js';
import type { WorkspacePart } from '../../core/workspace.js';
import type { AuditEntry } from './documents.service.js';

const Str = Type.String({ minLength: 1 });
const Instant = Type.String({ format: 'date-time' });

/** The audit log: empty at creation and after a reset; a snapshot holds the entries as they are. */
export const AUDIT_LOG_PART: WorkspacePart<'auditLog'> = {
  name: 'audit_log',
  create: () => [],
  save: (entries) => entries,
  load: (saved) => saved,
  // What GET /_emulator/audit-log filters and orders by; the rest is shown as it was stored.
  schema: Type.Unsafe<AuditEntry[]>(Type.Array(Type.Object({ at: Instant, action: Str, document_id: Str }))),
};
