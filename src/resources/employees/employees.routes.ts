import { Type } from '../../core/schema.js';
import { visibleTo, type Principal } from '../organizations/organizations.access.js';
import { mapPage, paginate, type PageRequest } from '../../core/pagination.js';
import type { Workspace } from '../../core/workspace.js';
import { DateOnly, ErrorSchema, ListOf, Literals, PageQuery } from '../common.schemas.js';
import { defineRoute, ok, type ApiRoute } from '../route.js';
import { ONBOARDING_STATUSES } from '../onboardings/onboardings.model.js';
import { renderEmployee } from './employees.view.js';

export const EmployeeSchema = Type.Object(
  {
    id: Type.String({ pattern: '^emp_' }),
    first_name: Type.String(),
    last_name: Type.String(),
    position: Type.String(),
    location_id: Type.String(),
    start_date: DateOnly,
    onboarding: Type.Object(
      { id: Type.String(), status: Literals(ONBOARDING_STATUSES) },
      { description: 'the onboarding the employee came from (staff of the fixtures: a completed one)' },
    ),
  },
  { title: 'Employee' },
);

const ListEmployeesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

/** Same visibility as onboardings: environment, employer, and for a partner its own only. */
function listEmployees(ws: Workspace, p: Principal, q: PageRequest) {
  const visible = ws.store.employees
    .values()
    .filter((e) => visibleTo(e, p))
    .reverse();
  return mapPage(paginate(visible, (e) => e.id, q, { defaultLimit: 25 }), (e) => renderEmployee(ws, e));
}

export const employeeRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/employees', tag: 'Employees', scope: 'employees:read',
    operationId: 'listEmployees', summary: 'List employees, newest first',
    query: ListEmployeesQuery,
    responses: { 200: { description: 'A page of employees', schema: ListOf(EmployeeSchema, 'Employee') }, 422: { description: 'Error', schema: ErrorSchema } },
    handle: (ctx) => ok(listEmployees(ctx.workspace, ctx.principal, ctx.query)),
  }),
];
