/**
 * The spans waiting to be exported, kept as their encoded OTLP/JSON rather than as objects: a
 * span is written here as it ends, so nothing of it outlives the request that made it. Kept
 * objects would survive the young generation's collections, be copied and promoted, and make
 * every collection dearer; bytes in one buffer cost the collector nothing.
 */
import { REQUEST_SUFFIX, requestPrefix, spanJson } from './otlp-json.js';
import type { SpanRecord } from './span-record.js';

export class SpanBatch {
  /** Each span's text, each preceded by a comma. */
  private waiting: Buffer;
  private at = 0;
  /** Where each waiting span's text ends in `waiting`. */
  private ends: number[] = [];
  /** The request being sent: reused, as one export is in flight at a time. */
  private out: Buffer;
  private readonly prefix: string;

  constructor(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }, initialBytes = 1 << 16) {
    this.prefix = requestPrefix(resource, scope);
    this.waiting = Buffer.allocUnsafe(initialBytes);
    this.out = Buffer.allocUnsafe(initialBytes);
  }

  /** How many spans wait. */
  get count(): number {
    return this.ends.length;
  }

  add(span: SpanRecord): void {
    const text = ',' + spanJson(span);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.waiting = room(this.waiting, this.at, text.length * 3);
    this.at += this.waiting.write(text, this.at, 'utf8');
    this.ends.push(this.at);
  }

  /**
   * The export request of the first `max` waiting spans (a view of a buffer reused by the next
   * call), and those spans taken out.
   */
  take(max: number): { body: Buffer; spans: number } {
    const spans = Math.min(max, this.ends.length);
    const end = spans ? this.ends[spans - 1]! : 0;
    this.out = room(this.out, 0, this.prefix.length * 3 + end + REQUEST_SUFFIX.length);
    let size = this.out.write(this.prefix, 0, 'utf8');
    if (spans) size += this.waiting.copy(this.out, size, 1, end); // without the first span's comma
    size += this.out.write(REQUEST_SUFFIX, size, 'latin1');
    this.waiting.copyWithin(0, end, this.at);
    this.at -= end;
    this.ends = this.ends.slice(spans);
    for (let i = 0; i < this.ends.length; i++) this.ends[i] = this.ends[i]! - end;
    return { body: this.out.subarray(0, size), spans };
  }
}

/** `buffer`, or a larger copy of its first `used` bytes, with `more` bytes free after them. */
function room(buffer: Buffer, used: number, more: number): Buffer {
  if (buffer.length - used >= more) return buffer;
  const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, used + more));
  buffer.copy(grown, 0, 0, used);
  return grown;
}
