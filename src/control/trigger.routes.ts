import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import { TriggerBody, Triggered } from './trigger.schemas.js';
import { trigger } from './trigger.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

/** The one-line way to make a webhook event happen (`onboarding-emulator trigger <type>`), per workspace. */
export const triggerRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag: 'Control', method: 'POST', path: '/_emulator/trigger',
    operationId: 'triggerEvent',
    summary: 'Make one event of a type happen: an onboarding (new, or the one named) is played through the life cycle until it is emitted, and delivered like any other',
    description:
      'Every type of GET /v1/events, the older names included (the answer names the older-name event), and ping (the webhook test message, to every enabled test address). ' +
      'A new onboarding is created for `organization_id` (default: the first employer whose own test webhook address, or an admitted partner\'s, would get the events), with that partner\'s key when one has an address, else by the employer\'s dashboard. ' +
      'With `onboarding_id`, that onboarding is played forward; 409 when the type cannot happen from its status. A refusal changes nothing.',
    body: TriggerBody,
    responses: { 200: { description: 'The event made, and the onboarding it belongs to', schema: Triggered }, 403: errors, 404: errors, 409: errors, 422: errors },
    client: { name: 'trigger', args: ['event_type', 'onboarding_id', 'organization_id'] },
    handle: (ctx) => ok(trigger(ctx.workspace, ctx.body, ctx.info.baseUrl)),
  }),
] satisfies ControlRoute<ControlHost>[];
