import type { Environment } from '../organizations/organizations.model.js';

export interface EmployeeRecord {
  id: string;
  seq: number;
  environment: Environment;
  organization_id: string;
  /** Set when a partner's key created the onboarding that brought this employee in. */
  partner_id: string | null;
  first_name: string;
  last_name: string;
  position: string;
  location_id: string;
  start_date: string;
  onboarding_id: string | null;
}
