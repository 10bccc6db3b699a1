import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { TSchema } from './schema.js';
import { ApiError, type ErrorCode } from './errors.js';
import { makeAjv, schemaKey } from './ajv.js';

export interface Mistake {
  path: string;
  message: string;
  code: ErrorCode;
}

export type Validator<T> = (data: unknown) => { ok: true; value: T } | { ok: false; mistakes: Mistake[] };

/**
 * Validators the build precompiled (dist only: `validators/<key>.cjs`, one module per schema),
 * each loaded when its schema is first used, so a start loads only what it validates. Running
 * from source there are none, and schemas are compiled on first use instead.
 */
const require = createRequire(import.meta.url);
const PRECOMPILED = new URL('./validators/', import.meta.url);

function precompiledValidator(key: string): ValidateFunction | undefined {
  try {
    return (require(`./validators/${key}.cjs`) as Record<string, ValidateFunction>)[key];
  } catch {
    return undefined;
  }
}

/** @public read by the build's own test, which loads dist/ by path */
export const precompiledCount = (): number => {
  try {
    return readdirSync(PRECOMPILED).filter((f) => f.endsWith('.cjs')).length;
  } catch {
    return 0;
  }
};
/** @public as precompiledCount */
export const isPrecompiled = (schema: TSchema, coerce = false): boolean => existsSync(new URL(`${schemaKey(schema, coerce)}.cjs`, PRECOMPILED));

/** Bodies and documents are validated as sent; query strings are coerced to their declared types. */
const compilers: { exact?: Ajv2020; coercing?: Ajv2020 } = {};
const cache = new WeakMap<TSchema, ValidateFunction>();
const coercingCache = new WeakMap<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema, coerce: boolean): ValidateFunction {
  const store = coerce ? coercingCache : cache;
  let fn = store.get(schema);
  if (!fn) {
    fn = precompiledValidator(schemaKey(schema, coerce));
    if (!fn) {
      const ajv = coerce ? (compilers.coercing ??= makeAjv(true)) : (compilers.exact ??= makeAjv(false));
      fn = ajv.compile(schema);
    }
    store.set(schema, fn);
  }
  return fn;
}

/** The validator is made on its first use, so building the app compiles nothing. */
export function compile<T>(schema: TSchema, options: { coerce?: boolean } = {}): Validator<T> {
  let fn: ValidateFunction | undefined;
  return (data) => {
    fn ??= validatorFor(schema, options.coerce === true);
    return fn(data) ? { ok: true, value: data as T } : { ok: false, mistakes: describe(fn.errors ?? []) };
  };
}

/** Throws the first mistake as a 422 in the spec's envelope. */
export function check<T>(validator: Validator<T>, data: unknown, prefix = ''): T {
  const result = validator(data);
  if (result.ok) return result.value;
  const first = result.mistakes[0]!;
  const param = prefix && first.path ? `${prefix}.${first.path}` : prefix || first.path;
  throw new ApiError(first.code, param ? `${param}: ${first.message}` : first.message, param || undefined);
}

/** "/employee/email" -> "employee.email"; "/organizations/0/id" -> "organizations[0].id". */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/** A field's path under its object's (`rules[0].employee` + `opens`). */
export const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

/**
 * Was a mistake reported at a path, or under one of its fields (`rules[0]` for
 * `rules[0].match`)? One set for every question, rather than a look at every mistake for each:
 * a document of 60,000 wrong entries asked 60,000 times took minutes.
 */
export function reportedAt(mistakes: readonly { path: string }[]): (path: string) => boolean {
  const paths = new Set<string>();
  for (const { path } of mistakes) {
    for (let at = path; !paths.has(at); at = at.slice(0, at.lastIndexOf('.'))) {
      paths.add(at);
      if (!at.includes('.')) break;
    }
  }
  return (path) => paths.has(path);
}

/**
 * The failed anyOfs among ajv's errors, indexed: which ones an error sits inside (its schema
 * path under theirs, its value theirs or one they hold), innermost first, and which of them
 * hold a type error, or another one, inside. Read once per error, so a body failing thousands of
 * unions (metadata of thousands of keys) is described in linear time: matching every error
 * against every union took 80 s for 8,000 keys.
 */
function failedUnions(errors: readonly ErrorObject[]) {
  const at = new Map<string, ErrorObject>();
  for (const e of errors) {
    const key = `${e.instancePath} ${e.schemaPath}`;
    if (e.keyword === 'anyOf' && !at.has(key)) at.set(key, e);
  }
  const enclosing = (e: ErrorObject): ErrorObject[] => {
    const found: ErrorObject[] = [];
    if (at.size === 0) return found;
    for (let end = e.schemaPath.lastIndexOf('/anyOf/'); end !== -1; end = e.schemaPath.lastIndexOf('/anyOf/', end - 1)) {
      const schemaPath = e.schemaPath.slice(0, end + '/anyOf'.length);
      for (let value = e.instancePath; ; value = value.slice(0, value.lastIndexOf('/'))) {
        const union = at.get(`${value} ${schemaPath}`);
        if (union) found.push(union);
        if (value === '') break;
      }
    }
    return found;
  };
  const holdsType = new Set<ErrorObject>();
  const holdsOther = new Set<ErrorObject>();
  for (const e of errors) {
    for (const union of enclosing(e)) (e.keyword === 'type' ? holdsType : e.keyword === 'const' ? undefined : holdsOther)?.add(union);
  }
  return { enclosing, holdsType, holdsOther };
}

/** Turns ajv errors into plain sentences; a failed anyOf is reported once, not per branch. */
function describe(errors: ErrorObject[]): Mistake[] {
  // Inside a failed anyOf, a branch that failed on something other than its type is the one the
  // sender meant (a too-long string among string|number|boolean): report that branch instead.
  const unions = failedUnions(errors);
  const notType = (e: ErrorObject) => e.keyword !== 'type' && e.keyword !== 'const';
  const kept = errors.filter((e) => {
    const owner = unions.enclosing(e)[0];
    if (owner) return notType(e) && unions.holdsType.has(owner);
    if (e.keyword === 'anyOf') return !(unions.holdsType.has(e) && unions.holdsOther.has(e));
    return true;
  });
  const seen = new Set<string>();
  const out: Mistake[] = [];
  for (const e of kept) {
    if (e.keyword === 'propertyNames') continue; // reported through its inner 'pattern' error
    const m = mistake(e);
    const id = `${m.path}|${m.message}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(m);
    }
  }
  // Missing and unknown fields first: they are the likeliest cause of the others.
  const rank = (c: ErrorCode) => (c === 'parameter_missing' ? 0 : c === 'parameter_unknown' ? 1 : 2);
  return out.sort((a, b) => rank(a.code) - rank(b.code));
}

function mistake(e: ErrorObject): Mistake {
  const path = pathOf(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const invalid = (message: string, at = path): Mistake => ({ path: at, message, code: 'parameter_invalid' });
  if (e.propertyName !== undefined) {
    return invalid(`the key "${e.propertyName}" is not allowed: use 1 to 40 letters, digits, underscores, dots or hyphens`, path);
  }
  switch (e.keyword) {
    case 'required':
      return { path: join(path, String(p.missingProperty)), message: 'is required', code: 'parameter_missing' };
    case 'additionalProperties':
      return { path: join(path, String(p.additionalProperty)), message: 'is not a known field', code: 'parameter_unknown' };
    case 'type':
      return invalid(`must be ${article(String(p.type))}`);
    case 'minimum':
    case 'exclusiveMinimum':
      return invalid(`must be at least ${String(p.limit)}`);
    case 'maximum':
    case 'exclusiveMaximum':
      return invalid(`must be at most ${String(p.limit)}`);
    case 'minLength':
      return invalid(p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`);
    case 'maxLength':
      return invalid(`must be at most ${String(p.limit)} characters`);
    case 'minProperties':
      return invalid(p.limit === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} keys`);
    case 'maxProperties':
      return invalid(`must have at most ${String(p.limit)} keys`);
    case 'minItems':
      return invalid(p.limit === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} items`);
    case 'maxItems':
      return invalid(`must have at most ${String(p.limit)} items`);
    case 'uniqueItems':
      return invalid('must not repeat an item');
    case 'format':
      return invalid(`must be a valid ${FORMAT_NAMES[String(p.format)] ?? String(p.format)}`);
    case 'pattern':
      return invalid(`must match the pattern ${String(p.pattern)}`);
    case 'const':
      return invalid(`must be ${JSON.stringify(p.allowedValue)}`);
    case 'enum':
      return invalid(`must be one of: ${(p.allowedValues as unknown[]).join(', ')}`);
    case 'anyOf':
      return invalid(anyOfMessage(e));
    default:
      return invalid(e.message ?? 'is not valid');
  }
}

const FORMAT_NAMES: Record<string, string> = {
  email: 'e-mail address',
  date: 'date (YYYY-MM-DD)',
  'date-time': 'date-time (ISO 8601, for example 2026-10-01T09:00:00Z)',
  uri: 'absolute URL',
};

function article(type: string): string {
  const names = type.split(',').map((t) => (t === 'integer' ? 'an integer' : t === 'object' ? 'an object' : t === 'array' ? 'an array' : `a ${t}`));
  return names.join(' or ');
}

/** A union of literals reads as "one of", a union of types as "a string, a number or ...". */
function anyOfMessage(e: ErrorObject): string {
  const branches = (Array.isArray(e.schema) ? e.schema : []) as { const?: unknown; type?: string }[];
  if (branches.length && branches.every((b) => 'const' in b)) {
    return `must be one of: ${branches.map((b) => String(b.const)).join(', ')}`;
  }
  // Two branches of one type (a string pattern or a string literal, say) name it once.
  const types = [...new Set(branches.map((b) => b.type).filter((t): t is string => !!t))];
  if (types.length) return `must be ${types.map(article).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
  return 'is not valid';
}

