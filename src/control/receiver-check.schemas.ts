import { Type, type Static } from '../core/schema.js';
import { DEFAULT_BURST, MAX_BURST, MAX_TIMEOUT_MS } from '../delivery/receiver-check.js';
import { RECEIVER_CHECKS } from '../delivery/receiver-check.checks.js';
import { DateTime, Literals, Nullable } from '../resources/common.schemas.js';

/** POST /_emulator/receiver-checks: the body it validates and the report it answers (docs/receiver-check.md). */
export const ReceiverCheckBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: "the receiver's address; the emulator's webhook URL policy applies" }),
    secret: Type.String({ minLength: 1, maxLength: 200, description: 'the secret the receiver verifies with (whsec_...)' }),
    previous_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the receiver's previous secret, when it has one; the rotation check co-signs with it" })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_MS, description: `how long each answer may take; default and at most ${MAX_TIMEOUT_MS} (the spec's wait)` })),
    burst: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BURST, description: `messages sent at once in the burst check; default ${DEFAULT_BURST}` })),
  },
  { additionalProperties: false, title: 'ReceiverCheckRequest' },
);
export type ReceiverCheckBody = Static<typeof ReceiverCheckBody>;

const CheckResultSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    name: Literals(RECEIVER_CHECKS.map((c) => c.name)),
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
