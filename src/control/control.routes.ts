import { BODY_DEPTH_LIMIT } from '../core/documents.js';
import { checkSnapshot, SnapshotSchema } from '../workspace-parts.js';
import type { ControlHost } from './control.host.js';
import { ErrorSchema, IdParam } from '../resources/common.schemas.js';
import { enableWebhook } from '../resources/webhooks/webhooks.service.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import {
  AdvanceBody, ClockInfo, CreateFaultBody, EnabledWebhook, FaultInfo, FaultList, FaultsCleared, SetClockBody,
  CreatedWorkspace, CreateWorkspaceBody, Deleted, Health, KeyList, NoBody, RestoredWorkspace, WorkspaceInfo, WorkspaceList, WorkspaceParam,
} from './control.schemas.js';
import {
  addFault, advanceClock, clearFaults, clockState, createWorkspace, describeWorkspace, getFault, health, listFaults, listKeys, removeFault,
  resetWorkspace, setClock,
} from './control.service.js';
import { restoreWorkspace, snapshotWorkspace } from './snapshot.service.js';

/** The largest snapshot PUT /_emulator/snapshot reads: 32 MB (about 12,000 onboardings). */
export const SNAPSHOT_BODY_LIMIT = 32 * 1024 * 1024;
const SNAPSHOT_BODY_DEPTH = BODY_DEPTH_LIMIT + 32;

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Control';

export const controlRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'GET', path: '/_emulator/health',
    operationId: 'health', summary: 'Liveness and readiness',
    responses: { 200: { description: 'Ready', schema: Health } },
    handle: (ctx) => ok(health(ctx.emulator)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/keys', showsSecrets: true,
    operationId: 'listKeys', summary: 'The keys of the workspace, with organization, partner, user and scopes',
    responses: { 200: { description: 'Keys', schema: KeyList } },
    client: { name: 'keys', pick: 'data' },
    handle: (ctx) => ok(listKeys(ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/reset',
    operationId: 'resetWorkspace', summary: 'Back to the fixtures, clock and random sequence the workspace started with',
    body: NoBody,
    responses: { 200: { description: 'Reset', schema: WorkspaceInfo } },
    client: { name: 'workspace.reset' },
    handle: (ctx) => ok(resetWorkspace(ctx.emulator, ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/snapshot', showsSecrets: true,
    operationId: 'getSnapshot', summary: 'The whole workspace as one JSON document (store, clock, timers, random position, outbox, faults, scenario)',
    description: 'Waits for webhook attempts in flight first. Give the document back with PUT /_emulator/snapshot.',
    responses: { 200: { description: 'The snapshot', schema: SnapshotSchema } },
    client: { name: 'snapshot' },
    handle: async (ctx) => ok(await snapshotWorkspace(ctx.emulator, ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'PUT', path: '/_emulator/snapshot',
    operationId: 'restoreSnapshot', summary: "Replace the workspace's whole state with a snapshot; a refused snapshot changes nothing",
    description: 'Any workspace may take a snapshot, as long as none of its keys belongs to another workspace (409 snapshot_key_conflict).',
    body: SnapshotSchema,
    // A whole workspace (its onboardings, events, deliveries and request journal) outgrows the 1 MB of other bodies.
    bodyLimit: SNAPSHOT_BODY_LIMIT,
    // The journal's entries inside it carry request bodies of up to BODY_DEPTH_LIMIT levels.
    bodyDepth: SNAPSHOT_BODY_DEPTH,
    // Every mistake at once, with snapshot_invalid or snapshot_version_unsupported, before the schema's first-mistake check.
    guard: (body) => void checkSnapshot(body),
    responses: { 200: { description: 'The restored workspace', schema: RestoredWorkspace }, 409: errors, 422: errors },
    client: { name: 'restore', args: 'body' },
    handle: async (ctx) => ok(await restoreWorkspace(ctx.emulator, ctx.workspace, ctx.body)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/clock',
    operationId: 'getClock', summary: 'The workspace clock: now, mode, pending timers, next due time',
    responses: { 200: { description: 'Clock', schema: ClockInfo } },
    client: [{ name: 'clock.now', pick: 'now' }, { name: 'clock.state' }],
    handle: (ctx) => ok(clockState(ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/clock/advance',
    operationId: 'advanceClock', summary: 'Advance the clock, firing every due timer at its own instant',
    body: AdvanceBody,
    responses: { 200: { description: 'The new time and what fired', schema: ClockInfo }, 422: errors },
    client: { name: 'clock.advance', args: ['by'] },
    handle: async (ctx) => ok(await advanceClock(ctx.workspace, ctx.body.by)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/clock',
    operationId: 'setClock', summary: 'Jump the clock to an instant (never backwards), firing what falls due',
    body: SetClockBody,
    responses: { 200: { description: 'The new time and what fired', schema: ClockInfo }, 409: errors, 422: errors },
    client: { name: 'clock.set', args: ['now'] },
    handle: async (ctx) => ok(await setClock(ctx.workspace, ctx.body.now)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/webhooks/:id/enable',
    operationId: 'enableWebhook', summary: 'Re-enable a disabled webhook address (what the developer dashboard does)',
    params: IdParam, body: NoBody,
    responses: { 200: { description: 'The address is enabled again', schema: EnabledWebhook }, 404: errors },
    client: { name: 'webhooks.enable', args: ['id'] },
    handle: (ctx) => {
      const w = enableWebhook(ctx.workspace, ctx.params.id!);
      return ok({ id: w.id, status: w.status });
    },
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/faults',
    operationId: 'createFault', summary: 'Inject a fault: the next N matching /v1 requests get latency, a 429 or a 500, lose the connection before they run (reset_before_commit) or after they committed (drop_response_after_commit), or a slow answer (slow_response), or the next N payroll runs fail (payroll_down)',
    body: CreateFaultBody,
    responses: { 201: { description: 'The fault, with its id and remaining count', schema: FaultInfo }, 422: errors },
    client: { name: 'faults.add', args: 'body' },
    handle: (ctx) => ok(addFault(ctx.workspace, ctx.body), 201),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/faults',
    operationId: 'listFaults', summary: 'The active faults, in the order they are matched',
    responses: { 200: { description: 'Faults', schema: FaultList } },
    client: { name: 'faults.list', pick: 'data' },
    handle: (ctx) => ok({ data: listFaults(ctx.workspace) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/faults',
    operationId: 'clearFaults', summary: 'Remove every fault',
    responses: { 200: { description: 'How many were removed', schema: FaultsCleared } },
    client: { name: 'faults.clear' },
    handle: (ctx) => ok(clearFaults(ctx.workspace)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/faults/:id',
    operationId: 'getFault', summary: 'One active fault, with the times it has left; a fault used up is gone (404)',
    params: IdParam,
    responses: { 200: { description: 'The fault', schema: FaultInfo }, 404: errors },
    client: { name: 'faults.get', args: ['id'] },
    handle: (ctx) => ok(getFault(ctx.workspace, ctx.params.id!)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/faults/:id',
    operationId: 'deleteFault', summary: 'Remove one fault',
    params: IdParam,
    responses: { 200: { description: 'Deleted', schema: Deleted }, 404: errors },
    client: { name: 'faults.remove', args: ['id'] },
    handle: (ctx) => ok(removeFault(ctx.workspace, ctx.params.id!)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'POST', path: '/_emulator/workspaces', showsSecrets: true,
    operationId: 'createWorkspace', summary: 'Create an isolated workspace from the default or a posted fixtures document',
    body: CreateWorkspaceBody,
    responses: { 201: { description: 'Created', schema: CreatedWorkspace }, 422: errors },
    client: { name: 'workspace.create', args: 'body' },
    handle: (ctx) => ok(createWorkspace(ctx.emulator, ctx.body), 201),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'GET', path: '/_emulator/workspaces',
    operationId: 'listWorkspaces', summary: 'All workspaces',
    responses: { 200: { description: 'Workspaces', schema: WorkspaceList } },
    client: { name: 'workspace.list', pick: 'data' },
    handle: (ctx) => ok({ data: ctx.emulator.workspaces().map(describeWorkspace) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'GET', path: '/_emulator/workspaces/:workspaceId',
    operationId: 'getWorkspace', summary: 'One workspace',
    params: WorkspaceParam,
    responses: { 200: { description: 'Workspace', schema: WorkspaceInfo }, 404: errors },
    client: { name: 'workspace.describe', args: ['workspaceId'] },
    handle: (ctx) => ok(describeWorkspace(ctx.emulator.workspace(ctx.params.workspaceId!))),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag, method: 'DELETE', path: '/_emulator/workspaces/:workspaceId',
    operationId: 'deleteWorkspace', summary: 'Drop a workspace and its keys',
    params: WorkspaceParam,
    responses: { 200: { description: 'Deleted', schema: Deleted }, 404: errors, 409: errors },
    client: { name: 'workspace.delete', args: ['workspaceId'] },
    handle: (ctx) => {
      const id = ctx.params.workspaceId!;
      ctx.emulator.deleteWorkspace(id);
      return ok({ id, deleted: true });
    },
  }),
] satisfies ControlRoute<ControlHost>[];
