import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { paginate } from '../../core/pagination.js';
import { Type, type Static } from '../../core/schema.js';
import type { Workspace } from '../../core/workspace.js';
import { DateTime, ErrorSchema, ListOf, Literals, Nullable, PageQuery } from '../common.schemas.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { MANUAL_CONNECTOR } from '../onboardings/onboardings.payroll.js';
import { defineRoute, ok, type ApiRoute } from '../route.js';

/**
 * GET /v1/integrations: the spec leaves the fields "not shown". The emulator answers with a
 * list of the employer's payroll connector (docs/decisions.md): status `failing` while the organization's payroll failure switch is on (never for manual entry, which cannot fail), else `connected`;
 * last_sync the newest payroll outcome among the onboardings this key may see.
 */
const LastSync = Type.Object(
  {
    at: DateTime,
    outcome: Literals(['succeeded', 'failed']),
    onboarding_id: Type.String({ pattern: '^onb_' }),
    error_code: Nullable(Type.String()),
  },
  { title: 'IntegrationSync' },
);

export const IntegrationSchema = Type.Object(
  {
    object: Type.Literal('integration'),
    kind: Type.Literal('payroll'),
    connector: Type.String(),
    status: Literals(['connected', 'failing']),
    last_sync: Nullable(LastSync),
  },
  { title: 'Integration' },
);
type Integration = Static<typeof IntegrationSchema>;
type Sync = Static<typeof LastSync>;

const ListIntegrationsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
const errors = { description: 'Error', schema: ErrorSchema };

/**
 * The payroll outcome of one onboarding, with its instant: success (or a failure resolved by
 * hand) at completed_at; a failure at its integration.sync_failed event, or at the record's
 * last change once that event is purged (30 days).
 */
function syncOf(ws: Workspace, r: OnboardingRecord, connector: string): Sync | null {
  const payroll = r.payroll;
  if (!payroll || payroll.connector !== connector || payroll.status === 'processing') return null;
  if (payroll.status === 'failed') {
    const at = failedEventAt(ws, r.id) ?? r.updated_at;
    return { at, outcome: 'failed', onboarding_id: r.id, error_code: payroll.error_code };
  }
  return r.completed_at ? { at: r.completed_at, outcome: 'succeeded', onboarding_id: r.id, error_code: null } : null;
}

function failedEventAt(ws: Workspace, onboardingId: string): string | undefined {
  return ws.store.events.values().findLast((e) => e.type === 'integration.sync_failed' && e.data.onboarding_id === onboardingId)?.created_at;
}

function integrations(ws: Workspace, p: Principal): Integration[] {
  const org = p.organization;
  const connector = org.payroll_connector;
  let last: Sync | null = null;
  for (const r of ws.store.onboardings.values()) {
    if (!visibleTo(r, p)) continue;
    const sync = syncOf(ws, r, connector);
    if (sync && (last === null || sync.at >= last.at)) last = sync;
  }
  return [{ object: 'integration', kind: 'payroll', connector, status: org.payroll_failure.enabled && connector !== MANUAL_CONNECTOR ? 'failing' : 'connected', last_sync: last }];
}

export const integrationRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/integrations', tag: 'Integrations', scope: 'integrations:read',
    operationId: 'listIntegrations', summary: 'Integrations of the employer and their synchronization status',
    query: ListIntegrationsQuery,
    responses: { 200: { description: 'The payroll connector with its last sync', schema: ListOf(IntegrationSchema, 'Integration') }, 422: errors },
    handle: (ctx) =>
      ok(paginate(integrations(ctx.workspace, ctx.principal), (i) => i.connector, ctx.query, { defaultLimit: 25 })),
  }),
];

