import { Type, type TSchema } from '../core/schema.js';

/** Schemas shared by several resources; one definition feeds ajv and the OpenAPI document. */
export const DateTime = Type.String({ format: 'date-time' });
export const DateOnly = Type.String({ format: 'date' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const METADATA_KEY_PATTERN = '^[A-Za-z0-9_.-]{1,40}$';
export const METADATA_MAX_KEYS = 20;
const METADATA_MAX_TEXT = 500;

const MetadataValue = Type.Union([Type.String({ maxLength: METADATA_MAX_TEXT }), Type.Number(), Type.Boolean()]);

export type MetadataValue = string | number | boolean;
export type Metadata = Record<string, MetadataValue>;

/** Spec "Metadata rules": at most 20 keys of letters, digits, _ . - (max 40), text at most 500. */
export const MetadataSchema = Type.Unsafe<Metadata>({
  type: 'object',
  maxProperties: METADATA_MAX_KEYS,
  propertyNames: { pattern: METADATA_KEY_PATTERN },
  additionalProperties: MetadataValue,
  title: 'Metadata',
  description: 'At most 20 keys (letters, digits, underscore, dot, hyphen; at most 40 characters); values string (at most 500 characters), number or boolean.',
});

/**
 * On PATCH a null value deletes the key. The 20-key limit applies to the merged result (checked
 * by the merge), so a patch may name more keys when some of them are deletions.
 */
export const MetadataPatchSchema = Type.Unsafe<Record<string, MetadataValue | null>>({
  type: 'object',
  propertyNames: { pattern: METADATA_KEY_PATTERN },
  additionalProperties: Type.Union([MetadataValue, Type.Null()]),
  title: 'MetadataPatch',
  description: 'Merged into the stored metadata; null deletes a key. The merged metadata holds at most 20 keys.',
});

export const PAGE_LIMIT_MAX = 100;

/** The page size of a list when the client sends no limit (spec: 25, events 50). */
export const DEFAULT_PAGE_LIMIT = 25;

/**
 * The paging parameters of a list. The service pages with the same `defaultLimit` it gives
 * here: the schema's `default` is what the document promises (ajv does not fill it in).
 */
export const pageQuery = (defaultLimit = DEFAULT_PAGE_LIMIT) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: defaultLimit, description: `1 to 100; default ${defaultLimit}` })),
  starting_after: Type.Optional(Type.String({ minLength: 1, description: 'next_cursor of the previous page' })),
});

export const ListOf = <T extends TSchema>(item: T, name: string) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String()),
    },
    { title: `${name}List` },
  );

export const IdParam = Type.Object({ id: Type.String() });

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      type: Type.Union(
        ['invalid_request', 'authentication_error', 'permission_error', 'not_found', 'conflict', 'rate_limited', 'api_error'].map(
          (t) => Type.Literal(t),
        ),
      ),
      code: Type.String(),
      message: Type.String(),
      param: Type.Optional(Type.String()),
      request_id: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String(), hint: Type.Optional(Type.String()) }))),
    }),
  },
  { title: 'Error' },
);

/** A union of string literals whose static type stays the literal union. */
export const Literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));
