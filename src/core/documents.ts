import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Reading the JSON or YAML documents a user writes (fixtures, scenarios). Each failure is a
 * one-line sentence the caller puts into its own error with the file's name.
 */
export type DocumentRead = { ok: true; data: unknown } | { ok: false; message: string; tooDeep?: true };

/**
 * Objects and arrays inside each other at most this deep in a request body. The API's own
 * bodies nest under 10 levels and a scenario under 12; a value nested thousands deep breaks
 * every recursive reader after it (validation, JSON.stringify of the journal, a snapshot).
 */
export const BODY_DEPTH_LIMIT = 64;

/** Is `value` nested deeper than `max` levels of objects and arrays? Without recursion, so any depth can be asked about. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function parseJson(text: string): DocumentRead {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * The YAML parser is loaded only when a document needs it (it costs start-up time). Its
 * messages go on to quote the text after a colon; only the first line is kept, so the colon
 * that announced the quote goes too.
 */
export function parseYaml(text: string): DocumentRead {
  try {
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    return { ok: true, data: parse(text, { uniqueKeys: true }) };
  } catch (err) {
    // The parser recurses: a document nested thousands deep overflows the stack (it may wrap the RangeError).
    if (err instanceof RangeError || /Maximum call stack size exceeded/.test((err as Error).message)) return { ok: false, message: 'nested too deep to read', tooDeep: true };
    return { ok: false, message: `not valid YAML: ${yamlMessage(err)}` };
  }
}

const yamlMessage = (err: unknown): string => ((err as Error).message.split('\n')[0] ?? '').replace(/:\s*$/, '');

/** JSON is read with JSON.parse; anything else as YAML (1.2 is a superset of JSON). */
export function parseJsonOrYaml(text: string): DocumentRead {
  const json = parseJson(text);
  if (json.ok) return json;
  const yaml = parseYaml(text);
  return yaml.ok ? yaml : { ok: false, message: `not valid JSON or YAML: ${yaml.message.replace(/^not valid YAML: /, '')}` };
}

export function readDocumentFile(path: string): DocumentRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read ${path}: ${(err as Error).message}` };
  }
  return parseJsonOrYaml(text);
}
