import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { ReceiverCheckBody, ReceiverCheckReportSchema } from './receiver-check.schemas.js';
import { receiverCheck } from './receiver-check.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const receiverCheckRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'Receiver checks', method: 'POST', path: '/_emulator/receiver-checks',
    operationId: 'runReceiverCheck',
    summary: "Grade a webhook receiver: send it real signed messages (valid, repeated, badly signed, unsigned, stale, altered, during a rotation, out of order, of an unknown type, of an older name, a burst) and judge each answer",
    description: 'Answers once every check has run: up to a timeout per message for a receiver that hangs. ok is false when a required check failed. The URL must pass the emulator\'s webhook URL policy (422 parameter_invalid otherwise). With expect_fetch, check 12 grades the calls the receiver made to this workspace after each new event, from its request journal. See docs/receiver-check.md.',
    body: ReceiverCheckBody,
    responses: { 200: { description: 'The report', schema: ReceiverCheckReportSchema }, 422: errors },
    client: { name: 'receiverCheck', args: 'body' },
    handle: async (ctx) => ok(await receiverCheck(ctx.workspace, ctx.body, ctx.info.signal)),
  }),
] satisfies ControlRoute<ControlHost>[];
