import { clientCalls, pathParams, type ClientCall, type ControlRoute } from '../../src/operations/control-row.js';
import { controlRows } from '../../src/control/control.table.js';
import { BODY_DEPTH_LIMIT } from '../../src/core/documents.js';
import { BODY_LIMIT } from '../../src/core/request-body.js';

/**
 * Inputs the control API refuses, made from the control rows' own schemas: for every client
 * method, its arguments left out, of the wrong type, out of range, with a field the row does not
 * know, a body that is no object, or over the row's size or depth limit, an id that names nothing, and (a row with a guard, its own
 * check before the schema) the empty body. Each case is written once as the request HTTP sends
 * and as the method's arguments and the MCP tool's properties, so every way in is handed the same
 * input. Values are JSON values; a query value goes over HTTP as its text.
 */
type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
  items?: Schema;
  additionalProperties?: unknown;
  examples?: unknown[];
};

export type CaseKind = 'missing' | 'type' | 'range' | 'unknown' | 'not-object' | 'too-large' | 'too-deep' | 'own-rule' | 'unknown-id';

export interface BadCase {
  /** `onboardings.approve: role out of range (not one of its values)` */
  label: string;
  kind: CaseKind;
  row: ControlRoute<never>;
  call: ClientCall;
  /** The request: path parameters, query values (their text goes on the wire), and a write's body. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  /** The client method's arguments; undefined where the method has no way to say it (a field it has no argument for). */
  args: unknown[] | undefined;
  /** The MCP tool call's properties besides `action`. */
  tool: Record<string, unknown>;
}

/** Arrays inside each other, `depth` deep. */
const nested = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};

/** A field no schema names. */
const UNKNOWN_FIELD = 'no_such_field';
/** An id no record has. */
export const UNKNOWN_ID = 'none_such_id';

const plain = (schema: unknown): Schema | undefined => (schema === undefined ? undefined : (JSON.parse(JSON.stringify(schema)) as Schema));

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** The JSON types a schema admits at its top (number admits integer). */
function typesOf(s: Schema): Set<string> {
  if (s.anyOf) return new Set(s.anyOf.flatMap((b) => [...typesOf(b)]));
  if ('const' in s) return new Set([s.const === null ? 'null' : typeof s.const === 'number' ? 'number' : typeof s.const]);
  if (s.enum) return new Set(s.enum.map((v) => (v === null ? 'null' : typeof v)));
  if (s.type === undefined) return new Set(JSON_TYPES);
  const types = new Set(Array.isArray(s.type) ? s.type : [s.type]);
  if (types.has('number')) types.add('integer');
  return types;
}

const SAMPLE_OF: Record<string, unknown> = { string: 'x', number: 1.5, integer: 7, boolean: true, object: {}, array: [], null: null };

/** Strings tried against a pattern, in order, for one that matches (valid) or one that does not (bad). */
const PATTERN_TRIES = ['x', '/x', 'abc_1', 'X', '1', '*', ' ', '/**', 'a.b', '~x~', 'http://127.0.0.1:9/hook'];
const FORMATS: Record<string, { good: string; bad: string }> = {
  'date-time': { good: '2026-10-05T09:00:00Z', bad: 'not-a-time' },
  date: { good: '2026-10-05', bad: 'not-a-date' },
  uri: { good: 'http://127.0.0.1:9/hook', bad: 'not a uri' },
  email: { good: 'ada@example.test', bad: 'not-an-email' },
};

const matches = (pattern: string, value: string): boolean => new RegExp(pattern, 'u').test(value);

/** A value the schema admits, as simple as can be (its example or default first). */
function validValue(s: Schema): unknown {
  if ('const' in s) return s.const;
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return validValue(s.anyOf.find((b) => b.type !== 'null') ?? s.anyOf[0]!);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      const format = FORMATS[s.format as string];
      if (format) return format.good;
      const min = (s.minLength as number | undefined) ?? 1;
      if (typeof s.pattern === 'string') return PATTERN_TRIES.find((t) => t.length >= min && matches(s.pattern as string, t)) ?? 'x'.repeat(min);
      return 'x'.repeat(min);
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, typeof s.maximum === 'number' ? Math.min(1, s.maximum) : 1) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: (s.minItems as number | undefined) ?? 0 }, () => validValue(s.items ?? {}));
    default:
      return Object.fromEntries((s.required ?? []).map((name) => [name, validValue(s.properties?.[name] ?? {})]));
  }
}

/** A value of a JSON type the schema does not admit, or none when it admits them all. */
function wrongType(s: Schema, onWire: boolean): unknown {
  const admitted = typesOf(s);
  // Over a query string every value is text: only a type text cannot pass for is wrong there.
  if (onWire) return admitted.has('string') ? undefined : admitted.has('boolean') ? 'maybe' : true;
  const wrong = JSON_TYPES.find((t) => !admitted.has(t) && !(t === 'number' && admitted.has('integer')) && !(t === 'integer' && admitted.has('number')));
  return wrong === undefined ? undefined : SAMPLE_OF[wrong];
}

/** Values out of range for one branch of a schema, each with the rule it breaks. */
function outOfRange(s: Schema): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (s.anyOf?.every((b) => 'const' in b) || s.enum) out.push(['not one of its values', 'not_a_value']);
  if (typeof s.minimum === 'number') out.push(['below its minimum', s.minimum - 1]);
  if (typeof s.maximum === 'number') out.push(['above its maximum', s.maximum + 1]);
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push(['shorter than its minLength', 'x'.repeat(s.minLength - 1)]);
  if (typeof s.maxLength === 'number') out.push(['longer than its maxLength', 'x'.repeat(s.maxLength + 1)]);
  if (typeof s.pattern === 'string') {
    const miss = PATTERN_TRIES.find((t) => t.length >= ((s.minLength as number | undefined) ?? 0) && !matches(s.pattern as string, t));
    if (miss !== undefined) out.push(['not matching its pattern', miss]);
  }
  const format = FORMATS[s.format as string];
  if (format) out.push([`not a ${s.format as string}`, format.bad]);
  return out;
}

/** Out-of-range values for a property: a mixed anyOf (number or text) is out of range in each branch. */
function rangeCases(s: Schema): [string, unknown][] {
  if (s.anyOf && !s.anyOf.every((b) => 'const' in b)) return s.anyOf.flatMap(outOfRange).filter(([, v]) => v !== 'not_a_value');
  return outOfRange(s);
}

interface Parts {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: Record<string, unknown> | unknown;
}

/** Where a named argument of a method goes: a path parameter, a query value, else a body field. */
function placeOf(row: ControlRoute<never>, name: string): 'params' | 'query' | 'body' {
  if (pathParams(row).includes(name)) return 'params';
  return name in (plain(row.query)?.properties ?? {}) ? 'query' : 'body';
}

/** The method's arguments and the tool's properties for one request; `args` undefined if a field has no argument. */
function argumentsOf(row: ControlRoute<never>, call: ClientCall, parts: Parts): Pick<BadCase, 'args' | 'tool'> {
  if (call.args === 'body') return { args: [parts.body], tool: { body: parts.body } };
  if (call.args === 'query') return { args: [parts.query], tool: { query: parts.query } };
  const names = call.args ?? [];
  const fields = { ...parts.params, ...parts.query, ...(parts.body as Record<string, unknown> | undefined) };
  const tool = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const fixed = call.query ?? {};
  const unnamed = Object.keys(fields).some((name) => !names.includes(name) && !(name in fixed));
  return { args: unnamed ? undefined : names.map((name) => fields[name]), tool };
}

/**
 * Every bad case of every client method of the control rows. `idOf` gives each path parameter
 * the id of a record that exists (an onboarding in review, for the onboarding actions), so a
 * row's own rules past its lookup are reached.
 */
export function badCases(idOf: (row: ControlRoute<never>, param: string) => string): BadCase[] {
  const cases: BadCase[] = [];
  for (const row of controlRows as ControlRoute<never>[]) {
    const body = plain(row.body);
    const query = plain(row.query);
    const write = row.method !== 'GET' && row.method !== 'DELETE';
    for (const call of clientCalls(row)) {
      const names = call.args === 'body' || call.args === 'query' ? undefined : (call.args ?? []);
      /** Which fields of a part the method can be given: all of a whole body or query, else the named ones. */
      // A value the method always sends (`format: har`) is not the caller's to get wrong.
      const given = (part: 'query' | 'body', schema: Schema | undefined): string[] =>
        Object.keys(schema?.properties ?? {}).filter((name) => !(name in (call.query ?? {})) && (names === undefined ? call.args === part : names.includes(name) && placeOf(row, name) === part));
      const bodyFields = write ? given('body', body) : [];
      const queryFields = given('query', query);
      const params = Object.fromEntries(pathParams(row).map((p) => [p, idOf(row, p)]));
      // What the method sends when given only what it must: required fields with valid values.
      const fill = (schema: Schema | undefined, fields: string[]) =>
        Object.fromEntries(fields.filter((f) => schema?.required?.includes(f)).map((f) => [f, validValue(schema!.properties![f]!)]));
      const baseBody = write ? (body?.examples?.length && call.args === 'body' ? (body.examples[0] as Record<string, unknown>) : fill(body, bodyFields)) : undefined;
      const baseQuery = fill(query, queryFields);
      const seen = new Set<string>();
      const add = (kind: CaseKind, what: string, parts: Parts) => {
        const key = JSON.stringify([parts.params, parts.query, parts.body === undefined ? 'none' : parts.body]);
        if (seen.has(key)) return;
        seen.add(key);
        cases.push({ label: `${call.name}: ${what}`, kind, row, call, ...parts, ...argumentsOf(row, call, parts) });
      };
      const withBody = (b: unknown): Parts => ({ params, query: baseQuery, ...(write ? { body: b } : {}) });
      const withQuery = (q: Record<string, unknown>): Parts => ({ params, query: q, ...(write ? { body: baseBody } : {}) });

      // A row's own check of the body before its schema: the empty body.
      if (row.guard && write) add('own-rule', 'the empty body (the row\'s own check)', withBody({}));
      if (write && body?.required?.some((f) => bodyFields.includes(f))) add('missing', 'required body fields left out', withBody({}));
      if (query?.required?.some((f) => queryFields.includes(f))) add('missing', 'required query values left out', withQuery({}));
      for (const [part, schema, fields] of [['body', body, bodyFields], ['query', query, queryFields]] as const) {
        if (!schema) continue;
        const base = (part === 'body' ? baseBody : baseQuery) as Record<string, unknown>;
        const put = (field: string, value: unknown) => (part === 'body' ? withBody({ ...base, [field]: value }) : withQuery({ ...base, [field]: value }));
        for (const field of fields) {
          const prop = schema.properties![field]!;
          const wrong = wrongType(prop, part === 'query');
          if (wrong !== undefined) add('type', `${field} of the wrong type`, put(field, wrong));
          for (const [rule, value] of rangeCases(prop)) add('range', `${field} ${rule}`, put(field, value));
        }
        if (schema.additionalProperties === false && (fields.length > 0 || names !== undefined || call.args === part)) {
          add('unknown', `a ${part} field the row does not know`, put(UNKNOWN_FIELD, 1));
        }
      }
      // Past the row's limits, in a field the method can be given (any field, for a whole body).
      const carrier = call.args === 'body' ? UNKNOWN_FIELD : bodyFields[0];
      if (write && body && carrier !== undefined) {
        const withValue = (value: unknown) => withBody({ ...(baseBody as Record<string, unknown>), [carrier]: value });
        if (row.bodyLimit === undefined) add('too-large', `a body over ${BODY_LIMIT} bytes`, withValue('x'.repeat(BODY_LIMIT)));
        add('too-deep', 'a body nested past its depth limit', withValue(nested((row.bodyDepth ?? BODY_DEPTH_LIMIT) + 1)));
      }
      if (call.args === 'body') {
        // No body at all reads as `{}` over HTTP, and the method given nothing sends none.
        if (body?.required?.length) add('missing', 'the body left out', withBody(undefined));
        add('not-object', 'a body that is a list', withBody([]));
        add('not-object', 'a body that is null', withBody(null));
      }
      for (const p of pathParams(row)) add('unknown-id', `${p} naming nothing`, { params: { ...params, [p]: UNKNOWN_ID }, query: baseQuery, ...(write ? { body: baseBody } : {}) });
    }
  }
  return cases;
}
