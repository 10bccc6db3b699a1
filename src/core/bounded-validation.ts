import type { TSchema } from './schema.js';
import { compile, type Mistake, type Validator } from './validation.js';

/**
 * Checking a large document (a snapshot of many MB) against its schema in bounded time and
 * memory. ajv in all-errors mode collects one error object per mistake with no ceiling, so a
 * document of millions of wrong items would be held as millions of errors (gigabytes) before
 * one is reported. Here objects and arrays are walked one property and one item at a time, each
 * piece checked by its own schema, and the walk stops once `cap` mistakes are found.
 */
export function mistakesUpTo(schema: TSchema, data: unknown, cap: number): Mistake[] {
  const found: Mistake[] = [];
  walk(schema, data, '', found, cap);
  return found.slice(0, cap);
}

/** Does the value hold more than `max` objects, arrays and values? Counted without recursion, stopping at `max`. */
export function largerThan(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  let seen = 1;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      seen += v.length;
      if (seen > max) return true;
      for (const child of v) stack.push(child);
      continue;
    }
    // Key by key, not Object.values(): an object of 80,000 keys is counted only as far as `max`.
    for (const key in v) {
      if (++seen > max) return true;
      stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return false;
}

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

function walk(schema: TSchema, data: unknown, path: string, found: Mistake[], cap: number): void {
  if (found.length >= cap) return;
  const s = schema as Node;
  const branch = nonNullBranch(s, data);
  if (branch) return walk(branch, data, path, found, cap);
  if (s.type === 'object' && isObject(data) && (isObject(s.properties) || isObject(s.additionalProperties))) {
    add(found, path, checkOf(shallowObject(s), data));
    const properties = (isObject(s.properties) ? s.properties : {}) as Record<string, TSchema>;
    // The document's own keys one by one: thousands of unknown or wrong ones stop at the cap too.
    for (const key of Object.keys(data)) {
      if (found.length >= cap) return;
      const at = path ? `${path}.${key}` : key;
      if (Object.hasOwn(properties, key)) walk(properties[key]!, data[key], at, found, cap);
      else if (s.additionalProperties === false) found.push({ path: at, message: 'is not a known field', code: 'parameter_unknown' });
      else {
        if (isObject(s.propertyNames)) add(found, path, checkOf(keyCheck(s), { [key]: null }));
        if (isObject(s.additionalProperties)) walk(s.additionalProperties as TSchema, data[key], at, found, cap);
      }
    }
    return;
  }
  if (s.type === 'array' && isObject(s.items) && Array.isArray(data)) {
    add(found, path, checkOf(shallowArray(s), data));
    for (let i = 0; i < data.length && found.length < cap; i++) walk(s.items as TSchema, data[i], `${path}[${i}]`, found, cap);
    return;
  }
  add(found, path, checkOf(schema, data));
}

/** `X or null` holding an object or array: walked as X, so a large value inside is walked too. */
function nonNullBranch(s: Node, data: unknown): TSchema | undefined {
  if (data === null || typeof data !== 'object' || !Array.isArray(s.anyOf) || s.anyOf.length !== 2) return undefined;
  const [a, b] = s.anyOf as Node[];
  const other = a?.type === 'null' ? b : b?.type === 'null' ? a : undefined;
  return other && other.type === (Array.isArray(data) ? 'array' : 'object') ? (other as TSchema) : undefined;
}

/**
 * Values up to which a document is checked by its whole schema at once (fast, and every
 * mistake found); a larger one is walked, up to a cap of mistakes. No body the API or the
 * control API takes comes near it but by mistake or on purpose; a snapshot may.
 */
export const WHOLE_CHECK_VALUES = 50_000;
/** Mistakes a walked check stops at. */
const WALKED_MISTAKES = 100;

/**
 * compile(), but a value larger than WHOLE_CHECK_VALUES is walked: ajv collects one error per
 * wrong item whatever their number, and a 1 MB body of them took seconds (a request reports its
 * first mistake only).
 */
export function compileBounded<T>(schema: TSchema): Validator<T> {
  const whole = compile<T>(schema);
  return (data) => {
    if (!largerThan(data, WHOLE_CHECK_VALUES)) return whole(data);
    const found = mistakesUpTo(schema, data, WALKED_MISTAKES);
    return found.length ? { ok: false, mistakes: found } : { ok: true, value: data as T };
  };
}

function add(found: Mistake[], base: string, mistakes: Mistake[]): void {
  for (const m of mistakes) found.push({ ...m, path: !base ? m.path : !m.path ? base : m.path.startsWith('[') ? base + m.path : `${base}.${m.path}` });
}

/** The object's own rules (type, required, how many keys), each key and value left to the walk. */
const shallowObjects = new WeakMap<Node, TSchema>();
function shallowObject(s: Node): TSchema {
  let shallow = shallowObjects.get(s);
  if (!shallow) {
    const { additionalProperties: _extra, propertyNames: _names, ...own } = s;
    shallowObjects.set(s, (shallow = { ...own, properties: Object.fromEntries(Object.keys(isObject(s.properties) ? s.properties : {}).map((k) => [k, {}])) } as TSchema));
  }
  return shallow;
}

/** The object's rule for its keys alone, checked on an object of one key. */
const keyChecks = new WeakMap<Node, TSchema>();
function keyCheck(s: Node): TSchema {
  let check = keyChecks.get(s);
  if (!check) keyChecks.set(s, (check = { type: 'object', propertyNames: s.propertyNames } as TSchema));
  return check;
}

/** The array's own rules (type, length), each item left to the walk. */
const shallowArrays = new WeakMap<Node, TSchema>();
function shallowArray(s: Node): TSchema {
  let shallow = shallowArrays.get(s);
  if (!shallow) shallowArrays.set(s, (shallow = { ...s, items: {} } as TSchema));
  return shallow;
}

const checks = new WeakMap<TSchema, ReturnType<typeof compile>>();
function checkOf(schema: TSchema, data: unknown): Mistake[] {
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = compile(schema)));
  const result = check(data);
  return result.ok ? [] : result.mistakes;
}
