import { Type, type Static } from '../../core/schema.js';
import { CONTRACT_TYPES, ROLES } from '../organizations/organizations.model.js';
import { Literals,
  DateOnly, DateTime, ListOf, MetadataPatchSchema, MetadataSchema, Nullable, pageQuery,
} from '../common.schemas.js';
import { ONBOARDING_STATUSES, PAYROLL_STATUSES, STEP_KINDS, STEP_PHASES } from './onboardings.model.js';


const REFERENCE_MAX = 200;
export const EXPIRES_IN_HOURS = { minimum: 1, maximum: 336, default: 336 } as const;

const Text = Type.String({ minLength: 1 });

export const CreateOnboardingBody = Type.Object(
  {
    reference: Type.Optional(Type.String({ maxLength: REFERENCE_MAX })),
    metadata: Type.Optional(MetadataSchema),
    employee: Type.Object(
      {
        first_name: Text,
        last_name: Text,
        email: Type.String({ format: 'email' }),
        phone: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    employment: Type.Object(
      {
        position: Text,
        start_date: DateOnly,
        location_id: Text,
        template_id: Text,
        contract_type: Type.Optional(Literals(CONTRACT_TYPES)),
        hours_per_week: Type.Number({ minimum: 0, maximum: 60 }),
        hourly_wage_cents: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    ),
    options: Type.Optional(
      Type.Object(
        {
          send_invitation: Type.Optional(Type.Boolean({ default: false })),
          expires_in_hours: Type.Optional(Type.Integer({ ...EXPIRES_IN_HOURS })),
          return_url: Type.Optional(Type.String({ format: 'uri' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'CreateOnboardingRequest',
    // Ids of the default fixtures (Acme Retail), so the example runs as it is against a fresh emulator.
    examples: [{
      reference: 'ats-candidate-4711',
      employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte.deboer@example.com' },
      employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1450 },
    }],
  },
);
export type CreateOnboardingBody = Static<typeof CreateOnboardingBody>;

export const PatchOnboardingBody = Type.Object(
  {
    reference: Type.Optional(Nullable(Type.String({ maxLength: REFERENCE_MAX }))),
    metadata: Type.Optional(MetadataPatchSchema),
  },
  { additionalProperties: false, title: 'UpdateOnboardingRequest' },
);
export type PatchOnboardingBody = Static<typeof PatchOnboardingBody>;

export const HostedLinkBody = Type.Object(
  {
    expires_in_hours: Type.Optional(Type.Integer({ ...EXPIRES_IN_HOURS })),
    send_invitation: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, title: 'HostedLinkRequest' },
);
export type HostedLinkBody = Static<typeof HostedLinkBody>;

/**
 * Employment terms the employer changes (control action change-terms, a scenario's
 * terms_change): one definition for the request schema and the life cycle's changeTerms.
 */
export const TermsBody = Type.Object(
  {
    contract_type: Type.Optional(Literals(CONTRACT_TYPES)),
    hours_per_week: Type.Optional(Type.Number({ minimum: 0, maximum: 60 })),
    hourly_wage_cents: Type.Optional(Type.Integer({ minimum: 1 })),
    position: Type.Optional(Type.String({ minLength: 1 })),
    start_date: Type.Optional(DateOnly),
  },
  { additionalProperties: false, title: 'ChangeTermsRequest', description: 'at least one field' },
);
export type TermsBody = Static<typeof TermsBody>;

export const EmptyBody = Type.Object({}, { additionalProperties: false, title: 'EmptyRequest' });

export const ListOnboardingsQuery = Type.Object(
  {
    status: Type.Optional(Literals(ONBOARDING_STATUSES)),
    reference: Type.Optional(Type.String()),
    updated_since: Type.Optional(DateTime),
    ...pageQuery(),
  },
  { additionalProperties: false },
);
export type ListOnboardingsQuery = Static<typeof ListOnboardingsQuery>;

const Step = Type.Object(
  {
    id: Type.String(),
    phase: Literals(STEP_PHASES),
    kind: Literals(STEP_KINDS),
    title: Type.String(),
    applies: Type.Boolean(),
    done: Type.Boolean(),
  },
  { title: 'OnboardingStep' },
);

export const DocumentSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String(),
    title: Nullable(Type.String()),
    uploaded_at: Type.String(),
    downloadable: Type.Boolean(),
  },
  { title: 'Document' },
);

const employeeSeen = {
  id: Type.String({ pattern: '^emp_' }),
  first_name: Type.String(),
  last_name: Type.String(),
};
const employmentSeen = { position: Type.String(), location_id: Type.String(), start_date: DateOnly };

/** What an onboarding shows in a list and on its own (spec rule 1: lists leave out the rest). */
const onboardingFields = {
  id: Type.String({ pattern: '^onb_' }),
  object: Type.Literal('onboarding'),
  status: Literals(ONBOARDING_STATUSES),
  waiting_on: Type.Array(Type.String()),
  returned: Type.Boolean(),
  employee: Type.Object(employeeSeen),
  employment: Type.Object(employmentSeen),
  workflow: Type.Object({ template_id: Type.String(), version: Type.Integer() }),
  data_version: Type.Integer(),
  approvals: Type.Object({
    required: Type.Array(Literals(ROLES)),
    given: Type.Array(
      Type.Object({ role: Literals(ROLES), valid: Type.Boolean(), data_version: Type.Integer(), at: DateTime }),
    ),
  }),
  contract: Type.Object({ status: Literals(['none', 'sent', 'signed_by_employee', 'signed']) }),
  payroll: Nullable(
    Type.Object({
      status: Literals(PAYROLL_STATUSES),
      connector: Nullable(Type.String()),
      external_id: Nullable(Type.String()),
      error_code: Nullable(Type.String()),
    }),
  ),
  hosted_link: Nullable(
    Type.Object({ status: Literals(['open', 'activated', 'revoked']), expires_at: DateTime, activated: Type.Boolean() }),
  ),
  reference: Nullable(Type.String()),
  metadata: MetadataSchema,
  return_url: Nullable(Type.String()),
  source: Literals(['dashboard', 'api']),
  created_at: DateTime,
  updated_at: DateTime,
};

/** An onboarding in GET /v1/onboardings: no steps, documents, e-mail, phone or terms. */
const OnboardingListItemSchema = Type.Object(onboardingFields, { title: 'OnboardingListItem' });

/**
 * One onboarding, always with its steps and documents; e-mail, phone and the employment terms
 * only for keys that may open the dossier (spec rule 2), so those stay optional.
 */
export const OnboardingSchema = Type.Object(
  {
    ...onboardingFields,
    employee: Type.Object({
      ...employeeSeen,
      email: Type.Optional(Type.String()),
      phone: Type.Optional(Nullable(Type.String())),
    }),
    employment: Type.Object({
      ...employmentSeen,
      contract_type: Type.Optional(Literals(CONTRACT_TYPES)),
      hours_per_week: Type.Optional(Type.Number()),
      hourly_wage_cents: Type.Optional(Type.Integer()),
    }),
    steps: Type.Array(Step),
    documents: Type.Array(DocumentSchema),
  },
  { title: 'Onboarding' },
);

export const OnboardingList = ListOf(OnboardingListItemSchema, 'Onboarding');

export const CreatedOnboardingSchema = Type.Object(
  {
    id: Type.String({ pattern: '^onb_' }),
    object: Type.Literal('onboarding'),
    status: Type.Literal('pending_employee'),
    hosted_url: Type.String({ format: 'uri' }),
    expires_at: DateTime,
    invitation_sent: Type.Boolean(),
    reference: Nullable(Type.String()),
    metadata: MetadataSchema,
  },
  { title: 'CreatedOnboarding' },
);

export const HostedLinkSchema = Type.Object(
  {
    onboarding_id: Type.String(),
    hosted_url: Type.String({ format: 'uri' }),
    expires_at: DateTime,
    invitation_sent: Type.Boolean(),
  },
  { title: 'HostedLink' },
);
