/**
 * A small typed JSON Schema builder: each schema is plain JSON Schema (for ajv and the OpenAPI
 * document) that also carries its TypeScript type, so one definition gives validation, types
 * and documentation. It covers exactly what the project uses; a general library of this kind
 * took a fifth of the start-up time to load (docs/decisions.md).
 *
 * A `title` names a schema: the OpenAPI document lists each titled schema once under
 * components.schemas and refers to it by `$ref`, so generated clients get a type of that name.
 * ajv ignores titles, so naming a schema never changes what it accepts; two different schemas
 * may not share a title (the document refuses to build).
 */

export type JsonSchema = { [keyword: string]: unknown };
/** A JSON Schema whose validated value has type T (the `~` keys exist at the type level only). */
export type TSchema<T = unknown> = JsonSchema & { readonly '~static'?: T };
export type TOptional<T> = TSchema<T> & { readonly '~optional': true };

export type Static<S> = S extends TSchema<infer T> ? T : never;

/** Marks a property optional at run time (for `required`); symbols vanish from JSON. */
const OPTIONAL = Symbol('optional');

type Props = Record<string, TSchema>;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<P extends Props> = { [K in keyof P]: P[K] extends TOptional<unknown> ? never : K }[keyof P];
type OptionalKeys<P extends Props> = Exclude<keyof P, RequiredKeys<P>>;
type ObjectOf<P extends Props> = Flatten<
  { [K in RequiredKeys<P>]: Static<P[K]> } & { [K in OptionalKeys<P>]?: Static<P[K]> }
>;

const withType = <T>(schema: JsonSchema): TSchema<T> => schema as TSchema<T>;

function object<P extends Props>(properties: P, options: JsonSchema = {}): TSchema<ObjectOf<P>> {
  const required = Object.keys(properties).filter((k) => !(OPTIONAL in properties[k]!));
  return withType({ ...options, type: 'object', properties, ...(required.length ? { required } : {}) });
}

export const Type = {
  Object: object,
  String: (options: JsonSchema = {}) => withType<string>({ ...options, type: 'string' }),
  Number: (options: JsonSchema = {}) => withType<number>({ ...options, type: 'number' }),
  Integer: (options: JsonSchema = {}) => withType<number>({ ...options, type: 'integer' }),
  Boolean: (options: JsonSchema = {}) => withType<boolean>({ ...options, type: 'boolean' }),
  Null: () => withType<null>({ type: 'null' }),
  Unknown: (options: JsonSchema = {}) => withType<unknown>({ ...options }),
  Literal: <const V extends string | number | boolean>(value: V) => withType<V>({ const: value, type: typeof value }),
  Array: <T>(items: TSchema<T>, options: JsonSchema = {}) => withType<T[]>({ ...options, type: 'array', items }),
  Union: <S extends TSchema[]>(schemas: [...S], options: JsonSchema = {}) => withType<Static<S[number]>>({ ...options, anyOf: schemas }),
  Optional: <T>(schema: TSchema<T>): TOptional<T> => ({ ...schema, [OPTIONAL]: true }) as unknown as TOptional<T>,
  /** Any hand-written schema, with the type it stands for. */
  Unsafe: <T>(schema: JsonSchema) => withType<T>(schema),
};

/** A schema as plain JSON: the symbol marking optional properties dropped (JSON round trip). */
export const plainSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
