import { mapPage } from '../../core/pagination.js';
import { ErrorSchema, IdParam, ListOf } from '../common.schemas.js';
import { DocumentSchema } from '../onboardings/onboardings.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { DocumentParams, ListDocumentsQuery } from './documents.schemas.js';
import { downloadDocument, listDocuments } from './documents.service.js';
import { renderDocument } from './documents.view.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const documentRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/onboardings/:id/documents', tag: 'Documents', scope: 'documents:read',
    operationId: 'listDocuments', summary: 'List the documents of an onboarding, oldest first',
    params: IdParam, query: ListDocumentsQuery,
    responses: { 200: { description: 'A page of documents', schema: ListOf(DocumentSchema, 'Document') }, 404: errors, 422: errors },
    handle: (ctx) => ok(mapPage(listDocuments(ctx.workspace, ctx.principal, ctx.params.id!, ctx.query), renderDocument)),
  }),
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/onboardings/:id/documents/:documentId', tag: 'Documents', scope: 'documents:read',
    operationId: 'downloadDocument',
    summary: 'Download a document file (identity documents are listed but not downloadable); every download is audited',
    params: DocumentParams,
    responses: {
      200: { description: 'The file', media: ['application/pdf', 'image/png', 'image/jpeg'] },
      403: errors, 404: errors,
    },
    handle: (ctx) => {
      const { document, file } = downloadDocument(ctx.workspace, ctx.principal, ctx.params.id!, ctx.params.documentId!, !ctx.info.head);
      return {
        status: 200,
        body: file,
        headers: {
          'Content-Disposition': `attachment; filename="${document.file}"`,
          // Personal documents: no copies in shared caches, no type sniffing.
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      };
    },
  }),
];
