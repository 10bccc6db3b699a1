import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { stateMachineView } from '../resources/onboardings/onboardings.machine.view.js';
import { ok, RawFile } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { StateMachineQuery, StateMachineSchema } from './state-machine.schemas.js';

/** The media type of ?format=mermaid: plain text, so a browser shows it and curl prints it. */
const MERMAID_CONTENT_TYPE = 'text/plain; charset=utf-8';

export const stateMachineRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: false, tag: 'State machine', method: 'GET', path: '/_emulator/state-machine',
    operationId: 'getStateMachine', summary: 'The onboarding life cycle as its transition table, with a Mermaid diagram of it',
    description: 'The same for every workspace. `?format=mermaid` answers the diagram alone as text/plain (docs/state-machine.md shows it drawn).',
    query: StateMachineQuery,
    responses: { 200: { description: 'The table, or the diagram', schema: StateMachineSchema, media: ['text/plain'] }, 422: { description: 'Error', schema: ErrorSchema } },
    client: { name: 'stateMachine' },
    handle: (ctx) => {
      const view = stateMachineView();
      return ok(ctx.query.format === 'mermaid' ? new RawFile(Buffer.from(view.mermaid, 'utf8'), MERMAID_CONTENT_TYPE) : view);
    },
  }),
] satisfies ControlRoute<ControlHost>[];
