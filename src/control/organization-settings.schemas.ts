import { Type, type Static } from '../core/schema.js';
import { DateTime, Literals, Nullable } from '../resources/common.schemas.js';
import { SCOPES } from '../resources/organizations/organizations.model.js';

/** What the back office of the real service sets for an organization (control API). */
const Strict = { additionalProperties: false } as const;
const Subscription = Literals(['active', 'trial', 'none']);
const Origins = Type.Array(Type.String({ minLength: 1 }), {
  uniqueItems: true,
  description: 'host names, or *. and a domain for its subdomains; kept trimmed, in lower case, without scheme, port or path; an entry naming no host is refused',
});

export const PatchOrganizationBody = Type.Object(
  {
    api_approvals: Type.Optional(Type.Boolean({ description: 'approvals and identity checks through the API allowed' })),
    subscription: Type.Optional(Subscription),
    trial_ends_at: Type.Optional(Nullable(DateTime)),
    allowed_origins: Type.Optional(Origins),
    payroll_failure: Type.Optional(
      Type.Object(
        { enabled: Type.Boolean(), error_code: Type.Optional(Type.String({ minLength: 1 })) },
        { ...Strict, description: 'when enabled, payroll processing fails with error_code (sandbox and scenarios)' },
      ),
    ),
    branding: Type.Optional(
      Type.Object({ color: Type.Optional(Nullable(Type.String())), logo_url: Type.Optional(Nullable(Type.String())) }, Strict),
    ),
    admissions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            organization_id: Type.String({ minLength: 1, description: 'the employer admitting the partner' }),
            active: Type.Optional(Type.Boolean({ description: 'false ends the relationship; default true' })),
            scopes: Type.Optional(Type.Array(Literals(SCOPES), { uniqueItems: true, description: 'the scopes granted; required for a new admission' })),
          },
          Strict,
        ),
        { description: 'partners only: admit the partner, change its scopes, or end the relationship' },
      ),
    ),
  },
  { ...Strict, title: 'PatchOrganizationSettingsRequest' },
);
export type PatchOrganizationBody = Static<typeof PatchOrganizationBody>;

export const OrganizationSettings = Type.Object(
  {
    id: Type.String(),
    kind: Literals(['employer', 'partner']),
    name: Type.String(),
    subscription: Subscription,
    trial_ends_at: Nullable(DateTime),
    api_approvals: Type.Boolean(),
    allowed_origins: Type.Array(Type.String()),
    branding: Type.Object({ color: Nullable(Type.String()), logo_url: Nullable(Type.String()) }),
    payroll_connector: Type.String(),
    payroll_failure: Type.Object({ enabled: Type.Boolean(), error_code: Type.String() }),
    admissions: Type.Array(
      Type.Object({ organization_id: Type.String(), active: Type.Boolean(), scopes: Type.Array(Literals(SCOPES)) }),
      { description: 'partners: the employers that admitted them; empty for employers' },
    ),
  },
  { title: 'OrganizationSettings' },
);

export const OrganizationIdParam = Type.Object({ id: Type.String() });
