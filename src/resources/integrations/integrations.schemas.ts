import { Type, type Static } from '../../core/schema.js';
import { DateTime, Literals, Nullable, pageQuery } from '../common.schemas.js';

/**
 * GET /v1/integrations: the spec leaves the fields "not shown". The emulator answers with a
 * list of the employer's payroll connector (docs/decisions.md): status `failing` while the organization's payroll failure switch is on (never for manual entry, which cannot fail), else `connected`;
 * last_sync the newest payroll outcome among the onboardings this key may see.
 */
const LastSync = Type.Object(
  {
    at: DateTime,
    outcome: Literals(['succeeded', 'failed']),
    onboarding_id: Type.String({ pattern: '^onb_' }),
    error_code: Nullable(Type.String()),
  },
  { title: 'IntegrationSync' },
);

export const IntegrationSchema = Type.Object(
  {
    object: Type.Literal('integration'),
    kind: Type.Literal('payroll'),
    connector: Type.String(),
    status: Literals(['connected', 'failing']),
    last_sync: Nullable(LastSync),
  },
  { title: 'Integration' },
);
export type Integration = Static<typeof IntegrationSchema>;
export type Sync = Static<typeof LastSync>;

export const ListIntegrationsQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
