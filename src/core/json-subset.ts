/**
 * Whether a JSON text holds a subset (journal.match.ts `includes`), read from the text itself:
 * the members and items the subset names are read, everything else is skipped over. Parsing a
 * body builds every object in it to look at a few fields; over a full journal of small objects
 * (8 MB of them) that is most of a second, the walk here a few tens of milliseconds, and it
 * allocates nothing but the strings it compares.
 */

/** Thrown on text that is not the JSON expected; textIncludes() answers undefined then. */
const NOT_JSON = new Error('not JSON');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Reader {
  i = 0;
  constructor(readonly t: string) {}

  space(): void {
    while (this.i < this.t.length && isSpace(this.t.charCodeAt(this.i))) this.i++;
  }

  /** The next character after white space, not consumed. */
  peek(): number {
    this.space();
    if (this.i >= this.t.length) throw NOT_JSON;
    return this.t.charCodeAt(this.i);
  }

  expect(c: number): void {
    if (this.peek() !== c) throw NOT_JSON;
    this.i++;
  }

  /** Past the closing quote of the string starting here; true when it holds an escape. */
  private passString(): boolean {
    const t = this.t;
    let escaped = false;
    for (let i = this.i + 1; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === BACKSLASH) {
        escaped = true;
        i++;
      } else if (c === QUOTE) {
        this.i = i + 1;
        return escaped;
      }
    }
    throw NOT_JSON;
  }

  /** The string starting here, decoded. */
  string(): string {
    if (this.peek() !== QUOTE) throw NOT_JSON;
    const from = this.i;
    const escaped = this.passString();
    return escaped ? (JSON.parse(this.t.slice(from, this.i)) as string) : this.t.slice(from + 1, this.i - 1);
  }

  /** A number, true, false or null: its text. */
  private literal(): string {
    const t = this.t;
    const from = this.i;
    let i = from;
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) break;
      i++;
    }
    if (i === from) throw NOT_JSON;
    this.i = i;
    return t.slice(from, i);
  }

  /** Past the value starting here, whatever it is, without recursion. */
  skip(): void {
    const c = this.peek();
    if (c === QUOTE) {
      this.passString();
      return;
    }
    if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
      this.literal();
      return;
    }
    const t = this.t;
    let depth = 0;
    for (let i = this.i; i < t.length; i++) {
      const d = t.charCodeAt(i);
      if (d === QUOTE) {
        this.i = i;
        this.passString();
        i = this.i - 1;
      } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) {
        this.i = i + 1;
        return;
      }
    }
    throw NOT_JSON;
  }

  /** Whether the value starting here holds `expected`, as includes() says; the value is read to its end either way. */
  holds(expected: unknown): boolean {
    if (Array.isArray(expected)) return this.holdsItems(expected);
    if (expected !== null && typeof expected === 'object') return this.holdsMembers(expected as Record<string, unknown>);
    const c = this.peek();
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.skip();
      return false;
    }
    if (c === QUOTE) return this.string() === expected;
    const text = this.literal();
    if (typeof expected === 'number') return text !== 'true' && text !== 'false' && text !== 'null' && Number(text) === expected;
    return (expected === true && text === 'true') || (expected === false && text === 'false') || (expected === null && text === 'null');
  }

  private holdsItems(expected: readonly unknown[]): boolean {
    if (this.peek() !== OPEN_ARRAY) {
      this.skip();
      return false;
    }
    this.i++;
    let count = 0;
    let all = true;
    if (this.peek() === CLOSE_ARRAY) this.i++;
    else {
      for (;;) {
        if (count < expected.length) all = this.holds(expected[count]) && all;
        else this.skip();
        count++;
        if (this.peek() === COMMA) this.i++;
        else {
          this.expect(CLOSE_ARRAY);
          break;
        }
      }
    }
    return all && count === expected.length;
  }

  private holdsMembers(expected: Record<string, unknown>): boolean {
    if (this.peek() !== OPEN_OBJECT) {
      this.skip();
      return false;
    }
    this.i++;
    // A key given twice counts as JSON.parse counts it: its last value.
    const seen = new Map<string, boolean>();
    if (this.peek() === CLOSE_OBJECT) this.i++;
    else {
      for (;;) {
        const key = this.string();
        this.expect(COLON);
        if (Object.hasOwn(expected, key)) seen.set(key, this.holds(expected[key]));
        else this.skip();
        if (this.peek() === COMMA) this.i++;
        else {
          this.expect(CLOSE_OBJECT);
          break;
        }
      }
    }
    return Object.keys(expected).every((key) => seen.get(key) === true);
  }
}

/** At most this many of the strings a subset names are looked for before the walk (needles()). */
const NEEDLES_MAX = 16;
const needlesOf = new WeakMap<object, string[]>();

/**
 * The strings `expected` names, keys and values, as JSON writes them. Text with no backslash
 * writes every string it holds that way, so it cannot hold `expected` unless it holds each of
 * them: a search far cheaper than the walk, which it mostly spares.
 */
function needles(expected: object): string[] {
  let found = needlesOf.get(expected);
  if (found) return found;
  found = [];
  const stack: unknown[] = [expected];
  while (stack.length > 0 && found.length < NEEDLES_MAX) {
    const value = stack.pop();
    if (typeof value === 'string') found.push(JSON.stringify(value));
    else if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        found.push(JSON.stringify(key));
        stack.push(item);
      }
    }
  }
  needlesOf.set(expected, (found = found.slice(0, NEEDLES_MAX)));
  return found;
}

/**
 * Does the JSON text hold `expected` (objects by subset, arrays item by item with equal length,
 * the rest by equality)? Undefined when the text is not JSON as this reader knows it: the caller
 * parses it and asks again.
 */
export function textIncludes(text: string, expected: unknown): boolean | undefined {
  if (expected !== null && typeof expected === 'object' && !text.includes('\\')) {
    // A string that needs an escape cannot be in text without one.
    for (const needle of needles(expected)) if (needle.includes('\\') || !text.includes(needle)) return false;
  }
  const reader = new Reader(text);
  try {
    const held = reader.holds(expected);
    reader.space();
    return reader.i === text.length ? held : undefined;
  } catch (err) {
    if (err === NOT_JSON || err instanceof SyntaxError) return undefined;
    throw err;
  }
}
