import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { JsonFile, ok, RawFile, type Reply } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import type { CtrfReport } from '../core/ctrf.js';
import type { ReceiverCheckReport } from '../receiver-check/receiver-check.js';
import { receiverCheckCtrf, receiverCheckJunit } from '../receiver-check/receiver-check.report.js';
import { Type } from '../core/schema.js';
import { CtrfReportSchema } from './ctrf.schemas.js';
import { ReceiverCheckBody, ReceiverCheckQuery, ReceiverCheckReportSchema } from './receiver-check.schemas.js';
import { receiverCheck } from './receiver-check.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const receiverCheckRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'Receiver checks', method: 'POST', path: '/_emulator/receiver-checks',
    operationId: 'runReceiverCheck',
    summary: "Grade a webhook receiver: send it real signed messages (valid, repeated, badly signed, unsigned, stale, altered, during a rotation, out of order, of an unknown type, of an older name, a burst) and judge each answer",
    description: 'Answers once every check has run: up to a timeout per message for a receiver that hangs. ok is false when a required check failed. The URL must pass the emulator\'s webhook URL policy (422 parameter_invalid otherwise). With expect_fetch, check 12 grades the calls the receiver made to this workspace after each new event, from its request journal. ?format=junit answers JUnit XML, ?format=ctrf a CTRF report. See docs/receiver-check.md.',
    body: ReceiverCheckBody,
    query: ReceiverCheckQuery,
    responses: { 200: { description: 'The report (JSON), JUnit XML with format=junit, or a CTRF report (JSON) with format=ctrf', schema: Type.Union([ReceiverCheckReportSchema, CtrfReportSchema]), media: ['application/xml'] }, 422: errors },
    client: [{ name: 'receiverCheck', args: 'body' }, { name: 'receiverCheckCtrf', args: 'body', query: { format: 'ctrf' } }],
    // The answer's forms named apart, as for the scenario report: the client types CTRF by JsonFile.
    handle: async (ctx): Promise<Reply<ReceiverCheckReport | RawFile | JsonFile<CtrfReport>>> => {
      const report = await receiverCheck(ctx.workspace, ctx.body, ctx.info.signal);
      if (ctx.query.format === 'ctrf') return ok(new JsonFile(receiverCheckCtrf(report)));
      return ok(ctx.query.format === 'junit' ? new RawFile(new TextEncoder().encode(receiverCheckJunit(report)), 'application/xml; charset=utf-8') : report);
    },
  }),
] satisfies ControlRoute<ControlHost>[];
