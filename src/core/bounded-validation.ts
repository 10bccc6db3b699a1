import type { TSchema } from './schema.js';
import { compile, type Mistake } from './validation.js';

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
    const children = Array.isArray(v) ? v : Object.values(v);
    seen += children.length;
    if (seen > max) return true;
    for (const child of children) stack.push(child);
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
  if (s.type === 'object' && isObject(s.properties) && isObject(data)) {
    add(found, path, checkOf(shallowObject(s), data));
    for (const [key, sub] of Object.entries(s.properties as Record<string, TSchema>)) {
      if (Object.hasOwn(data, key)) walk(sub, data[key], path ? `${path}.${key}` : key, found, cap);
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

function add(found: Mistake[], base: string, mistakes: Mistake[]): void {
  for (const m of mistakes) found.push({ ...m, path: !base ? m.path : !m.path ? base : m.path.startsWith('[') ? base + m.path : `${base}.${m.path}` });
}

/** The object's own rules (type, required, unknown fields), each property's schema left to the walk. */
const shallowObjects = new WeakMap<Node, TSchema>();
function shallowObject(s: Node): TSchema {
  let shallow = shallowObjects.get(s);
  if (!shallow) shallowObjects.set(s, (shallow = { ...s, properties: Object.fromEntries(Object.keys(s.properties as Node).map((k) => [k, {}])) } as TSchema));
  return shallow;
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
