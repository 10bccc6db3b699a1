/**
 * OTLP/JSON (ExportTraceServiceRequest) written by hand, each span straight into the bytes of a
 * growing buffer (span-batch.ts writes it once the span has ended): no intermediate objects and no
 * strings built, so encoding a span leaves nothing for the collector. Ids are hex strings, times
 * strings of unix nanoseconds, int64 values strings, as the protobuf JSON mapping has them.
 */
import { monotonicOriginMs } from '../core/clock.js';
import type { SpanAttributes } from '../core/tracing.js';
import { writeEachAttribute, type AttributeEncoder, type AttributeValue } from './attribute-walk.js';
import { ByteWriter } from './byte-writer.js';
import type { SpanRecord } from './span-record.js';

const str = JSON.stringify;

// Unix nanoseconds of monotonicMs() = 0, split so that no sum exceeds 2^53.
export const ORIGIN_MS = Math.floor(monotonicOriginMs());
export const ORIGIN_FRACTION_NS = Math.round((monotonicOriginMs() - ORIGIN_MS) * 1e6);

/** Unix nanoseconds, as a decimal string, of a monotonicMs() reading. */
export function unixNanos(nowMs: number): string {
  const ns = ORIGIN_FRACTION_NS + Math.round(nowMs * 1e6);
  const carryMs = Math.floor(ns / 1e6);
  const rest = String(ns - carryMs * 1e6);
  return String(ORIGIN_MS + carryMs) + '000000'.slice(rest.length) + rest;
}

/** The byte writer of OTLP/JSON: the JSON string literals, decimal digits and times a span needs. */
export class JsonBytes extends ByteWriter {
  /** A JSON string literal of `text`; byte by byte while it is plain ASCII, else JSON.stringify's escapes as UTF-8. */
  string(text: string): void {
    const n = text.length;
    this.need(n + 2);
    const buf = this.buf;
    const start = this.at;
    let at = start;
    buf[at++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      // A control character, a quote, a backslash or beyond ASCII: the slow path.
      if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) {
        const escaped = str(text);
        this.need(escaped.length * 3);
        this.at = start + this.buf.write(escaped, start, 'utf8');
        return;
      }
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  /** A non-negative integer below 2^53, in decimal, padded with zeros to `width` digits. */
  digits(n: number, width = 1): void {
    let count = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) count++;
    if (count < width) count = width;
    this.need(count);
    const buf = this.buf;
    let rest = n;
    for (let i = this.at + count - 1; i >= this.at; i--) {
      const next = Math.floor(rest / 10);
      buf[i] = 0x30 + (rest - next * 10);
      rest = next;
    }
    this.at += count;
  }

  /** The unix nanoseconds of a monotonicMs() reading, in decimal, as unixNanos() writes them. */
  nanos(nowMs: number): void {
    const ns = ORIGIN_FRACTION_NS + Math.round(nowMs * 1e6);
    const carryMs = Math.floor(ns / 1e6);
    // Written afresh each time: a span's two times rarely share a millisecond under load, and a
    // kept copy of the digits cost an allocation at each change.
    this.digits(ORIGIN_MS + carryMs);
    this.digits(ns - carryMs * 1e6, 6);
  }
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

const TRACE_ID = bytes('{"traceId":"');
const SPAN_ID = bytes('","spanId":"');
const PARENT_SPAN_ID = bytes('","parentSpanId":"');
const TRACE_STATE = bytes('","traceState":');
const NAME_AFTER_ID = bytes('","name":');
const NAME_AFTER_STATE = bytes(',"name":');
const KIND = bytes(',"kind":');
const START = bytes(',"startTimeUnixNano":"');
const END = bytes('","endTimeUnixNano":"');
const ATTRIBUTES = bytes('","attributes":[');
const STATUS_UNSET = bytes('],"status":{"code":0}}');
const STATUS_ERROR = bytes('],"status":{"code":2,"message":');
const CLOSE = bytes('}}');
const INT_CLOSE = bytes('"}}');
const COMMA = bytes(',');

/**
 * An attribute's opening up to its value, one per kind of value (`{"key":"<key>","value":{"stringValue":`
 * and so on): the names are few and repeat in every span, so each is encoded once.
 */
interface KeyOpenings {
  string: Buffer;
  int: Buffer;
  negative: Buffer;
  double: Buffer;
  true: Buffer;
  false: Buffer;
}
const KEY_OPENINGS = new Map<string, KeyOpenings>();
function keyOpenings(key: string): KeyOpenings {
  let openings = KEY_OPENINGS.get(key);
  if (openings === undefined) {
    const head = `{"key":${str(key)},"value":`;
    openings = {
      string: bytes(`${head}{"stringValue":`),
      int: bytes(`${head}{"intValue":"`),
      negative: bytes(`${head}{"intValue":"-`),
      double: bytes(`${head}{"doubleValue":`),
      true: bytes(`${head}{"boolValue":true}}`),
      false: bytes(`${head}{"boolValue":false}}`),
    };
    // Bounded, in case a caller makes names from data.
    if (KEY_OPENINGS.size < 1000) KEY_OPENINGS.set(key, openings);
  }
  return openings;
}

/** One attribute, `{"key":...,"value":{...}}`. */
function writeAttribute(w: JsonBytes, key: string, v: AttributeValue): void {
  const open = keyOpenings(key);
  if (typeof v === 'string') {
    w.raw(open.string);
    w.string(v);
    w.raw(CLOSE);
  } else if (typeof v === 'boolean') w.raw(v ? open.true : open.false);
  else if (Number.isSafeInteger(v)) {
    w.raw(v < 0 ? open.negative : open.int);
    w.digits(Math.abs(v));
    w.raw(INT_CLOSE);
  } else {
    w.raw(open.double);
    // The protobuf JSON mapping writes the non-finite doubles as strings.
    w.ascii(Number.isFinite(v) ? String(v) : Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"');
    w.raw(CLOSE);
  }
}

/** A frozen attribute object's text, encoded once and kept by identity. */
const FROZEN = new WeakMap<SpanAttributes, Buffer>();

const JSON_ATTRIBUTES: AttributeEncoder<JsonBytes> = {
  frozen(w, attributes, first) {
    let encoded = FROZEN.get(attributes);
    if (encoded === undefined) {
      const once = new JsonBytes(256);
      writeEachAttribute(once, [{ ...attributes }], JSON_ATTRIBUTES);
      encoded = Buffer.from(once.buf.subarray(0, once.at));
      FROZEN.set(attributes, encoded);
    }
    if (encoded.length === 0) return false;
    if (!first) w.raw(COMMA);
    w.raw(encoded);
    return true;
  },
  one(w, key, value, first) {
    if (!first) w.raw(COMMA);
    writeAttribute(w, key, value);
  },
};

/** The attributes' key-value objects, comma-separated, without the brackets. */
const writeAttributes = (w: JsonBytes, list: readonly SpanAttributes[]): void => writeEachAttribute(w, list, JSON_ATTRIBUTES);

/** One span as OTLP/JSON, at the writer's end. */
export function writeSpan(w: JsonBytes, s: SpanRecord): void {
  w.raw(TRACE_ID);
  w.ascii(s.traceId);
  w.raw(SPAN_ID);
  w.ascii(s.spanId);
  if (s.parentSpanId) {
    w.raw(PARENT_SPAN_ID);
    w.ascii(s.parentSpanId);
  }
  if (s.tracestate) {
    w.raw(TRACE_STATE);
    w.string(s.tracestate);
    w.raw(NAME_AFTER_STATE);
  } else w.raw(NAME_AFTER_ID);
  w.string(s.name);
  w.raw(KIND);
  w.digits(s.kind);
  w.raw(START);
  w.nanos(s.startMs);
  w.raw(END);
  w.nanos(s.endMs);
  w.raw(ATTRIBUTES);
  writeAttributes(w, s.attributes);
  if (s.statusCode === 0) w.raw(STATUS_UNSET);
  else {
    w.raw(STATUS_ERROR);
    w.string(s.statusMessage);
    w.raw(CLOSE);
  }
}

/** The part of every request that never changes: the resource and the scope, up to the spans. */
export function requestPrefix(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }): Buffer {
  const w = new JsonBytes(512);
  w.ascii('{"resourceSpans":[{"resource":{"attributes":[');
  writeAttributes(w, [resource]);
  w.ascii(']},"scopeSpans":[{"scope":{"name":');
  w.string(scope.name);
  w.ascii(',"version":');
  w.string(scope.version);
  w.ascii('},"spans":[');
  return Buffer.from(w.buf.subarray(0, w.at));
}

/** What closes a request after its spans. */
export const REQUEST_SUFFIX = bytes(']}]}]}');
