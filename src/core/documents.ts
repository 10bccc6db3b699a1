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

/**
 * Is `value` nested deeper than `max` levels of objects and arrays? Without recursion, so any
 * depth can be asked about, and holding one frame per level, so a wide value costs no more.
 */
export function deeperThan(value: unknown, max: number): boolean {
  if (!isContainer(value)) return false;
  if (max < 1) return true;
  const frames: unknown[][] = [childrenOf(value)];
  const next: number[] = [0];
  while (frames.length > 0) {
    const top = frames.length - 1;
    const items = frames[top]!;
    if (next[top]! >= items.length) {
      frames.pop();
      next.pop();
      continue;
    }
    const child = items[next[top]!++];
    if (!isContainer(child)) continue;
    if (frames.length + 1 > max) return true;
    frames.push(childrenOf(child));
    next.push(0);
  }
  return false;
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';
const childrenOf = (v: object): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/**
 * Objects and arrays a body may hold in all, checked on its text before it is parsed: JSON.parse
 * spends about 1 s and 0.5 GB per million small objects. A snapshot of 12,000 onboardings holds
 * about 250,000; no other body can come near the limit within its size.
 */
export const BODY_CONTAINER_LIMIT = 1_000_000;

/** Does JSON text open more than `max` objects and arrays? Brackets inside strings do not count. */
export function opensMoreThan(text: Uint8Array, max: number): boolean {
  // A container takes at least two bytes, so shorter text cannot hold too many.
  if (text.length <= 2 * max) return false;
  let opened = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next byte is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if ((c === 0x7b || c === 0x5b) && ++opened > max) return true;
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
