import { ErrorSchema, ListOf } from '../common.schemas.js';
import { defineRoute, type ApiRoute } from '../route.js';
import { ok } from '../../operations/reply.js';
import { EmployeeSchema, ListEmployeesQuery } from './employees.schemas.js';
import { listEmployees } from './employees.service.js';

export const employeeRoutes: ApiRoute[] = [
  defineRoute({
    kind: 'api', method: 'GET', path: '/v1/employees', tag: 'Employees', scope: 'employees:read',
    operationId: 'listEmployees', summary: 'List employees, newest first',
    query: ListEmployeesQuery,
    responses: { 200: { description: 'A page of employees', schema: ListOf(EmployeeSchema, 'Employee') }, 422: { description: 'Error', schema: ErrorSchema } },
    handle: (ctx) => ok(listEmployees(ctx.workspace, ctx.principal, ctx.query)),
  }),
];
