import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { withEntriesJson } from '../core/journal.js';
import { JsonText, ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { WaitQuery, WaitResult, WAIT_DEFAULT_MS, WAIT_MAX_MS } from './wait.schemas.js';
import { waitFor } from './wait.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const waitRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag: 'Wait', method: 'GET', path: '/_emulator/wait',
    operationId: 'waitFor', summary: 'Hold the request until an event, a delivery, a recorded request or a status shows up, or until nothing is left to run',
    description:
      `Answers as soon as the condition holds (checked again on every change of the workspace), or with 409 wait_timeout after timeout_ms (default ${WAIT_DEFAULT_MS}, at most ${WAIT_MAX_MS}), ` +
      'its details naming the nearest candidates. for=status answers 409 wait_unreachable at once when the onboarding is in a final status other than the one waited for. ' +
      'Fields that the chosen kind does not read are refused (422).',
    query: WaitQuery,
    responses: { 200: { description: 'The condition holds', schema: WaitResult }, 404: errors, 409: errors, 422: errors, 429: errors },
    client: { name: 'waitFor', args: 'query' },
    handle: async (ctx) => {
      const met = await waitFor(ctx.emulator, ctx.workspace, ctx.query, ctx.info.signal);
      // Recorded requests are written with their bodies as the journal keeps them.
      return ok(new JsonText<typeof met>(withEntriesJson(met)));
    },
  }),
] satisfies ControlRoute<ControlHost>[];
