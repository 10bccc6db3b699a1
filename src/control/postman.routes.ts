import type { ControlHost } from './control.host.js';
import { fail } from '../core/errors.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { listKeys } from './control.service.js';
import { postmanCollection, type OpenApiDocument } from './postman.collection.js';
import { PostmanCollectionSchema } from './postman.schemas.js';

export const postmanRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag: 'Control', method: 'GET', path: '/_emulator/postman', showsSecrets: true,
    operationId: 'postmanCollection',
    summary: 'A Postman collection (v2.1) of the /v1 API made from the OpenAPI document, with the workspace\'s keys as variables; runs green with newman',
    description: 'A folder per tag, a request per operation (`{{baseUrl}}`, a key with the operation\'s scope, the body from the schema\'s example), each with a test of its documented status; the run follows the onboarding\'s journey and keeps the ids it needs (docs/export.md).',
    responses: { 200: { description: 'The collection', schema: PostmanCollectionSchema } },
    client: { name: 'postman.collection' },
    handle: (ctx) => {
      if (!ctx.info.apiDocument) throw fail('internal_error', 'This transport gives no OpenAPI document to make the collection from.');
      return ok(postmanCollection(ctx.info.apiDocument(ctx.info.baseUrl) as OpenApiDocument, listKeys(ctx.workspace).data, ctx.info.baseUrl));
    },
  }),
] satisfies ControlRoute<ControlHost>[];
