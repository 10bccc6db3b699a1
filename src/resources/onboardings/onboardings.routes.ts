import { fail } from '../../core/errors.js';
import { mapPage } from '../../core/pagination.js';
import { ErrorSchema, IdParam } from '../common.schemas.js';
import { defineRoute, type ApiContext, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import {
  CreatedOnboardingSchema, CreateOnboardingBody, EmptyBody, HostedLinkBody, HostedLinkSchema,
  ListOnboardingsQuery, OnboardingList, OnboardingSchema, PatchOnboardingBody,
} from './onboardings.schemas.js';
import {
  cancelOnboarding, createOnboarding, getOnboarding, listOnboardings, patchOnboarding, renewHostedLink,
} from './onboardings.service.js';
import { renderCreated, renderHostedLink, renderOnboarding, renderOnboardingJson } from './onboardings.view.js';
import type { OnboardingRecord } from './onboardings.model.js';

const single = (ctx: ApiContext, r: OnboardingRecord) => renderOnboardingJson(r, { list: false, dossier: ctx.principal.mayOpenDossier });
const id = (ctx: ApiContext) => ctx.params.id!;

/** Fields of an onboarding that PATCH may not touch: employee data and everything derived. */
const NOT_UPDATABLE = [
  'employee', 'employment', 'workflow', 'status', 'waiting_on', 'returned', 'data_version', 'approvals',
  'contract', 'payroll', 'hosted_link', 'return_url', 'source', 'steps', 'documents', 'id', 'object',
  'created_at', 'updated_at', 'options',
];

function refuseNotUpdatable(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const field = NOT_UPDATABLE.find((f) => f in body);
  if (field) {
    throw fail('field_not_updatable', `${field}: only reference and metadata can be changed through the API.`, field);
  }
}

const errors = { description: 'Error', schema: ErrorSchema };

export const onboardingRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/onboardings', tag: 'Onboardings', scope: 'onboardings:read',
    operationId: 'listOnboardings', summary: 'List onboardings, newest first',
    query: ListOnboardingsQuery,
    responses: { 200: { description: 'A page of onboardings', schema: OnboardingList }, 422: errors },
    handle: (ctx) => ok(mapPage(listOnboardings(ctx.workspace, ctx.principal, ctx.query), (r) => renderOnboarding(r, { list: true, dossier: false }))),
  }),
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings', tag: 'Onboardings', scope: 'onboardings:write',
    operationId: 'createOnboarding', summary: 'Create a hosted onboarding',
    body: CreateOnboardingBody,
    responses: { 201: { description: 'Created', schema: CreatedOnboardingSchema }, 403: errors, 422: errors },
    handle: (ctx) => ok(renderCreated(createOnboarding(ctx.workspace, ctx.principal, ctx.body, { baseUrl: ctx.info.baseUrl }), ctx.info.baseUrl), 201),
  }),
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/onboardings/:id', tag: 'Onboardings', scope: 'onboardings:read',
    operationId: 'getOnboarding', summary: 'Read one onboarding with its steps and documents',
    params: IdParam,
    responses: { 200: { description: 'The onboarding', schema: OnboardingSchema }, 404: errors },
    handle: (ctx) => ok(single(ctx, getOnboarding(ctx.workspace, ctx.principal, id(ctx)))),
  }),
  defineRoute({
    kind: 'api', method: 'PATCH', path: '/v1/onboardings/:id', tag: 'Onboardings', scope: 'onboardings:write',
    operationId: 'updateOnboarding', summary: 'Change reference and metadata',
    params: IdParam, body: PatchOnboardingBody, guard: refuseNotUpdatable,
    responses: { 200: { description: 'The onboarding', schema: OnboardingSchema }, 404: errors, 422: errors },
    handle: (ctx) => ok(single(ctx, patchOnboarding(ctx.workspace, ctx.principal, id(ctx), ctx.body))),
  }),
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/hosted-link', tag: 'Onboardings', scope: 'onboardings:write',
    operationId: 'createHostedLink', summary: 'Make a new hosted link; the previous one stops working',
    params: IdParam, body: HostedLinkBody,
    responses: { 201: { description: 'The new link', schema: HostedLinkSchema }, 404: errors, 409: errors },
    handle: (ctx) => {
      const body = ctx.body;
      const r = renewHostedLink(ctx.workspace, ctx.principal, id(ctx), body, ctx.info.baseUrl);
      return ok(renderHostedLink(r, ctx.info.baseUrl, body.send_invitation === true), 201);
    },
  }),
  defineRoute({
    kind: 'api', method: 'POST', path: '/v1/onboardings/:id/cancel', tag: 'Onboardings', scope: 'onboardings:write',
    operationId: 'cancelOnboarding', summary: 'Cancel an onboarding',
    params: IdParam, body: EmptyBody,
    responses: { 200: { description: 'The cancelled onboarding', schema: OnboardingSchema }, 404: errors, 409: errors },
    handle: (ctx) => ok(single(ctx, cancelOnboarding(ctx.workspace, ctx.principal, id(ctx)))),
  }),
];
