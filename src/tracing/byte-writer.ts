/**
 * A buffer written from its start, grown (copied to one twice as large) when a write needs room:
 * what the OTLP encoders (JSON and protobuf) write a span into.
 */
export class ByteWriter {
  buf: Buffer;
  at = 0;

  constructor(initialBytes: number) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** Room for `more` bytes after `at`. */
  need(more: number): void {
    if (this.buf.length - this.at >= more) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + more));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  /** Bytes encoded once (the constant parts). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.need(n);
    // Most constants are a few bytes: a loop costs less than a call into set().
    if (n > 32) {
      this.buf.set(bytes, this.at);
      this.at += n;
      return;
    }
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = bytes[i]!;
    this.at = at;
  }

  /** Text known to be printable ASCII with nothing to escape (hex ids, numbers): one byte a character. */
  ascii(text: string): void {
    const n = text.length;
    this.need(n);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = text.charCodeAt(i);
    this.at = at;
  }
}
