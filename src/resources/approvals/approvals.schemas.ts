import { Type } from '../../core/schema.js';
import { Literals, pageQuery } from '../common.schemas.js';
import { ROLES } from '../organizations/organizations.model.js';
import { BLOCKED_BY } from './approvals.service.js';

export const ApprovalRequest = Type.Object(
  {
    role: Literals(ROLES),
    data_version: Type.Integer({ description: 'The data_version that was reviewed; must be the current one' }),
  },
  { additionalProperties: false, title: 'ApprovalRequest', examples: [{ role: 'manager', data_version: 2 }] },
);

export const OpenApprovalSchema = Type.Object(
  {
    onboarding_id: Type.String({ pattern: '^onb_' }),
    data_version: Type.Integer(),
    can_approve_as: Type.Array(Literals(ROLES), {
      description: 'Roles the key\'s user holds, the template requires and nobody approved for this data_version; empty once the user approved this version in any role',
    }),
    blocked_by: Type.Array(Literals(BLOCKED_BY), {
      description: 'Why no approval can be given through this key now; empty when one of can_approve_as can be given',
    }),
  },
  { title: 'OpenApproval' },
);

export const ListApprovalsQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
