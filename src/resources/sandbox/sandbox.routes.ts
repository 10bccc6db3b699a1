import { ErrorSchema, IdParam } from '../common.schemas.js';
import { EmptyBody } from '../onboardings/onboardings.schemas.js';
import { renderOnboarding } from '../onboardings/onboardings.view.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { SandboxAdvanceSchema } from './sandbox.schemas.js';
import { advanceSandbox } from './sandbox.service.js';

const errors = { description: 'Error', schema: ErrorSchema };

export const sandboxRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/sandbox/onboardings/:id/advance', tag: 'Sandbox', scope: 'onboardings:write',
    operationId: 'advanceSandboxOnboarding', summary: 'Play the next step of a test onboarding (test keys only; one step per call)',
    description: `Steps, in order: employee_opened, employee_submitted, identity_verified, approval_given (once per required role, in template order), contract_sent, employee_signed, employer_signed, payroll_completed or payroll_failed; after a failure payroll_resolved. After a return to the manager: manager_corrected. Completed or cancelled: 409 sandbox_finished.`,
    params: IdParam, body: EmptyBody,
    responses: { 200: { description: 'The step played and the onboarding after it', schema: SandboxAdvanceSchema }, 403: errors, 404: errors, 409: errors },
    handle: (ctx) => {
      const { step, onboarding } = advanceSandbox(ctx.workspace, ctx.principal, ctx.params.id!, ctx.info.baseUrl);
      // The embedded onboarding is the single-onboarding view, as GET /v1/onboardings/{id}.
      return ok({ step, onboarding: renderOnboarding(onboarding, { list: false, dossier: ctx.principal.mayOpenDossier }) });
    },
  }),
];
