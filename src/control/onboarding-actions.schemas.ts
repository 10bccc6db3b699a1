import { Type, type Static, type TSchema } from '../core/schema.js';
import { Literals } from '../resources/common.schemas.js';
import { ROLES } from '../resources/organizations/organizations.model.js';
import { RETURN_REASON_MAX } from '../resources/onboardings/onboardings.model.js';
import { CreateOnboardingBody, OnboardingSchema } from '../resources/onboardings/onboardings.schemas.js';
import { TEST_DOCUMENTS } from '../resources/onboardings/onboardings.test-values.js';
import { MAX_UPLOAD_BYTES } from '../resources/onboardings/onboardings.employee-form.js';

/** Request and response shapes of the dashboard, employee and back-office actions (control API). */
const Strict = { additionalProperties: false } as const;
const UserId = Type.String({ minLength: 1, description: 'a user of the onboarding\'s organization' });

/** Properties of a plain object schema, to compose a new schema from an existing one. */
const propertiesOf = (schema: TSchema) => schema.properties as Record<string, TSchema>;
const requiredOf = (schema: TSchema) => (schema.required as string[] | undefined) ?? [];

/** The POST /v1/onboardings body plus the organization the dashboard acts for. */
export type DashboardCreateBody = CreateOnboardingBody & { organization_id: string; environment?: 'test' | 'live' };
export const DashboardCreateBody = Type.Unsafe<DashboardCreateBody>({
  ...CreateOnboardingBody,
  title: 'DashboardCreateOnboardingRequest',
  properties: {
    ...propertiesOf(CreateOnboardingBody),
    organization_id: Type.String({ minLength: 1, description: 'the employer whose dashboard creates the onboarding' }),
    environment: Literals(['test', 'live']),
  },
  required: [...requiredOf(CreateOnboardingBody), 'organization_id'],
  examples: ((CreateOnboardingBody.examples as object[] | undefined) ?? []).map((example) => ({ ...example, organization_id: 'org_acme' })),
});

/** The full onboarding, as a reviewer in the dashboard sees it, with the link to hand out. */
export const DashboardCreated = Type.Unsafe<unknown>({
  ...OnboardingSchema,
  title: 'DashboardCreatedOnboarding',
  properties: { ...propertiesOf(OnboardingSchema), hosted_url: Type.String({ format: 'uri' }) },
  required: [...requiredOf(OnboardingSchema), 'hosted_url'],
});

export const ActionResult = Type.Object({ onboarding: OnboardingSchema }, { title: 'ControlActionResult' });

export const NoBody = Type.Object({}, { ...Strict, title: 'EmptyRequest' });

export const OpenBody = Type.Object(
  { code: Type.Optional(Type.String({ minLength: 1, description: 'the one-time code from the mail; without it the link opens unchecked' })) },
  { ...Strict, title: 'EmployeeOpenRequest' },
);
export type OpenBody = Static<typeof OpenBody>;

/** Longer than any value the form takes (100 characters of text), so a long value gets the form's own message. */
const DETAIL_MAX = 1000;
const Typed = (description: string) => Type.Optional(Type.String({ maxLength: DETAIL_MAX, description }));

export const SubmitBody = Type.Object(
  {
    details: Type.Optional(Type.Object(
      {
        street: Typed('as typed in the form'), house_number: Typed('12A'), postcode: Typed('1012 AB'), city: Typed('as typed in the form'),
        birth_date: Typed('YYYY-MM-DD'), iban: Typed('NL91 ABNA 0417 1643 00'), bsn: Typed('111222333'),
      },
      { ...Strict, description: 'the form\'s fields as typed; one left out takes its value of GET /_emulator/test-values (details)' },
    )),
    identity_document: Type.Optional(Type.Union([
      Type.Object({ file_name: Type.String({ minLength: 1, maxLength: DETAIL_MAX }), content_base64: Type.String({ description: 'the file, base64' }) }, Strict),
      Type.Object({ test_document: Literals(TEST_DOCUMENTS.valid.map((d) => d.file_name)) }, Strict),
    ], { description: 'default: the test values\' JPEG' })),
  },
  { ...Strict, title: 'EmployeeSubmitRequest' },
);
export type SubmitBody = Static<typeof SubmitBody>;
/** The form's file limit in base64 (4/3) and room for the fields: as the page's form takes twice the file limit. */
export const SUBMIT_BODY_LIMIT = 2 * MAX_UPLOAD_BYTES;

/** The terms a change may set are the life cycle's (changeTerms), declared beside it. */
export { TermsBody } from '../resources/onboardings/onboardings.schemas.js';

export const ReturnBody = Type.Object(
  {
    to: Literals(['employee', 'manager']),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: RETURN_REASON_MAX, description: "the reviewer's reason, shown to the employee on the hosted form" })),
  },
  { ...Strict, title: 'ReturnForCorrectionRequest' },
);
export type ReturnBody = Static<typeof ReturnBody>;

export const VerifyBody = Type.Object(
  { user_id: Type.Optional(Type.String({ minLength: 1, description: 'a manager of the organization; when left out, no one in particular' })) },
  { ...Strict, title: 'VerifyIdentityRequest' },
);
export type VerifyBody = Static<typeof VerifyBody>;

export const ApproveBody = Type.Object(
  {
    role: Literals(ROLES),
    user_id: UserId,
    data_version: Type.Optional(Type.Integer({ minimum: 1, description: 'default: the current data_version' })),
  },
  { ...Strict, title: 'ControlApproveRequest' },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const PayrollFailBody = Type.Object(
  { error_code: Type.Optional(Type.String({ minLength: 1, description: "default: the organization's payroll_failure.error_code" })) },
  { ...Strict, title: 'PayrollFailRequest' },
);
export type PayrollFailBody = Static<typeof PayrollFailBody>;

export const OnboardingIdParam = Type.Object({ id: Type.String() });

export const OutboxQuery = Type.Object(
  {
    onboarding_id: Type.Optional(Type.String({ minLength: 1 })),
    to: Type.Optional(Type.String({ minLength: 1, description: 'the recipient e-mail address' })),
  },
  Strict,
);
export type OutboxQuery = Static<typeof OutboxQuery>;

const Mail = Type.Object(
  {
    id: Type.String(),
    to: Type.String(),
    kind: Literals(['invitation', 'new_link', 'reminder', 'contract', 'one_time_code']),
    subject: Type.String(),
    link: Type.Union([Type.String(), Type.Null()]),
    code: Type.Union([Type.String(), Type.Null()], { description: 'the one-time code; null in contract mails' }),
    onboarding_id: Type.String(),
    environment: Literals(['test', 'live']),
    sent_at: Type.String({ format: 'date-time' }),
  },
  { title: 'OutboxMail' },
);
export const Outbox = Type.Object({ data: Type.Array(Mail, { description: 'oldest first' }) }, { title: 'Outbox' });

const AuditEntry = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    action: Type.Literal('document.download'),
    key: Type.String(),
    user_id: Type.Union([Type.String(), Type.Null()]),
    organization_id: Type.String(),
    onboarding_id: Type.String(),
    document_id: Type.String(),
    document_kind: Type.String(),
  },
  { title: 'AuditEntry' },
);
export const AuditLog = Type.Object({ data: Type.Array(AuditEntry, { description: 'oldest first' }) }, { title: 'AuditLog' });
