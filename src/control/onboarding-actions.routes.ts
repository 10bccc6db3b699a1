import type { Static, TSchema } from '../core/schema.js';
import type { ControlHost } from './control.host.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import { ok } from '../operations/reply.js';
import { defineControlRoute, type ControlRoute } from '../operations/control-row.js';
import {
  ActionResult, ApproveBody, AuditLog, DashboardCreateBody, DashboardCreated, NoBody, OnboardingIdParam, OpenBody,
  Outbox, OutboxQuery, PayrollFailBody, ReturnBody, SubmitBody, SUBMIT_BODY_LIMIT, TermsBody, VerifyBody,
} from './onboarding-actions.schemas.js';
import { listOutbox } from './control.service.js';
import * as act from './onboarding-actions.service.js';
import * as steps from './employee-steps.service.js';
import { OrganizationIdParam, OrganizationSettings, PatchOrganizationBody } from './organization-settings.schemas.js';
import { findOrganization, patchOrganization, renderSettings } from './organization-settings.service.js';

/**
 * The control API's dashboard, employee, back-office and payroll actions: what people do in the
 * real product's screens, each one trigger of the life-cycle table (onboardings.machine.ts), per
 * workspace: under /_emulator/... and /_emulator/workspaces/{id}/...
 */
const errors = { description: 'Error', schema: ErrorSchema };
const tag = 'Control';

/**
 * One action on one onboarding: find it in the workspace, act, answer with the full onboarding.
 * `run` takes what `body` lets through, so an action and its schema cannot drift apart; `guard`,
 * a rule of the body its schema cannot say, is checked with the schema.
 */
function action<S extends TSchema, const N extends string, const A extends readonly string[] = []>(
  suffix: string, operationId: string, summary: string, body: S, run: act.Action<Static<S>>, client: { name: N; fields?: A },
  guard?: (body: unknown) => void, bodyLimit?: number,
) {
  // Its client method: `onboardings.<name>(id, ...the body's fields in order)`.
  const call = { name: `onboardings.${client.name}` as `onboardings.${N}`, args: ['id', ...(client.fields ?? [])] as unknown as readonly ['id', ...A] };
  return defineControlRoute<ControlHost, S, TSchema, { onboarding: Record<string, unknown> }, typeof call>({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: `/_emulator/onboardings/:id/${suffix}`,
    operationId, summary, params: OnboardingIdParam, body, client: call, ...(guard ? { guard } : {}), ...(bodyLimit ? { bodyLimit } : {}),
    responses: { 200: { description: 'The onboarding after the action', schema: ActionResult }, 404: errors, 409: errors, 422: errors },
    handle: (ctx) => {
      const ws = ctx.workspace;
      const r = act.findOnboarding(ws, ctx.params.id!);
      return ok({ onboarding: act.renderFull(run(ws, r, ctx.body, ctx.info.baseUrl)) as Record<string, unknown> });
    },
  });
}

export const onboardingActionRoutes = [
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'POST', path: '/_emulator/onboardings', showsSecrets: true,
    operationId: 'dashboardCreateOnboarding',
    summary: 'Create an onboarding as the dashboard of an employer (source dashboard); same rules as POST /v1/onboardings',
    body: DashboardCreateBody,
    responses: { 201: { description: 'The full onboarding with its hosted_url', schema: DashboardCreated }, 403: errors, 422: errors },
    client: { name: 'onboardings.create', args: 'body' },
    handle: (ctx) => ok(act.dashboardCreate(ctx.workspace, ctx.body, ctx.info.baseUrl), 201),
  }),
  action('employee/open', 'employeeOpen', 'The employee opens the hosted link; a code is checked and counted as on the page', OpenBody, steps.employeeOpen, { name: 'employeeOpen', fields: ['code'] }),
  // Room for a file just over the form's limit, so it gets the form's message rather than the body's.
  action('employee/submit', 'employeeSubmit', 'The employee submits the form, checked as on the page: review starts, data_version + 1', SubmitBody, steps.employeeSubmit, { name: 'employeeSubmit', fields: ['details', 'identity_document'] }, undefined, SUBMIT_BODY_LIMIT),
  action('employee/sign', 'employeeSign', 'The employee signs the contract', NoBody, act.employeeSign, { name: 'employeeSign' }),
  action('manager/correct', 'managerCorrect', 'The manager corrects data returned to the manager: review again, data_version + 1', NoBody, act.managerCorrect, { name: 'managerCorrect' }),
  action('change-terms', 'changeTerms', 'The dashboard changes employment terms: data_version + 1, approvals lapse, review again', TermsBody, act.changeTerms, { name: 'changeTerms', fields: ['contract_type', 'hours_per_week', 'hourly_wage_cents', 'position', 'start_date'] }, act.requireTerms),
  action('return', 'returnForCorrection', 'The dashboard returns the data for correction to the employee or the manager', ReturnBody, act.returnForCorrection, { name: 'returnForCorrection', fields: ['to', 'reason'] }),
  action('verify-identity', 'dashboardVerifyIdentity', 'A manager confirms the identity check in the dashboard', VerifyBody, act.verifyIdentity, { name: 'verifyIdentity', fields: ['user_id'] }),
  action('approve', 'dashboardApprove', 'A user of the organization approves in one role in the dashboard (four-eyes rules apply)', ApproveBody, act.approve, { name: 'approve', fields: ['role', 'user_id', 'data_version'] }),
  action('send-contract', 'dashboardSendContract', 'The dashboard creates the contract and sends it to the employee (as POST /v1/onboardings/{id}/contract)', NoBody, act.sendContract, { name: 'sendContract' }),
  action('employer-sign', 'employerSign', 'The employer signs the contract: payroll processing starts', NoBody, act.employerSign, { name: 'employerSign' }),
  action('payroll/complete', 'payrollComplete', 'Payroll processing succeeds: completed', NoBody, act.payrollComplete, { name: 'payrollComplete' }),
  action('payroll/fail', 'payrollFail', 'Payroll processing fails: action_required (error_code defaults to the organization\'s)', PayrollFailBody, act.payrollFail, { name: 'payrollFail', fields: ['error_code'] }),
  action('resolve', 'resolveAction', 'The dashboard resolves action_required: payroll is redone and succeeds', NoBody, act.resolveAction, { name: 'resolve' }),
  action('send-reminder', 'sendReminder', 'The dashboard sends the employee a reminder mail (outbox)', NoBody, act.sendReminder, { name: 'sendReminder' }),
  action('cancel', 'dashboardCancel', 'The dashboard cancels the onboarding', NoBody, act.cancel, { name: 'cancel' }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/organizations/:id',
    operationId: 'getOrganizationSettings', summary: 'The settings of an organization (employer or partner)',
    params: OrganizationIdParam,
    responses: { 200: { description: 'The settings', schema: OrganizationSettings }, 404: errors },
    handle: (ctx) => ok(renderSettings(findOrganization(ctx.workspace, ctx.params.id!))),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'PATCH', path: '/_emulator/organizations/:id',
    operationId: 'patchOrganizationSettings',
    summary: 'Change organization settings: API approvals, subscription, allowed origins, payroll failure, branding, partner admissions',
    params: OrganizationIdParam, body: PatchOrganizationBody,
    responses: { 200: { description: 'The settings after the change', schema: OrganizationSettings }, 404: errors, 422: errors },
    handle: (ctx) => ok(renderSettings(patchOrganization(ctx.workspace, ctx.params.id!, ctx.body))),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/outbox', showsSecrets: true,
    operationId: 'getOutbox', summary: 'Intercepted e-mails (invitations, new links, reminders, contracts), oldest first',
    query: OutboxQuery,
    responses: { 200: { description: 'The mails', schema: Outbox }, 422: errors },
    client: { name: 'outbox', args: 'query', pick: 'data' },
    handle: (ctx) => ok({ data: listOutbox(ctx.workspace, ctx.query) }),
  }),
  defineControlRoute({
    kind: 'control', perWorkspace: true, tag, method: 'GET', path: '/_emulator/audit-log',
    operationId: 'getAuditLog', summary: 'The audit log of document downloads, oldest first',
    responses: { 200: { description: 'The entries', schema: AuditLog } },
    handle: (ctx) => ok({ data: [...ctx.workspace.auditLog] }),
  }),
] satisfies ControlRoute<ControlHost>[];
