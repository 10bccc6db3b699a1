import type { Emulator } from '../emulator.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { ok } from '../resources/route.js';
import { defineControlRoute, type ControlRoute } from './control.row.js';
import { RequestList, RequestsCleared, RequestsQuery, Verification, VerifyRequestsBody } from './requests.schemas.js';
import { clearRequests, findRequests, verifyRequests } from './requests.service.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Requests';

export const requestRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/requests',
    operationId: 'listRequests', summary: "The workspace's recorded /v1 requests, newest first, filtered and paged",
    query: RequestsQuery,
    responses: { 200: { description: 'Recorded requests', schema: RequestList }, 422: errors },
    client: { name: 'requests.find', args: 'query' },
    handle: (ctx) => ok(findRequests(ctx.query.unmatched ? ctx.emulator.unmatched : ctx.workspace.requests, ctx.query)),
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
] satisfies ControlRoute<Emulator>[];
