import { HEADERS_BY_SHAPE, HEADERS_BY_VALUE, headerValue, FREE_FORM_KEYS, isList, STATE_KEYS, volatileShape, withoutIds } from './volatile.js';

/**
 * One answer held to its recording: the status, the headers that matter and the body, each
 * difference a finding at its JSON path with the recorded value and the new one. Volatile values
 * (volatile.ts) are held to their shape, and an id the flow bound by name to the id the replay
 * bound under that name. When the status differs the body is not compared: it answers another
 * question.
 */
export interface Drift {
  /** `status`, `headers.content-type`, `$.data[0].status`, `events[2].type`. */
  path: string;
  recorded: unknown;
  actual: unknown;
  /** What differs, in words. */
  why: string;
}

/** Ids bound by name: the recorded value and the replayed value of each name. */
export interface Bindings {
  recorded: Map<string, unknown>;
  replayed: Map<string, unknown>;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const render = (v: unknown): unknown => (v === undefined ? '(absent)' : v);

export function compareAnswer(recorded: Answer, actual: Answer, bindings: Bindings): Drift[] {
  if (recorded.status !== actual.status) return [{ path: 'status', recorded: recorded.status, actual: actual.status, why: 'the status differs' }];
  const found: Drift[] = [];
  const rec = recorded.headers ?? {};
  const got = actual.headers ?? {};
  for (const name of HEADERS_BY_VALUE) {
    if (rec[name] === undefined) continue;
    const a = got[name] === undefined ? undefined : headerValue(name, got[name]);
    if (headerValue(name, rec[name]) !== a) found.push({ path: `headers.${name}`, recorded: rec[name], actual: render(got[name]), why: 'the header differs' });
  }
  for (const name of HEADERS_BY_SHAPE) {
    if (rec[name] !== undefined && got[name] === undefined) found.push({ path: `headers.${name}`, recorded: rec[name], actual: '(absent)', why: 'the header is missing' });
  }
  compareValue('$', '', recorded.body, actual.body, bindings, found);
  return found;
}

/** The name a recorded value was bound under, if it was. */
function boundName(value: string, bindings: Bindings): string | undefined {
  for (const [name, v] of bindings.recorded) if (v === value) return name;
  return undefined;
}

export function compareValue(path: string, key: string, recorded: unknown, actual: unknown, bindings: Bindings, found: Drift[]): void {
  if (recorded === undefined && actual === undefined) return;
  if (actual === undefined) {
    found.push({ path, recorded, actual: '(absent)', why: 'a recorded field is missing' });
    return;
  }
  if (recorded === undefined) {
    found.push({ path, recorded: '(absent)', actual, why: 'a field the recording does not have' });
    return;
  }
  const rt = typeOf(recorded);
  const at = typeOf(actual);
  if (rt !== at) {
    found.push({ path, recorded, actual, why: `the type differs: ${rt} recorded, ${at} now` });
    return;
  }
  if (rt === 'array') {
    const r = recorded as unknown[];
    const a = actual as unknown[];
    if (r.length !== a.length) {
      found.push({ path, recorded: `${r.length} items`, actual: `${a.length} items`, why: 'the number of items differs' });
      return;
    }
    r.forEach((item, i) => compareValue(`${path}[${i}]`, key, item, a[i], bindings, found));
    return;
  }
  if (isList(recorded) && isList(actual)) {
    if (recorded.data.length && actual.data.length) actual.data.forEach((item, i) => compareShape(`${path}.data[${i}]`, templateOf(recorded.data, item), item, found));
    for (const k of ['has_more', 'next_cursor'] as const) compareShape(`${path}.${k}`, (recorded as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], found);
    return;
  }
  if (rt === 'object') {
    const r = recorded as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of new Set([...Object.keys(r), ...Object.keys(a)])) compareValue(`${path}${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`, k, r[k], a[k], bindings, found);
    return;
  }
  if (STATE_KEYS.has(key)) return;
  const shape = volatileShape(key, recorded);
  if (shape === undefined) {
    const same = typeof recorded === 'string' ? withoutIds(recorded) === withoutIds(actual as string) : recorded === actual;
    if (!same) found.push({ path, recorded, actual, why: 'the value differs' });
    return;
  }
  const name = typeof recorded === 'string' ? boundName(recorded, bindings) : undefined;
  const expected = name === undefined ? undefined : bindings.replayed.get(name);
  if (expected !== undefined) {
    if (actual !== expected) found.push({ path, recorded, actual, why: `not the id bound as ${name} (${String(expected)})` });
    return;
  }
  const now = volatileShape(key, actual);
  if (now !== shape) found.push({ path, recorded, actual, why: `the shape differs: ${shape} recorded, ${now ?? typeOf(actual)} now` });
}

/** Held to a recorded value's shape only: the same type, and for an object the same fields, each of the same shape. */
function compareShape(path: string, recorded: unknown, actual: unknown, found: Drift[]): void {
  if (recorded === undefined || actual === undefined) {
    if (recorded !== actual) found.push({ path, recorded: render(recorded), actual: render(actual), why: recorded === undefined ? 'a field the recording does not have' : 'a recorded field is missing' });
    return;
  }
  const rt = typeOf(recorded);
  const at = typeOf(actual);
  // A cursor is a string or null, depending on what follows: either is its shape.
  if (rt !== at && !(rt === 'null' || at === 'null')) {
    found.push({ path, recorded, actual, why: `the type differs: ${rt} recorded, ${at} now` });
    return;
  }
  if (rt === 'object' && at === 'object' && !FREE_FORM_KEYS.has(path.slice(path.lastIndexOf('.') + 1))) {
    const r = recorded as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of new Set([...Object.keys(r), ...Object.keys(a)])) compareShape(`${path}.${k}`, r[k], a[k], found);
  } else if (rt === 'array' && at === 'array' && (recorded as unknown[]).length && (actual as unknown[]).length) {
    (actual as unknown[]).forEach((item, i) => compareShape(`${path}[${i}]`, (recorded as unknown[])[0], item, found));
  }
}

/**
 * The recorded item an item of a list is held to: one of the same `type` where items have one
 * (an event's data depends on its type), else the first. An item of a type the recording does
 * not show is held to the first item's top level only.
 */
function templateOf(recorded: unknown[], item: unknown): unknown {
  const type = (item as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return recorded[0];
  const same = recorded.find((r) => (r as { type?: unknown } | null)?.type === type);
  if (same !== undefined) return same;
  const first = recorded[0];
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return first;
  // The same fields, each a value of its own so that nothing below the top level is compared.
  return Object.fromEntries(Object.keys(first).map((k) => [k, (item as Record<string, unknown>)[k] ?? (first as Record<string, unknown>)[k]]));
}
