import { Type } from '../../core/schema.js';
import { DateOnly, Literals, pageQuery } from '../common.schemas.js';
import { ONBOARDING_STATUSES } from '../onboardings/onboardings.model.js';

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

export const ListEmployeesQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
