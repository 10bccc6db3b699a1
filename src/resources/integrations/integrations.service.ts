import type { Workspace } from '../../core/workspace.js';
import type { OnboardingRecord } from '../onboardings/onboardings.model.js';
import { MANUAL_CONNECTOR } from '../onboardings/onboardings.payroll.js';
import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import type { Integration, Sync } from './integrations.schemas.js';

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

export function integrations(ws: Workspace, p: Principal): Integration[] {
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
