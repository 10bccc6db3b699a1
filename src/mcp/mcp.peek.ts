/**
 * Which call an MCP message is, read from its bytes before they are parsed: a message over
 * 1 MB is refused unless it restores a snapshot, and parsing (then checking) a 30 MB message
 * only to refuse it took seconds. Only the top-level `method`, `params.name` and
 * `params.arguments.action` are read; everything else is skipped over, a string by a search for
 * its closing quote, a container byte by byte. A key given twice counts as JSON.parse counts
 * it: its last value.
 */

export interface PeekedCall {
  method?: string | undefined;
  /** params.name: the tool of a tools/call. */
  tool?: string | undefined;
  /** params.arguments.action: the tool's action. */
  action?: string | undefined;
}

const NOT_JSON = new Error('not JSON');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NAME_MAX = 256;

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Peek {
  i = 0;
  constructor(readonly b: Buffer) {}

  /** The next byte after white space, not consumed. */
  next(): number {
    while (isSpace(this.b[this.i])) this.i++;
    if (this.i >= this.b.length) throw NOT_JSON;
    return this.b[this.i]!;
  }

  consume(c: number): void {
    if (this.next() !== c) throw NOT_JSON;
    this.i++;
  }

  /** Past the string whose opening quote is here; its closing quote's place. */
  private passString(): number {
    let at = this.i + 1;
    for (;;) {
      const quote = this.b.indexOf(QUOTE, at);
      if (quote === -1) throw NOT_JSON;
      let backslashes = 0;
      while (this.b[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) {
        this.i = quote + 1;
        return quote;
      }
      at = quote + 1;
    }
  }

  /**
   * The string here, decoded; undefined (and skipped) when the value is not a string. One
   * longer than NAME_MAX bytes is read as '': no method, tool or action is that long.
   */
  string(): string | undefined {
    if (this.next() !== QUOTE) {
      this.skip();
      return undefined;
    }
    const from = this.i;
    const to = this.passString();
    return to - from > NAME_MAX ? '' : (JSON.parse(this.b.toString('utf8', from, to + 1)) as string);
  }

  /** Past the value here. */
  skip(): void {
    const c = this.next();
    if (c === QUOTE) {
      this.passString();
      return;
    }
    if (c !== 0x7b && c !== 0x5b) {
      while (this.i < this.b.length && !isSpace(this.b[this.i]) && this.b[this.i] !== 0x2c && this.b[this.i] !== 0x7d && this.b[this.i] !== 0x5d) this.i++;
      return;
    }
    let depth = 0;
    const b = this.b;
    for (let i = this.i; i < b.length; i++) {
      const d = b[i]!;
      if (d === QUOTE) {
        this.i = i;
        i = this.passString();
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) {
        this.i = i + 1;
        return;
      }
    }
    throw NOT_JSON;
  }

  /** Each member of the object here, its value read by `member` (which must read or skip it); a value that is no object is skipped. */
  object(member: (key: string) => void): void {
    if (this.next() !== 0x7b) {
      this.skip();
      return;
    }
    this.i++;
    if (this.next() === 0x7d) {
      this.i++;
      return;
    }
    for (;;) {
      const key = this.string();
      if (key === undefined) throw NOT_JSON;
      this.consume(0x3a);
      member(key);
      if (this.next() === 0x2c) this.i++;
      else {
        this.consume(0x7d);
        return;
      }
    }
  }
}

/** The method, tool and action of a message; empty when it is no JSON object (a batch, or not JSON). */
export function peekCall(bytes: Buffer): PeekedCall {
  const p = new Peek(bytes);
  const call: PeekedCall = {};
  try {
    if (p.next() !== 0x7b) return {};
    p.object((key) => {
      if (key === 'method') call.method = p.string();
      else if (key !== 'params') p.skip();
      else {
        call.tool = call.action = undefined;
        p.object((param) => {
          if (param === 'name') call.tool = p.string();
          else if (param !== 'arguments') p.skip();
          else {
            call.action = undefined;
            p.object((arg) => (arg === 'action' ? (call.action = p.string()) : p.skip()));
          }
        });
      }
    });
    return call;
  } catch (err) {
    if (err === NOT_JSON || err instanceof SyntaxError) return {};
    throw err;
  }
}
