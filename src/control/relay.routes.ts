import { RELAY_LIMIT, RELAY_TOKEN_HEADER } from '../delivery/relay.js';
import type { ControlHost } from './control.host.js';
import { openRelay } from './relay.service.js';
import { ErrorSchema, IdParam } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import {
  ClaimBody, DEFAULT_RELAY_CLAIM, DEFAULT_RELAY_WAIT_MS, OpenedRelaySchema, OpenRelayBody, RelayedMessages, RelayInfoSchema, RelayList, RelayReportBody, RelayReported,
} from './relay.schemas.js';

const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Relays';
/** Claim, report and close: only the client that opened the relay, by the token its open answered. */
const token = { [RELAY_TOKEN_HEADER]: "the token the relay's open answered; without it, or with another, 403 relay_token_invalid" };
const tokenOf = (headers: Record<string, string | undefined>) => headers[RELAY_TOKEN_HEADER];

/**
 * The relay protocol (docs/relay.md): open, then claim messages by long poll and report each
 * receiver's answer, then close. `onboarding-emulator listen` speaks it through the client
 * methods (`relays.*`, the token an argument sent as its header); any language can.
 */
export const relayRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays', showsSecrets: true,
    operationId: 'openRelay',
    summary: "Open a relay: from now on the attempts to the workspace's addresses it takes wait for it to carry them, instead of going out directly",
    description: `The answer holds the relay's \`token\`, shown this once: send it as the ${RELAY_TOKEN_HEADER} header of the relay's claims, reports and close. At most ${RELAY_LIMIT} relays per workspace (422 relay_limit_reached); under the strict URL policy \`forward_to\` is required. With \`session_address\` and \`forward_to\`, a workspace with no address the relay takes gets one for the relay's session: its secret is in this answer only, and the address goes when the relay does.`,
    body: OpenRelayBody,
    responses: { 201: { description: 'The relay, with its token', schema: OpenedRelaySchema }, 422: errors },
    client: { name: 'relays.open', args: 'body' },
    handle: (ctx) => ok(openRelay(ctx.workspace, ctx.emulator.relays, ctx.body), 201),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/relays',
    operationId: 'listRelays', summary: "The workspace's open relays, with what each holds",
    responses: { 200: { description: 'Relays', schema: RelayList } },
    client: { name: 'relays.list', pick: 'data' },
    handle: (ctx) => ok({ data: ctx.emulator.relays.list(ctx.workspace.id) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'DELETE', path: '/_emulator/relays/:id',
    operationId: 'closeRelay', summary: 'Close a relay; the messages it still holds fail as a receiver that went away, and later attempts go out directly',
    params: IdParam,
    headers: token,
    responses: { 200: { description: 'The relay as it was closed', schema: RelayInfoSchema }, 403: errors, 404: errors },
    client: { name: 'relays.close', args: ['id', RELAY_TOKEN_HEADER] },
    handle: (ctx) => ok(ctx.emulator.relays.close(ctx.workspace.id, ctx.params.id!, tokenOf(ctx.headers))),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays/:id/claim', showsSecrets: true,
    operationId: 'claimRelayedMessages',
    summary: 'Take the messages waiting for the relay: at once when there are some, else as soon as one comes, else an empty list after wait_ms (a long poll)',
    params: IdParam,
    headers: token,
    body: ClaimBody,
    responses: { 200: { description: 'Messages to post to the receiver', schema: RelayedMessages }, 403: errors, 404: errors, 422: errors },
    client: { name: 'relays.claim', args: ['id', RELAY_TOKEN_HEADER, 'wait_ms', 'max'] },
    handle: async (ctx) => {
      const data = await ctx.emulator.relays.claim(ctx.workspace.id, ctx.params.id!, tokenOf(ctx.headers), {
        waitMs: ctx.body.wait_ms ?? DEFAULT_RELAY_WAIT_MS, max: ctx.body.max ?? DEFAULT_RELAY_CLAIM, hangup: ctx.info.signal,
      });
      return ok({ data, stopping: ctx.emulator.relays.stopped });
    },
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/relays/:id/results',
    operationId: 'reportRelayedMessage', summary: "What the receiver answered to a message: the attempt waiting for it is recorded with it",
    params: IdParam,
    headers: token,
    body: RelayReportBody,
    responses: { 200: { description: 'Recorded', schema: RelayReported }, 403: errors, 404: errors, 422: errors },
    client: { name: 'relays.report', args: ['id', RELAY_TOKEN_HEADER, 'message_id', 'status_code', 'error', 'duration_ms'] },
    handle: (ctx) => {
      ctx.emulator.relays.report(ctx.workspace.id, ctx.params.id!, tokenOf(ctx.headers), ctx.body.message_id, ctx.body);
      return ok({ message_id: ctx.body.message_id, recorded: true as const });
    },
  }),
] satisfies ControlRoute<ControlHost>[];
