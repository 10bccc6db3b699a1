/**
 * Ids by name: `bind` takes a value from an answer by its path (`$.id`, `$.data[0].id`,
 * `$.onboarding.id`), and `{{name}}` in a later request's path, headers or body is that value.
 */
const STEP = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/y;

/** The value at a path in a JSON value; undefined where there is none (or the path is not one). */
function valueAt(value: unknown, path: string): unknown {
  if (!path.startsWith('$')) return undefined;
  let at = value;
  STEP.lastIndex = 1;
  while (STEP.lastIndex < path.length) {
    const from = STEP.lastIndex;
    const m = STEP.exec(path);
    if (!m || m.index !== from) return undefined;
    if (at === null || typeof at !== 'object') return undefined;
    at = m[1] !== undefined ? (at as Record<string, unknown>)[m[1]] : (at as unknown[])[Number(m[2])];
  }
  return at;
}

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** The names a value's strings use. */
export function namesUsed(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(PLACEHOLDER)) into.add(m[1]!);
  else if (Array.isArray(value)) for (const v of value) namesUsed(v, into);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) namesUsed(v, into);
  return into;
}

const WHOLE = /^\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}$/;

/**
 * The value with every `{{name}}` in its strings replaced by the bound value (every name must
 * be bound); a string that is a placeholder alone stands for the bound value whole, an object
 * included (a body that sends back an earlier answer, as a snapshot's restore does).
 */
export function fill<T>(value: T, bound: ReadonlyMap<string, unknown>): T {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole && bound.has(whole[1]!) && typeof bound.get(whole[1]!) !== 'string') return bound.get(whole[1]!) as T;
    return value.replace(PLACEHOLDER, (_, name: string) => (bound.has(name) ? String(bound.get(name)) : `{{${name}}}`)) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => fill(v, bound)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, bound)])) as T;
  return value;
}

/** The bound values of a step's answer: an id as its string, a whole answer (`$`) as it is; those the path does not find left out. */
export function bindAnswer(bind: Record<string, string> | undefined, body: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, path] of Object.entries(bind ?? {})) {
    const v = valueAt(body, path);
    if (typeof v === 'string' || typeof v === 'number') out.set(name, String(v));
    else if (v !== undefined && v !== null && path === '$') out.set(name, v);
  }
  return out;
}
