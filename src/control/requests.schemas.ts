import { FAULT_METHODS } from '../core/faults.js';
import { JOURNAL_LIMIT, JOURNAL_MAX_LIMIT } from '../core/journal.js';
import { Type, type Static } from '../core/schema.js';
import { DateTime, Literals, Nullable } from '../resources/common.schemas.js';

const Strict = { additionalProperties: false } as const;
const Count = Type.Integer({ minimum: 0, maximum: JOURNAL_MAX_LIMIT });

/** The fields a request is found by, in a query (GET) and in a matcher (verify) alike. */
export const filterFields = {
  method: Type.Optional(Literals(FAULT_METHODS)),
  path: Type.Optional(Type.String({ minLength: 1, pattern: '^/', description: 'an exact path, or a prefix ending in * (/v1/onboardings*)' })),
  status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
  error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  key: Type.Optional(Type.String({ minLength: 1, description: 'the full key (or its masked form as the journal shows it)' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'requests at or after this instant of the workspace clock' })),
  onboarding_id: Type.Optional(Type.String({ minLength: 1, description: 'named in the path, the body or the answer' })),
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'the Idempotency-Key sent, exactly' })),
  has_idempotency_key: Type.Optional(Type.Boolean({ description: 'whether an Idempotency-Key was sent at all (false finds the POSTs a blind retry could repeat)' })),
  replayed: Type.Optional(Type.Boolean({ description: 'whether the answer was the replay of an earlier one' })),
};

export const RequestsQuery = Type.Object(
  {
    ...filterFields,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: JOURNAL_LIMIT, description: 'default 100' })),
    starting_after: Type.Optional(Type.String({ minLength: 1, description: 'the id of the last request of the previous page' })),
    unmatched: Type.Optional(Type.Boolean({ description: 'true: instead of the workspace\'s journal, the /v1 requests that reached no workspace (no key, an unknown key) and the paths no route serves, emulator-wide, each with its near miss' })),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('har')], {
      description: 'har: the matching requests as an HTTP Archive (HAR 1.2), oldest first, every one unless limit is given (the same filters and cursor apply)',
    })),
  },
  Strict,
);
export type RequestsQuery = Static<typeof RequestsQuery>;

const RequestMatcherSchema = Type.Object(
  { ...filterFields, body_includes: Type.Optional(Type.Unknown({ description: 'fields the body must hold with these values (objects by subset, arrays item by item)' })) },
  { ...Strict, title: 'RequestMatcher' },
);

export const VerifyRequestsBody = Type.Object(
  {
    matcher: RequestMatcherSchema,
    expected: Type.Union(
      [
        Type.Object({ exactly: Count }, Strict),
        Type.Object({ at_least: Count }, Strict),
        Type.Object({ at_most: Count }, Strict),
      ],
      { description: 'exactly one of exactly, at_least, at_most' },
    ),
  },
  { ...Strict, title: 'VerifyRequestsRequest' },
);
export type VerifyRequestsBody = Static<typeof VerifyRequestsBody>;

export const JournalEntrySchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('request'),
    at: DateTime,
    key: Type.String({ description: 'masked: a recognisable prefix and suffix, never the whole key' }),
    method: Type.String(),
    path: Type.String(),
    query: Type.Object({}),
    headers: Type.Object({ idempotency_key: Nullable(Type.String()), service_version: Nullable(Type.String()), service_organization: Nullable(Type.String()) }),
    body: Type.Unknown({ description: 'the parsed JSON body as sent; null when none, or when it was larger than 64 KB (body_bytes says how large)' }),
    body_bytes: Nullable(Type.Integer({ description: 'the body\'s size as sent, in bytes; null when none was read' })),
    status: Type.Integer(),
    error_code: Nullable(Type.String()),
    replayed: Type.Boolean(),
    answered: Type.Boolean({ description: 'false when an injected fault dropped the answer after the request ran; status is what it would have been' }),
    duration_ms: Nullable(Type.Number({ description: 'null when read back from a snapshot' })),
    onboarding_ids: Type.Array(Type.String()),
    trace_id: Type.Optional(Type.String({ description: 'with tracing on (docs/tracing.md): the trace id of the request\'s span, 32 hex digits; absent when read back from a snapshot' })),
    unmatched: Type.Optional(Type.Object({
      reason: Type.Union([Type.Literal('no_key'), Type.Literal('unknown_key'), Type.Literal('no_route')]),
      near_route: Nullable(Type.String({ description: 'no_route: the methods and path nearest the one sent' })),
      near_key: Nullable(Type.String({ description: 'unknown_key: the key nearest the one sent; no_key: the key sent in the wrong place' })),
      hint: Nullable(Type.String()),
    }, { description: 'only on ?unmatched=true: why the request reached no workspace, and what it most likely meant' })),
  },
  { title: 'RecordedRequest' },
);

export const RequestList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(JournalEntrySchema),
    has_more: Type.Boolean(),
    next_cursor: Nullable(Type.String()),
    total: Type.Integer({ description: 'requests matching the filters, on every page' }),
    dropped: Type.Integer({ description: 'older requests dropped to keep the journal bounded' }),
    limit: Type.Integer({ minimum: 0, maximum: JOURNAL_MAX_LIMIT, description: 'requests the journal keeps (--journal-limit); 0: the journal is off and records nothing' }),
  },
  { title: 'RequestList' },
);

export const Verification = Type.Object(
  {
    ok: Type.Boolean(),
    count: Type.Integer(),
    expected: Type.Object({}),
    nearest: Type.Array(Type.Object({ request: JournalEntrySchema, differs: Type.Array(Type.String()) })),
  },
  { title: 'RequestVerification' },
);

export const RequestsCleared = Type.Object({ deleted: Type.Integer(), dropped: Type.Integer() }, { title: 'RequestsCleared' });
