import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Reading the JSON or YAML documents a user writes (fixtures, scenarios). Each failure is a
 * one-line sentence the caller puts into its own error with the file's name.
 */
export type DocumentRead = { ok: true; data: unknown } | { ok: false; message: string; tooDeep?: true; tooLarge?: true };

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
  const frames: unknown[][] = [containersIn(value)];
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
    frames.push(containersIn(child));
    next.push(0);
  }
  return false;
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';
const childrenOf = (v: object): unknown[] => (Array.isArray(v) ? v : Object.values(v));

/**
 * The objects and arrays directly inside `v`, found key by key: Object.values() of an object of
 * 60,000 keys costs twice as much, and the depth walk never needs the scalars.
 */
function containersIn(v: object): unknown[] {
  if (Array.isArray(v)) return v;
  const found: unknown[] = [];
  for (const key in v) {
    const child = (v as Record<string, unknown>)[key];
    if (isContainer(child)) found.push(child);
  }
  return found;
}

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
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === 0x22) {
      // A string: to its closing quote, the first one after an even run of backslashes, found by a search (a long string is the usual large body).
      for (;;) {
        const quote = text.indexOf(0x22, i + 1);
        if (quote === -1) return false;
        let backslashes = 0;
        while (text[quote - 1 - backslashes] === 0x5c) backslashes++;
        i = quote;
        if (backslashes % 2 === 0) break;
      }
    } else if ((c === 0x7b || c === 0x5b) && ++opened > max) return true;
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
 * that announced the quote goes too. `maxValues`: refuse a document holding more values than
 * this once its aliases are expanded (a few KB of anchors and aliases can stand for millions).
 */
export function parseYaml(text: string, maxValues = Infinity): DocumentRead {
  try {
    const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    const lines = new yaml.LineCounter();
    // The parser's own check of unique keys compares each key with every key before it in its
    // mapping: a mapping of 12,000 keys took 1.5 s. repeatedKey() does it once per key.
    const doc = yaml.parseDocument(text, { uniqueKeys: false, lineCounter: lines });
    for (const warning of doc.warnings) process.emitWarning(warning);
    if (doc.errors.length > 0) throw doc.errors[0]!;
    const repeated = repeatedKey(yaml, doc);
    if (repeated !== undefined) {
      const { line, col } = lines.linePos(repeated);
      return { ok: false, message: `not valid YAML: Map keys must be unique at line ${line}, column ${col}` };
    }
    const data = doc.toJS() as unknown;
    if (expandedSize(data, maxValues) > maxValues) {
      return { ok: false, message: `more than ${maxValues.toLocaleString('en')} values once its aliases are expanded`, tooLarge: true };
    }
    return { ok: true, data };
  } catch (err) {
    // The parser recurses: a document nested thousands deep overflows the stack (it may wrap the RangeError).
    if (err instanceof RangeError || /Maximum call stack size exceeded/.test((err as Error).message)) return { ok: false, message: 'nested too deep to read', tooDeep: true };
    return { ok: false, message: `not valid YAML: ${yamlMessage(err)}` };
  }
}

/**
 * Where the first key given twice in one mapping is (the offset of its second occurrence,
 * the one the parser would have named), or undefined. Keys compare as the parser compares
 * them: scalars by value, anything else by identity.
 */
function repeatedKey(yaml: typeof import('yaml'), doc: import('yaml').Document): number | undefined {
  let first: number | undefined;
  yaml.visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const id = yaml.isScalar(key) ? key.value : key;
        if (!seen.has(id)) seen.add(id);
        else {
          const at = (key as { range?: [number, number, number] } | null)?.range?.[0];
          if (at !== undefined && (first === undefined || at < first)) first = at;
        }
      }
    },
  });
  return first;
}

/**
 * The values (objects, arrays and scalars) a parsed document holds with every alias counted as
 * what it stands for, worked out once per object; stops past `max`, and is Infinity for a
 * document that holds itself (an alias inside its own anchor).
 */
function expandedSize(root: unknown, max: number): number {
  if (!isContainer(root) || max === Infinity) return 1;
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!;
    if (sizes.has(node)) {
      stack.pop();
      continue;
    }
    if (!open.has(node)) {
      open.add(node);
      for (const child of childrenOf(node)) {
        if (!isContainer(child) || sizes.has(child)) continue;
        if (open.has(child)) return Infinity;
        stack.push(child);
      }
      continue;
    }
    let size = 1;
    for (const child of childrenOf(node)) size += isContainer(child) ? sizes.get(child)! : 1;
    if (size > max) return size;
    open.delete(node);
    sizes.set(node, size);
    stack.pop();
  }
  return sizes.get(root)!;
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
