import { ErrorSchema, IdParam, ListOf } from '../common.schemas.js';
import { EmptyBody, OnboardingSchema } from '../onboardings/onboardings.schemas.js';
import { renderOnboardingJson } from '../onboardings/onboardings.view.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { defineRoute, type ApiContext, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { ApprovalRequest, ListApprovalsQuery, OpenApprovalSchema } from './approvals.schemas.js';
import { confirmIdentity, giveApproval, listOpenApprovals } from './approvals.service.js';

const errors = { description: 'Error', schema: ErrorSchema };
const single = (ctx: ApiContext, r: OnboardingRecord) => ok(renderOnboardingJson(r, { list: false, dossier: ctx.principal.mayOpenDossier }));

export const approvalRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/identity-verification', tag: 'Approvals', scope: 'approvals:write',
    operationId: 'verifyIdentity', summary: 'Confirm the identity check as manager (API approvals must be enabled)',
    params: IdParam, body: EmptyBody,
    responses: { 200: { description: 'The onboarding', schema: OnboardingSchema }, 403: errors, 404: errors, 409: errors },
    handle: (ctx) => single(ctx, confirmIdentity(ctx.workspace, ctx.principal, ctx.params.id!)),
  }),
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/approvals', tag: 'Approvals', scope: 'approvals:write',
    operationId: 'approveOnboarding', summary: 'Approve in one role as the key\'s user (four-eyes; API approvals must be enabled)',
    params: IdParam, body: ApprovalRequest,
    responses: { 200: { description: 'The onboarding', schema: OnboardingSchema }, 403: errors, 404: errors, 409: errors, 422: errors },
    handle: (ctx) => single(ctx, giveApproval(ctx.workspace, ctx.principal, ctx.params.id!, ctx.body)),
  }),
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/approvals', tag: 'Approvals', scope: 'approvals:read',
    operationId: 'listApprovals', summary: 'Onboardings in review, with what the key\'s user can approve and what blocks it',
    query: ListApprovalsQuery,
    responses: { 200: { description: 'A page of open approvals', schema: ListOf(OpenApprovalSchema, 'OpenApproval') }, 422: errors },
    handle: (ctx) => ok(listOpenApprovals(ctx.workspace, ctx.principal, ctx.query)),
  }),
];
