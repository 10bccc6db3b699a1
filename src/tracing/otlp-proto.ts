/**
 * OTLP/protobuf (ExportTraceServiceRequest of opentelemetry-proto's trace v1) written by hand,
 * each span straight into the batch's bytes as the JSON encoder does (otlp-json.ts): ids as
 * their bytes, times as fixed64 unix nanoseconds, each message behind its length. About half
 * the bytes of the JSON form.
 */
import type { SpanAttributes } from '../core/tracing.js';
import { writeEachAttribute, type AttributeEncoder, type AttributeValue } from './attribute-walk.js';
import { ByteWriter } from './byte-writer.js';
import { ORIGIN_FRACTION_NS, ORIGIN_MS } from './otlp-json.js';
import type { SpanRecord } from './span-record.js';

const TWO_32 = 2 ** 32;

// A field's key byte: its number and wire type (0 varint, 1 fixed64, 2 length-delimited).
const key = (field: number, wire: 0 | 1 | 2): number => (field << 3) | wire;

/** The bytes of a varint. */
function varintSize(n: number): number {
  let size = 1;
  for (; n >= 0x80; size++) n = Math.floor(n / 0x80);
  return size;
}

/** The UTF-8 length of `text`: its length while it is ASCII. */
function utf8Size(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return Buffer.byteLength(text, 'utf8');
  return text.length;
}

const hexDigit = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

export class ProtoBytes extends ByteWriter {
  byte(b: number): void {
    this.need(1);
    this.buf[this.at++] = b;
  }

  /** A non-negative integer below 2^53. */
  varint(n: number): void {
    this.need(8);
    const buf = this.buf;
    let at = this.at;
    while (n >= 0x80) {
      buf[at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    buf[at++] = n;
    this.at = at;
  }

  /** An int64 value: a negative one in two's complement, ten bytes (rare: a BigInt will do). */
  int64(n: number): void {
    if (n >= 0) return this.varint(n);
    let v = BigInt.asUintN(64, BigInt(n));
    this.need(10);
    while (v >= 0x80n) {
      this.buf[this.at++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.at++] = Number(v);
  }

  /** Text of `size` UTF-8 bytes (utf8Size), as they are. */
  utf8(text: string, size: number): void {
    this.need(size);
    if (size === text.length) this.ascii(text);
    else this.at += this.buf.write(text, this.at, size, 'utf8');
  }

  /** A string field: key, length, bytes. */
  string(field: number, text: string): void {
    const size = utf8Size(text);
    this.byte(key(field, 2));
    this.varint(size);
    this.utf8(text, size);
  }

  /** A bytes field holding the bytes a hex id names. */
  hexId(field: number, hex: string): void {
    const n = hex.length >> 1;
    this.need(2 + n);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = key(field, 2);
    buf[at++] = n;
    for (let i = 0; i < hex.length; i += 2) buf[at++] = (hexDigit(hex.charCodeAt(i)) << 4) | hexDigit(hex.charCodeAt(i + 1));
    this.at = at;
  }

  /** A fixed64 field of the unix nanoseconds of a monotonicMs() reading. */
  nanos(field: number, nowMs: number): void {
    const ns = ORIGIN_FRACTION_NS + Math.round(nowMs * 1e6);
    const carryMs = Math.floor(ns / 1e6);
    // ms * 1e6 + fraction exceeds 2^53: made in two 32-bit halves, each sum below 2^53.
    const ms = ORIGIN_MS + carryMs;
    const msHigh = Math.floor(ms / TWO_32);
    const low = (ms - msHigh * TWO_32) * 1e6 + (ns - carryMs * 1e6);
    const carry = Math.floor(low / TWO_32);
    this.need(9);
    this.buf[this.at++] = key(field, 1);
    this.buf.writeUInt32LE(low - carry * TWO_32, this.at);
    this.buf.writeUInt32LE(msHigh * 1e6 + carry, this.at + 4);
    this.at += 8;
  }
}

/** The size of an AnyValue holding `value`, and of the KeyValue holding it, without writing either. */
function anyValueSize(value: AttributeValue, textSize: number): number {
  if (typeof value === 'string') return 1 + varintSize(textSize) + textSize;
  if (typeof value === 'boolean') return 2;
  if (Number.isSafeInteger(value)) return 1 + (value < 0 ? 10 : varintSize(value));
  return 9;
}

/** `{"key":...}` as bytes once per name: the names are few and repeat in every span. */
const KEYS = new Map<string, Buffer>();
function keyField(name: string): Buffer {
  let field = KEYS.get(name);
  if (field === undefined) {
    const w = new ProtoBytes(32);
    w.string(1, name);
    field = Buffer.from(w.buf.subarray(0, w.at));
    // Bounded, in case a caller makes names from data.
    if (KEYS.size < 1000) KEYS.set(name, field);
  }
  return field;
}

/** One attribute: the span's (or resource's) field `field` holding a KeyValue. */
function writeKeyValue(w: ProtoBytes, field: number, name: string, value: AttributeValue): void {
  const keyBytes = keyField(name);
  const textSize = typeof value === 'string' ? utf8Size(value) : 0;
  const anySize = anyValueSize(value, textSize);
  const kvSize = keyBytes.length + 1 + varintSize(anySize) + anySize;
  w.byte(key(field, 2));
  w.varint(kvSize);
  w.raw(keyBytes);
  w.byte(key(2, 2));
  w.varint(anySize);
  if (typeof value === 'string') {
    w.byte(key(1, 2));
    w.varint(textSize);
    w.utf8(value, textSize);
  } else if (typeof value === 'boolean') {
    w.byte(key(2, 0));
    w.byte(value ? 1 : 0);
  } else if (Number.isSafeInteger(value)) {
    w.byte(key(3, 0));
    w.int64(value);
  } else {
    w.byte(key(4, 1));
    w.need(8);
    w.buf.writeDoubleLE(value, w.at);
    w.at += 8;
  }
}

/** Span.attributes is field 9; Resource.attributes field 1. A frozen object's bytes are kept per field. */
const encoderFor = (field: number): AttributeEncoder<ProtoBytes> => {
  const frozenBytes = new WeakMap<SpanAttributes, Buffer>();
  const encoder: AttributeEncoder<ProtoBytes> = {
    frozen(w, attributes) {
      let encoded = frozenBytes.get(attributes);
      if (encoded === undefined) {
        const once = new ProtoBytes(256);
        writeEachAttribute(once, [{ ...attributes }], encoder);
        encoded = Buffer.from(once.buf.subarray(0, once.at));
        frozenBytes.set(attributes, encoded);
      }
      w.raw(encoded);
      return encoded.length > 0;
    },
    one: (w, name, value) => writeKeyValue(w, field, name, value),
  };
  return encoder;
};
const SPAN_ATTRIBUTES = encoderFor(9);
const RESOURCE_ATTRIBUTES = encoderFor(1);

/** Room kept for a span's length before it is known: a varint of up to 2^28 bytes (more moves the span). */
const LENGTH_ROOM = 4;

/** One span as ScopeSpans' field 2 (length first), at the writer's end. */
export function writeSpanProto(w: ProtoBytes, s: SpanRecord): void {
  w.byte(key(2, 2));
  w.need(LENGTH_ROOM);
  const lengthAt = w.at;
  w.at += LENGTH_ROOM;
  const start = w.at;
  w.hexId(1, s.traceId);
  w.hexId(2, s.spanId);
  if (s.tracestate) w.string(3, s.tracestate);
  if (s.parentSpanId) w.hexId(4, s.parentSpanId);
  w.string(5, s.name);
  w.byte(key(6, 0));
  w.byte(s.kind);
  w.nanos(7, s.startMs);
  w.nanos(8, s.endMs);
  writeEachAttribute(w, s.attributes, SPAN_ATTRIBUTES);
  if (s.statusCode !== 0) {
    const size = utf8Size(s.statusMessage);
    w.byte(key(15, 2));
    w.varint(1 + varintSize(size) + size + 2);
    w.string(2, s.statusMessage);
    w.byte(key(3, 0));
    w.byte(s.statusCode);
  }
  // The length goes in the room kept for it; the span moves to meet it when it takes more or less.
  const length = w.at - start;
  const size = varintSize(length);
  if (size > LENGTH_ROOM) w.need(size - LENGTH_ROOM);
  if (size !== LENGTH_ROOM) w.buf.copyWithin(lengthAt + size, start, w.at);
  const end = w.at + size - LENGTH_ROOM;
  w.at = lengthAt;
  w.varint(length);
  w.at = end;
}

/** A length-delimited field holding `parts`. */
function field(number: number, parts: readonly Uint8Array[]): Buffer[] {
  const size = parts.reduce((n, p) => n + p.length, 0);
  const head = new ProtoBytes(8);
  head.byte(key(number, 2));
  head.varint(size);
  return [Buffer.from(head.buf.subarray(0, head.at)), ...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))];
}

/** The resource and the scope, encoded once: what every request carries before its spans. */
export interface ProtoHead {
  resource: Buffer;
  scope: Buffer;
}

export function protoHead(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }): ProtoHead {
  const r = new ProtoBytes(256);
  writeEachAttribute(r, [resource], RESOURCE_ATTRIBUTES);
  const sc = new ProtoBytes(64);
  sc.string(1, scope.name);
  sc.string(2, scope.version);
  return { resource: Buffer.concat(field(1, [r.buf.subarray(0, r.at)])), scope: Buffer.concat(field(1, [sc.buf.subarray(0, sc.at)])) };
}

/** The parts of an export request around `spans` (the spans' fields, as writeSpanProto wrote them). */
export function protoRequest(head: ProtoHead, spans: Uint8Array): Buffer[] {
  const scopeSpans = field(2, [head.scope, spans]);
  return field(1, [head.resource, ...scopeSpans]);
}
