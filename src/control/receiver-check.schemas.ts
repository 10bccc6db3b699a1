import { Type, type Static } from '../core/schema.js';
import { PATH_WITH_PLACEHOLDER } from '../core/placeholders.js';
import { DEFAULT_BURST, MAX_BURST, MAX_TIMEOUT_MS } from '../receiver-check/receiver-check.js';
import { ALL_CHECK_NAMES, DEFAULT_FETCH_WITHIN_MS, FETCH_METHODS, MAX_FETCH_WITHIN_MS } from '../receiver-check/receiver-check.checks.js';
import { DateTime, Literals, Nullable } from '../resources/common.schemas.js';

/** POST /_emulator/receiver-checks: the body it validates and the report it answers (docs/receiver-check.md). */
export const ReceiverCheckBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: "the receiver's address; the emulator's webhook URL policy applies" }),
    secret: Type.String({ minLength: 1, maxLength: 200, description: 'the secret the receiver verifies with (whsec_...)' }),
    previous_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the receiver's previous secret, when it has one; the rotation check co-signs with it" })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS, description: `how long each answer may take; default and at most ${MAX_TIMEOUT_MS} (the spec's wait)` })),
    burst: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BURST, description: `messages sent at once in the burst check; default ${DEFAULT_BURST}` })),
    expect_fetch: Type.Optional(
      Type.Object(
        {
          method: Type.Optional(Literals(FETCH_METHODS)),
          path: Type.String({ minLength: 1, maxLength: 500, pattern: PATH_WITH_PLACEHOLDER, description: 'the path the receiver calls for each new event, holding {onboarding_id}, e.g. /v1/onboardings/{onboarding_id}' }),
          within_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FETCH_WITHIN_MS, description: `how long to wait after the burst for the calls; default ${DEFAULT_FETCH_WITHIN_MS}` })),
        },
        {
          additionalProperties: false,
          title: 'ReceiverCheckExpectFetch',
          description: "adds check 12 (fetched_after_event, required): the receiver must call this path once for each new event's onboarding, the repeat adding none, as the workspace's request journal shows",
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'ReceiverCheckRequest' },
);
export type ReceiverCheckBody = Static<typeof ReceiverCheckBody>;

const CheckResultSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    name: Literals([...ALL_CHECK_NAMES]),
    title: Type.String(),
    required: Type.Boolean({ description: 'failing a required check fails the run; an optional one not met is a warning' }),
    grade: Literals(['passed', 'failed', 'warning', 'skipped']),
    reason: Type.String(),
    status: Nullable(Type.Integer({ description: 'the status the receiver answered; null when none came' })),
    ms: Nullable(Type.Integer({ description: 'how long the answer took (the slowest of several)' })),
  },
  { title: 'ReceiverCheckResult' },
);

export const ReceiverCheckReportSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'false when a required check failed' }),
    url: Type.String(),
    checks: Type.Array(CheckResultSchema, { description: 'in the order they ran' }),
    started_at: DateTime,
    duration_ms: Type.Integer({ minimum: 0 }),
  },
  { title: 'ReceiverCheckReport' },
);

export const ReceiverCheckQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('junit'), Type.Literal('ctrf')], { description: 'junit: JUnit XML, one testcase per check; ctrf: a CTRF report (JSON), one test per check' })),
  },
  { additionalProperties: false },
);
