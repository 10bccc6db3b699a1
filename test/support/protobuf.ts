/**
 * A small reader of protobuf's wire format, enough to turn an OTLP/protobuf trace export
 * (ExportTraceServiceRequest) into the shape its OTLP/JSON form has: the tests' receiver takes
 * both encodings, and a test compares the two encoders through it. Written from the wire format
 * and opentelemetry-proto's field numbers, not from our encoder.
 */
type Value = { wire: 0; n: bigint } | { wire: 1; bytes: Buffer } | { wire: 2; bytes: Buffer } | { wire: 5; bytes: Buffer };
type Fields = Map<number, Value[]>;

function varint(buf: Buffer, at: number): [bigint, number] {
  let result = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (at >= buf.length) throw new Error('protobuf: a varint runs past the end');
    const b = buf[at++]!;
    result |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return [result, at];
  }
}

function fields(buf: Buffer): Fields {
  const out: Fields = new Map();
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: Value;
    if (wire === 0) {
      const [n, after] = varint(buf, at);
      value = { wire, n };
      at = after;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      value = { wire, bytes: buf.subarray(at, at + size) };
      at += size;
    } else if (wire === 2) {
      const [size, after] = varint(buf, at);
      value = { wire, bytes: buf.subarray(after, after + Number(size)) };
      at = after + Number(size);
    } else throw new Error(`protobuf: wire type ${wire} is not read here`);
    if (at > buf.length) throw new Error('protobuf: a field runs past the end');
    out.set(no, [...(out.get(no) ?? []), value]);
  }
  return out;
}

const all = (f: Fields, no: number): Value[] => f.get(no) ?? [];
const one = (f: Fields, no: number): Value | undefined => all(f, no).at(-1);
const bytesOf = (v: Value | undefined): Buffer | undefined => (v && v.wire !== 0 ? v.bytes : undefined);
const text = (f: Fields, no: number): string | undefined => bytesOf(one(f, no))?.toString('utf8');
const hex = (f: Fields, no: number): string | undefined => bytesOf(one(f, no))?.toString('hex');
const num = (f: Fields, no: number): number | undefined => {
  const v = one(f, no);
  return v?.wire === 0 ? Number(v.n) : undefined;
};
const fixed64 = (f: Fields, no: number): string | undefined => bytesOf(one(f, no))?.readBigUInt64LE(0).toString();

/** An AnyValue as the protobuf JSON mapping writes it. */
function anyValue(f: Fields): Record<string, unknown> {
  if (f.has(1)) return { stringValue: text(f, 1) };
  if (f.has(2)) return { boolValue: num(f, 2) === 1 };
  if (f.has(3)) {
    const v = one(f, 3)!;
    return { intValue: BigInt.asIntN(64, v.wire === 0 ? v.n : 0n).toString() };
  }
  if (f.has(4)) {
    const d = bytesOf(one(f, 4))!.readDoubleLE(0);
    return { doubleValue: Number.isFinite(d) ? d : Number.isNaN(d) ? 'NaN' : d > 0 ? 'Infinity' : '-Infinity' };
  }
  return {};
}

const keyValues = (f: Fields, no: number) =>
  all(f, no).map((v) => {
    const kv = fields(bytesOf(v)!);
    return { key: text(kv, 1), value: anyValue(fields(bytesOf(one(kv, 2)) ?? Buffer.alloc(0))) };
  });

function span(f: Fields): Record<string, unknown> {
  const status = bytesOf(one(f, 15));
  const s = status ? fields(status) : new Map<number, Value[]>();
  const message = text(s, 2);
  return {
    traceId: hex(f, 1),
    spanId: hex(f, 2),
    ...(f.has(4) ? { parentSpanId: hex(f, 4) } : {}),
    ...(f.has(3) ? { traceState: text(f, 3) } : {}),
    name: text(f, 5),
    kind: num(f, 6) ?? 0,
    startTimeUnixNano: fixed64(f, 7),
    endTimeUnixNano: fixed64(f, 8),
    attributes: keyValues(f, 9),
    status: { code: num(s, 3) ?? 0, ...(message !== undefined ? { message } : {}) },
  };
}

/** An ExportTraceServiceRequest, as its OTLP/JSON form has it. */
export function decodeTraceRequest(body: Buffer): { resourceSpans: Record<string, unknown>[] } {
  return {
    resourceSpans: all(fields(body), 1).map((rsv) => {
      const rs = fields(bytesOf(rsv)!);
      const resource = fields(bytesOf(one(rs, 1)) ?? Buffer.alloc(0));
      return {
        resource: { attributes: keyValues(resource, 1) },
        scopeSpans: all(rs, 2).map((ssv) => {
          const ss = fields(bytesOf(ssv)!);
          const scope = fields(bytesOf(one(ss, 1)) ?? Buffer.alloc(0));
          return { scope: { name: text(scope, 1), version: text(scope, 2) }, spans: all(ss, 2).map((sv) => span(fields(bytesOf(sv)!))) };
        }),
      };
    }),
  };
}
