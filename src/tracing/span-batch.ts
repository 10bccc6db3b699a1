/**
 * The spans waiting to be exported, kept as their encoded OTLP/JSON rather than as objects: a
 * span is written here in the turn of the event loop it ended in, so nothing of it outlives the
 * request that made it by long. Kept
 * objects would survive the young generation's collections, be copied and promoted, and make
 * every collection dearer; bytes in one buffer cost the collector nothing.
 */
import { JsonBytes, REQUEST_SUFFIX, requestPrefix, writeSpan } from './otlp-json.js';
import type { SpanRecord } from './span-record.js';

const COMMA = 0x2c;

export class SpanBatch {
  /** Each span's text, each preceded by a comma. */
  private readonly waiting: JsonBytes;
  /** Where each waiting span's text ends in `waiting`. */
  private ends: number[] = [];
  /** The request being sent: reused, as one export is in flight at a time. */
  private out: Buffer;
  private readonly prefix: Buffer;

  constructor(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }, initialBytes = 1 << 16) {
    this.prefix = requestPrefix(resource, scope);
    this.waiting = new JsonBytes(initialBytes);
    this.out = Buffer.allocUnsafe(initialBytes);
  }

  /** How many spans wait. */
  get count(): number {
    return this.ends.length;
  }

  add(span: SpanRecord): void {
    const w = this.waiting;
    w.need(1);
    w.buf[w.at++] = COMMA;
    writeSpan(w, span);
    this.ends.push(w.at);
  }

  /**
   * The export request of the first `max` waiting spans (a view of a buffer reused by the next
   * call), and those spans taken out.
   */
  take(max: number): { body: Buffer; spans: number } {
    const spans = Math.min(max, this.ends.length);
    const end = spans ? this.ends[spans - 1]! : 0;
    const w = this.waiting;
    const size = this.prefix.length + Math.max(0, end - 1) + REQUEST_SUFFIX.length;
    if (this.out.length < size) this.out = Buffer.allocUnsafe(Math.max(this.out.length * 2, size));
    let at = this.prefix.copy(this.out, 0);
    if (spans) at += w.buf.copy(this.out, at, 1, end); // without the first span's comma
    at += REQUEST_SUFFIX.copy(this.out, at);
    w.buf.copyWithin(0, end, w.at);
    w.at -= end;
    this.ends = this.ends.slice(spans);
    for (let i = 0; i < this.ends.length; i++) this.ends[i] = this.ends[i]! - end;
    return { body: this.out.subarray(0, at), spans };
  }
}
