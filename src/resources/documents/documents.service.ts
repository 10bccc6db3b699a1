import { DEFAULT_PAGE_LIMIT } from '../common.schemas.js';
import type { Principal } from '../organizations/organizations.access.js';
import { fail } from '../../core/errors.js';
import { paginate, type Page, type PageRequest } from '../../core/pagination.js';
import type { PartShape, Workspace } from '../../core/workspace.js';
import type { DocumentRecord } from '../onboardings/onboardings.model.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';
import type { RawFile } from '../../operations/reply.js';
import { documentFile } from './documents.files.js';

/** One document download, kept in the workspace's audit log (GET /_emulator/audit-log). */
export interface AuditEntry {
  at: string;
  action: 'document.download';
  key: string;
  user_id: string | null;
  organization_id: string;
  onboarding_id: string;
  document_id: string;
  document_kind: string;
}

declare module '../../core/workspace.js' {
  interface WorkspaceParts {
    /** Every document download, for GET /_emulator/audit-log (its part: documents.parts.ts). */
    auditLog: PartShape<'audit_log', AuditEntry[]>;
  }
}

/** Oldest first (upload order); visibility as GET /v1/onboardings/{id}. */
export function listDocuments(ws: Workspace, p: Principal, onboardingId: string, q: PageRequest): Page<DocumentRecord> {
  const r = getOnboarding(ws, p, onboardingId);
  return paginate(r.documents, (d) => d.id, q, { defaultLimit: DEFAULT_PAGE_LIMIT });
}

export interface Download {
  document: DocumentRecord;
  file: RawFile;
}

/**
 * One download: refuses identity documents (listed, never downloadable with an API key:
 * docs/decisions.md), then records the download in the workspace's audit log (not for HEAD,
 * `record` false: no file leaves).
 */
export function downloadDocument(ws: Workspace, p: Principal, onboardingId: string, documentId: string, record = true): Download {
  const r = getOnboarding(ws, p, onboardingId);
  const document = r.documents.find((d) => d.id === documentId);
  if (!document) throw fail('resource_not_found', `No document with id ${documentId} on onboarding ${r.id}.`, 'documentId');
  if (!document.downloadable) {
    throw fail(
      'document_not_downloadable',
      `The document ${documentId} (${document.kind}) is listed but cannot be downloaded with an API key; it stays with the service.`,
      'documentId',
    );
  }
  const file = documentFile(document.file);
  // Only a corrupted snapshot can name an unusable file: answer as if the document were absent.
  if (!file) throw fail('resource_not_found', `The file of document ${documentId} is not available.`, 'documentId');
  if (record) {
    ws.auditLog.push({
      at: ws.now(),
      action: 'document.download',
      key: p.key.key,
      user_id: p.user?.id ?? null,
      organization_id: r.organization_id,
      onboarding_id: r.id,
      document_id: document.id,
      document_kind: document.kind,
    });
  }
  return { document, file };
}
