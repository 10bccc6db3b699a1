import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { withEntriesJson } from '../core/journal.js';
import { JsonText, ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { RequestList, RequestsCleared, RequestsQuery, Verification, VerifyRequestsBody } from './requests.schemas.js';
import { clearRequests, findRequests, harRequests, verifyRequests, type RequestPage } from './requests.service.js';
import { HarSchema } from './har.schemas.js';
import { Type } from '../core/schema.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Requests';

export const requestRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/requests',
    operationId: 'listRequests', summary: "The workspace's recorded /v1 requests, newest first, filtered and paged; ?format=har answers them as an HTTP Archive",
    description: 'With `format=har` the answer is a HAR 1.2 document (application/json): each request with its headers (the key masked), query, body and answer, on the workspace clock; docs/export.md.',
    query: RequestsQuery,
    responses: { 200: { description: 'Recorded requests, or with format=har the HAR document', schema: Type.Union([RequestList, HarSchema]) }, 422: errors },
    client: [{ name: 'requests.find', args: 'query' }, { name: 'requests.har', args: 'query', query: { format: 'har' } }],
    handle: (ctx) => {
      const source = ctx.query.unmatched ? ctx.emulator.unmatched : ctx.workspace.requests;
      // Listed entries are written with their bodies as the journal keeps them.
      return ok(ctx.query.format === 'har' ? harRequests(source, ctx.query, ctx.info.baseUrl) : new JsonText<RequestPage>(withEntriesJson(findRequests(source, ctx.query))));
    },
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/requests/verify',
    operationId: 'verifyRequests', summary: 'Check how many recorded requests match; when not as expected, the nearest ones and how they differ',
    body: VerifyRequestsBody,
    responses: { 200: { description: 'The verification', schema: Verification }, 422: errors },
    client: { name: 'requests.verify', args: ['matcher', 'expected'] },
    handle: (ctx) => ok(verifyRequests(ctx.workspace, ctx.body)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/requests',
    operationId: 'clearRequests', summary: 'Empty the request journal (its dropped count too)',
    responses: { 200: { description: 'What it held', schema: RequestsCleared } },
    client: { name: 'requests.clear' },
    handle: (ctx) => ok(clearRequests(ctx.workspace)),
  }),
] satisfies ControlRoute<ControlHost>[];
