import type { Emulator } from '../emulator.js';
import { ErrorSchema, IdParam } from '../resources/common.schemas.js';
import { ok } from '../resources/route.js';
import { defineControlRoute, type ControlRoute } from './control.row.js';
import {
  ClaimBody, DEFAULT_RELAY_CLAIM, DEFAULT_RELAY_WAIT_MS, OpenRelayBody, RelayedMessages, RelayInfoSchema, RelayList, RelayReportBody, RelayReported,
} from './relay.schemas.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Relays';

/**
 * The relay protocol (docs/relay.md): open, then claim messages by long poll and report each
 * receiver's answer, then close. `onboarding-emulator listen` speaks it; any language can.
 */
export const relayRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays',
    operationId: 'openRelay',
    summary: "Open a relay: from now on the attempts to the workspace's addresses it takes wait for it to carry them, instead of going out directly",
    body: OpenRelayBody,
    responses: { 201: { description: 'The relay', schema: RelayInfoSchema }, 422: errors },
    handle: (ctx) => ok(ctx.emulator.relays.open(ctx.workspace.id, ctx.body), 201),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/relays',
    operationId: 'listRelays', summary: "The workspace's open relays, with what each holds",
    responses: { 200: { description: 'Relays', schema: RelayList } },
    handle: (ctx) => ok({ data: ctx.emulator.relays.list(ctx.workspace.id) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/relays/:id',
    operationId: 'closeRelay', summary: 'Close a relay; the messages it still holds fail as a receiver that went away, and later attempts go out directly',
    params: IdParam,
    responses: { 200: { description: 'The relay as it was closed', schema: RelayInfoSchema }, 404: errors },
    handle: (ctx) => ok(ctx.emulator.relays.close(ctx.workspace.id, ctx.params.id!)),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays/:id/claim', showsSecrets: true,
    operationId: 'claimRelayedMessages',
    summary: 'Take the messages waiting for the relay: at once when there are some, else as soon as one comes, else an empty list after wait_ms (a long poll)',
    params: IdParam,
    body: ClaimBody,
    responses: { 200: { description: 'Messages to post to the receiver', schema: RelayedMessages }, 404: errors, 422: errors },
    handle: async (ctx) => {
      const data = await ctx.emulator.relays.claim(ctx.workspace.id, ctx.params.id!, ctx.body.wait_ms ?? DEFAULT_RELAY_WAIT_MS, ctx.body.max ?? DEFAULT_RELAY_CLAIM);
      return ok({ data, stopping: ctx.emulator.relays.stopped });
    },
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays/:id/results',
    operationId: 'reportRelayedMessage', summary: "What the receiver answered to a message: the attempt waiting for it is recorded with it",
    params: IdParam,
    body: RelayReportBody,
    responses: { 200: { description: 'Recorded', schema: RelayReported }, 404: errors, 422: errors },
    handle: (ctx) => {
      ctx.emulator.relays.report(ctx.workspace.id, ctx.params.id!, ctx.body.message_id, ctx.body);
      return ok({ message_id: ctx.body.message_id, recorded: true as const });
    },
  }),
] satisfies ControlRoute<Emulator>[];
