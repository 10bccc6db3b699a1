/**
 * The spans waiting to be exported, kept as their encoded OTLP (JSON or protobuf) rather than as
 * objects: a span is written here in the turn of the event loop it ended in, so nothing of it
 * outlives the request that made it by long. Kept objects would survive the young generation's
 * collections, be copied and promoted, and make every collection dearer; bytes in one buffer
 * cost the collector nothing.
 */
import { JsonBytes, REQUEST_SUFFIX, requestPrefix, writeSpan } from './otlp-json.js';
import { protoHead, protoRequest, ProtoBytes, writeSpanProto, type ProtoHead } from './otlp-proto.js';
import type { SpanRecord } from './span-record.js';

/** OTLP/HTTP's two encodings (OTEL_EXPORTER_OTLP_PROTOCOL http/json and http/protobuf). */
export type OtlpEncoding = 'json' | 'protobuf';

export const CONTENT_TYPES: Readonly<Record<OtlpEncoding, string>> = { json: 'application/json', protobuf: 'application/x-protobuf' };

const COMMA = 0x2c;

export class SpanBatch {
  /** Each span's bytes: in JSON each preceded by a comma; in protobuf each a field of its own. */
  private readonly waiting: JsonBytes | ProtoBytes;
  /** Where each waiting span's bytes end in `waiting`. */
  private ends: number[] = [];
  /** The request being sent: reused, as one export is in flight at a time. */
  private out: Buffer;
  private readonly jsonPrefix: Buffer | undefined;
  private readonly protoHead: ProtoHead | undefined;

  constructor(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }, initialBytes = 1 << 16, readonly encoding: OtlpEncoding = 'json') {
    if (encoding === 'json') {
      this.jsonPrefix = requestPrefix(resource, scope);
      this.waiting = new JsonBytes(initialBytes);
    } else {
      this.protoHead = protoHead(resource, scope);
      this.waiting = new ProtoBytes(initialBytes);
    }
    this.out = Buffer.allocUnsafe(initialBytes);
  }

  /** How many spans wait. */
  get count(): number {
    return this.ends.length;
  }

  add(span: SpanRecord): void {
    const w = this.waiting;
    if (w instanceof JsonBytes) {
      w.need(1);
      w.buf[w.at++] = COMMA;
      writeSpan(w, span);
    } else writeSpanProto(w, span);
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
    const parts = this.protoHead
      ? protoRequest(this.protoHead, w.buf.subarray(0, end))
      : // Without the first span's comma.
        [this.jsonPrefix!, w.buf.subarray(Math.min(1, end), end), REQUEST_SUFFIX];
    const size = parts.reduce((n, p) => n + p.length, 0);
    if (this.out.length < size) this.out = Buffer.allocUnsafe(Math.max(this.out.length * 2, size));
    let at = 0;
    for (const part of parts) at += part.copy(this.out, at);
    w.buf.copyWithin(0, end, w.at);
    w.at -= end;
    this.ends = this.ends.slice(spans);
    for (let i = 0; i < this.ends.length; i++) this.ends[i] = this.ends[i]! - end;
    return { body: this.out.subarray(0, at), spans };
  }
}
