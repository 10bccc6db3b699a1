import type { Workspace } from '../../core/workspace.js';
import type { EmployeeRecord } from './employees.model.js';

/** The public Employee, with the status of the onboarding it came from. */

export function renderEmployee(ws: Workspace, e: EmployeeRecord) {
  const onboarding = e.onboarding_id ? ws.store.onboardings.get(e.onboarding_id) : undefined;
  return {
    id: e.id,
    first_name: e.first_name,
    last_name: e.last_name,
    position: e.position,
    location_id: e.location_id,
    start_date: e.start_date,
    onboarding: onboarding ? { id: onboarding.id, status: onboarding.status } : null,
  };
}
