/**
 * OTLP/JSON (ExportTraceServiceRequest) written by hand: each span's text built by
 * concatenation, with no intermediate objects (span-batch.ts encodes it as the span ends). Ids are hex strings, times strings of unix nanoseconds,
 * int64 values strings, as the protobuf JSON mapping has them.
 */
import type { SpanAttributes } from '../core/tracing.js';
import type { SpanRecord } from './span-record.js';

const str = JSON.stringify;

// Unix nanoseconds of performance.now() = 0, split so that no sum exceeds 2^53.
const ORIGIN_MS = Math.floor(performance.timeOrigin);
const ORIGIN_FRACTION_NS = Math.round((performance.timeOrigin - ORIGIN_MS) * 1e6);

/** Unix nanoseconds, as a decimal string, of a performance.now() reading. */
export function unixNanos(nowMs: number): string {
  const ns = ORIGIN_FRACTION_NS + Math.round(nowMs * 1e6);
  const carryMs = Math.floor(ns / 1e6);
  const rest = String(ns - carryMs * 1e6);
  return String(ORIGIN_MS + carryMs) + '000000'.slice(rest.length) + rest;
}

function value(v: string | number | boolean): string {
  if (typeof v === 'string') return `{"stringValue":${str(v)}}`;
  if (typeof v === 'boolean') return v ? '{"boolValue":true}' : '{"boolValue":false}';
  if (Number.isSafeInteger(v)) return `{"intValue":"${v}"}`;
  // The protobuf JSON mapping writes the non-finite doubles as strings.
  return Number.isFinite(v) ? `{"doubleValue":${v}}` : `{"doubleValue":"${Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity'}"}`;
}

/** `{"key":"<key>","value":` per attribute name: the names are few and repeat in every span. */
const KEY_PREFIXES = new Map<string, string>();
function keyPrefix(key: string): string {
  let prefix = KEY_PREFIXES.get(key);
  if (prefix === undefined) {
    prefix = `{"key":${str(key)},"value":`;
    // Bounded, in case a caller makes names from data.
    if (KEY_PREFIXES.size < 1000) KEY_PREFIXES.set(key, prefix);
  }
  return prefix;
}

/** Whether a later object of the list sets `key` (then that one is written instead). */
function setLater(list: readonly SpanAttributes[], from: number, key: string): boolean {
  for (let j = from + 1; j < list.length; j++) if (list[j]![key] !== undefined) return true;
  return false;
}

/**
 * A frozen attribute object is a constant one (the attributes of a route, made once): written
 * once and kept, by identity. Its names are not set again by a later object of the same span.
 */
const FROZEN = new WeakMap<SpanAttributes, string>();

function frozenJson(attrs: SpanAttributes): string {
  let text = FROZEN.get(attrs);
  if (text === undefined) {
    text = attributesJson([{ ...attrs }]).slice(1, -1);
    FROZEN.set(attrs, text);
  }
  return text;
}

function attributesJson(list: readonly SpanAttributes[]): string {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const attrs = list[i]!;
    if (Object.isFrozen(attrs)) {
      const text = frozenJson(attrs);
      if (text) out += (out ? ',' : '') + text;
      continue;
    }
    for (const key in attrs) {
      const v = attrs[key];
      if (v === undefined || setLater(list, i, key)) continue;
      out += (out ? ',' : '') + keyPrefix(key) + value(v) + '}';
    }
  }
  return `[${out}]`;
}

/** One span as OTLP/JSON. */
export function spanJson(s: SpanRecord): string {
  return (
    `{"traceId":"${s.traceId}","spanId":"${s.spanId}"` +
    (s.parentSpanId ? `,"parentSpanId":"${s.parentSpanId}"` : '') +
    (s.tracestate ? `,"traceState":${str(s.tracestate)}` : '') +
    `,"name":${str(s.name)},"kind":${s.kind},"startTimeUnixNano":"${unixNanos(s.startMs)}","endTimeUnixNano":"${unixNanos(s.endMs)}"` +
    `,"attributes":${attributesJson(s.attributes)}` +
    `,"status":${s.statusCode === 0 ? '{"code":0}' : `{"code":${s.statusCode},"message":${str(s.statusMessage)}}`}}`
  );
}

/** The part of every request that never changes: the resource and the scope, up to the spans. */
export function requestPrefix(resource: Readonly<Record<string, string>>, scope: { name: string; version: string }): string {
  return `{"resourceSpans":[{"resource":{"attributes":${attributesJson([resource])}},"scopeSpans":[{"scope":{"name":${str(scope.name)},"version":${str(scope.version)}},"spans":[`;
}

/** What closes a request after its spans. */
export const REQUEST_SUFFIX = ']}]}]}';
