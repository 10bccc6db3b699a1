import { ErrorSchema, IdParam } from '../common.schemas.js';
import { sendContract } from '../onboardings/onboardings.lifecycle.js';
import { EmptyBody, OnboardingSchema } from '../onboardings/onboardings.schemas.js';
import { getOnboarding } from '../onboardings/onboardings.service.js';
import { renderOnboardingJson } from '../onboardings/onboardings.view.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';

const errors = { description: 'Error', schema: ErrorSchema };

/**
 * POST .../contract: the employer creates the contract and sends it for signature. The state
 * machine decides whether that is possible (contract_ready only, else a 409 with its own code);
 * the contract mail links to the hosted page on the base URL the caller used.
 */
export const contractRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/contract', tag: 'Contracts', scope: 'contracts:write',
    operationId: 'sendContract', summary: 'Create the contract and send it for signature',
    params: IdParam, body: EmptyBody,
    responses: { 200: { description: 'The onboarding, awaiting the employee\'s signature', schema: OnboardingSchema }, 404: errors, 409: errors },
    handle: (ctx) => {
      const r = sendContract(ctx.workspace, getOnboarding(ctx.workspace, ctx.principal, ctx.params.id!), ctx.info.baseUrl);
      return ok(renderOnboardingJson(r, { list: false, dossier: ctx.principal.mayOpenDossier }));
    },
  }),
];
