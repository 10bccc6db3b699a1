import { DEFAULT_PAGE_LIMIT } from '../common.schemas.js';
import { mapPage, paginate, type PageRequest } from '../../core/pagination.js';
import type { Workspace } from '../../core/workspace.js';
import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { renderEmployee } from './employees.view.js';

/** Same visibility as onboardings: environment, employer, and for a partner its own only. */
export function listEmployees(ws: Workspace, p: Principal, q: PageRequest) {
  const visible = ws.store.employees
    .values()
    .filter((e) => visibleTo(e, p))
    .reverse();
  return mapPage(paginate(visible, (e) => e.id, q, { defaultLimit: DEFAULT_PAGE_LIMIT }), (e) => renderEmployee(ws, e));
}
