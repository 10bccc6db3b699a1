import { Type } from '../../core/schema.js';
import { CONTRACT_TYPES, SCOPES } from './organizations.model.js';
import { ListOf, Literals, Nullable } from '../common.schemas.js';

export const OrganizationSchema = Type.Object(
  {
    id: Type.String({ pattern: '^org_' }),
    name: Type.String(),
    locations: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), city: Type.String() })),
    templates: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        contract_type: Literals(CONTRACT_TYPES),
        cao: Type.String(),
      }),
    ),
    branding: Type.Object({ color: Nullable(Type.String()), logo_url: Nullable(Type.String()) }),
    allowed_origins: Type.Array(Type.String()),
  },
  { title: 'Organization' },
);

const OrganizationListItemSchema = Type.Object(
  {
    id: Type.String({ pattern: '^org_' }),
    object: Type.Literal('organization'),
    name: Type.String(),
    permissions: Type.Array(Literals(SCOPES)),
  },
  { title: 'OrganizationListItem' },
);

export const OrganizationList = ListOf(OrganizationListItemSchema, 'OrganizationListItem');

export const NoQuery = Type.Object({}, { additionalProperties: false });
