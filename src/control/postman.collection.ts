import { JOURNEY, MAX_REPEATS, type JourneyStep } from './postman.journey.js';

/**
 * A Postman collection (format v2.1) of the /v1 API, made from the published OpenAPI document:
 * a folder per tag, a request per operation with `{{baseUrl}}` and the workspace's keys as
 * collection variables (for each operation a key with its scope, of one employer's test
 * keys, and with the role a step needs), bodies from the schemas' examples and defaults, and
 * a test script that asserts the documented status, keeps the ids later requests name (from a
 * create's answer, or a list's first item that may be fetched) and
 * sends the run on in the journey's order (postman.journey.ts), which crosses folders.
 */

type Json = Record<string, unknown>;

/** The parts of the OpenAPI document read here. */
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  'x-scope'?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, unknown>;
}
export interface OpenApiDocument {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

/** A key as GET /_emulator/keys lists it. */
export interface CollectionKey {
  key: string;
  environment: string;
  organization_id: string;
  partner_id: string | null;
  user: { roles: string[] } | null;
  scopes: string[];
}

interface PostmanVariable {
  key: string;
  value: string;
  type: 'string';
  description?: string;
}
interface PostmanItem {
  id: string;
  name: string;
  request: Json;
  event: { listen: 'test'; script: { type: 'text/javascript'; exec: string[] } }[];
}
export interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  item: { name: string; description?: string; item: PostmanItem[] }[];
  variable: PostmanVariable[];
}

const SCHEMA_URL = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `{id}` after `/onboardings` is `onboarding_id`; `{documentId}` is `document_id`. */
function paramVariable(segments: string[], i: number): string {
  const name = segments[i]!.slice(1, -1);
  if (name !== 'id') return name.replace(/Id$/, '_id').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return `${singular(segments[i - 1] ?? 'resource')}_id`;
}
const singular = (segment: string): string => segment.replace(/-/g, '_').replace(/ies$/, 'y').replace(/s$/, '');

/** What a JSON pointer of the document (`#/components/...`) names. */
function resolve(doc: Json, node: unknown): Json {
  let at = node as Json;
  for (let hops = 0; typeof at?.$ref === 'string' && hops < 10; hops++) {
    at = (at.$ref as string).slice(2).split('/').reduce<unknown>((o, key) => (o as Json | undefined)?.[key], doc) as Json;
  }
  return at ?? {};
}

/** A value the schema accepts: its example, else its default, else one built from its properties (required ones and those with a default). */
function exampleOf(doc: Json, node: unknown, depth = 0): unknown {
  const s = resolve(doc, node);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('default' in s) return s.default;
  if (depth > 8) return null;
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (union) return exampleOf(doc, union.find((u) => resolve(doc, u).type !== 'null') ?? union[0], depth + 1);
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'object': {
      const required = new Set((s.required as string[] | undefined) ?? []);
      const out: Json = {};
      for (const [name, prop] of Object.entries((s.properties as Json | undefined) ?? {})) {
        const p = resolve(doc, prop);
        if (required.has(name) || 'default' in p || Array.isArray(p.examples)) out[name] = exampleOf(doc, p, depth + 1);
      }
      return out;
    }
    case 'array': return [];
    case 'integer': case 'number': return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean': return false;
    case 'string':
      return s.format === 'email' ? 'jane.doe@example.com' : s.format === 'date' ? '2026-12-01' : s.format === 'date-time' ? '2026-12-01T09:00:00Z' : s.format === 'uri' ? 'https://example.com' : 'example';
    default: return null;
  }
}

interface Planned {
  step: JourneyStep;
  method: string;
  path: string;
  op: Operation;
  id: string;
}

/** Each journey step with its operation; the document's operations no step names come last, in its order. */
function plan(doc: OpenApiDocument): Planned[] {
  const ops = new Map<string, { method: string; path: string; op: Operation }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const method of METHODS) if (item[method]) ops.set(item[method].operationId, { method: method.toUpperCase(), path, op: item[method] });
  }
  const steps = [...JOURNEY.filter((s) => ops.has(s.operationId)), ...[...ops.keys()].filter((id) => !JOURNEY.some((s) => s.operationId === id)).map((operationId): JourneyStep => ({ operationId }))];
  return steps.map((step) => {
    const found = ops.get(step.operationId)!;
    return { step, ...found, id: step.name ? `${step.operationId} ${step.name}` : step.operationId };
  });
}

/** The status the document gives the operation's success: its lowest 2xx. */
const successOf = (op: Operation): number => Math.min(...Object.keys(op.responses).map(Number).filter((s) => s >= 200 && s < 300));

/**
 * The keys of one employer to run as: its test keys, of the employer whose test key has the
 * most scopes (live keys do not reach the sandbox; a partner's need Service-Organization).
 */
function employerKeys(keys: readonly CollectionKey[]): CollectionKey[] {
  const test = keys.filter((k) => k.environment === 'test' && k.partner_id === null);
  const widest = [...test].sort((a, b) => b.scopes.length - a.scopes.length)[0];
  return widest ? test.filter((k) => k.organization_id === widest.organization_id) : [];
}

export function postmanCollection(doc: OpenApiDocument, keys: readonly CollectionKey[], baseUrl: string): PostmanCollection {
  const planned = plan(doc);
  const own = employerKeys(keys);
  const keyVariables = new Map<string, PostmanVariable>();
  const variables: PostmanVariable[] = [{ key: 'baseUrl', value: baseUrl.replace(/\/+$/, ''), type: 'string', description: 'the emulator (or the service) to run against' }];
  const used = new Set(planned.flatMap((p) => p.path.split('/').flatMap((s, i, all) => (s.startsWith('{') ? [paramVariable(all, i)] : []))));

  /** The variable holding the key an operation runs with. */
  const keyFor = (p: Planned): string => {
    const scope = p.op['x-scope'];
    const fit = own.find((k) => (scope === undefined || k.scopes.includes(scope)) && (p.step.role === undefined || (k.user?.roles.includes(p.step.role) ?? false)));
    // Only an employer's test key, never a live or a partner one: a collection file is shared and committed.
    const key = fit ?? own[0];
    if (!key) {
      keyVariables.set('apiKey', { key: 'apiKey', value: '', type: 'string', description: 'the workspace has no employer test key: set one here' });
      return 'apiKey';
    }
    const known = [...keyVariables.entries()].find(([, v]) => v.value === key.key);
    if (known) return known[0];
    const base = `${key.user?.roles[0] ?? 'api'}Key`.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
    const name = keyVariables.has(base) ? `${base}${keyVariables.size + 1}` : base;
    keyVariables.set(name, { key: name, value: key.key, type: 'string', description: `a test key with ${key.scopes.length} scope(s)${key.user ? `, its user a ${key.user.roles.join(' and ') || 'user without a role'}` : ''}` });
    return name;
  };

  const items = planned.map((p, index): { tag: string; item: PostmanItem } => {
    const segments = p.path.split('/');
    const pathSegments = segments.slice(1).map((s, i) => (s.startsWith('{') ? `{{${paramVariable(segments, i + 1)}}}` : s));
    const query = (p.op.parameters ?? []).map((param) => resolve(doc as unknown as Json, param)).filter((param) => param.in === 'query');
    const queryItems = query.map((q) => {
      const schema = resolve(doc as unknown as Json, q.schema);
      const value = 'default' in schema ? String(schema.default as string | number) : '';
      return { key: q.name as string, value, ...(value === '' ? { disabled: true } : {}), ...(typeof q.description === 'string' ? { description: q.description } : {}) };
    });
    const enabled = queryItems.filter((q) => !q.disabled);
    const raw = `{{baseUrl}}/${pathSegments.join('/')}${enabled.length ? `?${enabled.map((q) => `${q.key}=${q.value}`).join('&')}` : ''}`;
    const body = bodyOf(doc, p, variables);
    const status = successOf(p.op);
    const next = planned[index + 1];
    return {
      tag: p.op.tags?.[0] ?? 'Other',
      item: {
        id: p.id,
        name: `${p.op.summary ?? p.op.operationId}${p.step.name ? ` (${p.step.name})` : ''}`,
        request: {
          method: p.method,
          auth: { type: 'bearer', bearer: [{ key: 'token', value: `{{${keyFor(p)}}}`, type: 'string' }] },
          header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
          url: { raw, host: ['{{baseUrl}}'], path: pathSegments, ...(queryItems.length ? { query: queryItems } : {}) },
          ...(body === undefined ? {} : { body: { mode: 'raw', raw: body, options: { raw: { language: 'json' } } } }),
          description: `${p.method} ${p.path} (operation ${p.op.operationId}; scope ${p.op['x-scope'] ?? 'none'}); documented answer ${status}.`,
        },
        event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(p, status, segments, used, next?.id ?? null) } }],
      },
    };
  });

  // Folders in the order the run first reaches them, each request in run order.
  const folders: PostmanCollection['item'] = [];
  for (const { tag, item } of items) {
    let folder = folders.find((f) => f.name === tag);
    if (!folder) folders.push((folder = { name: tag, item: [] }));
    folder.item.push(item);
  }
  for (const name of used) variables.push({ key: name, value: '', type: 'string', description: 'kept by the run from an earlier answer' });
  variables.push({ key: 'data_version', value: '', type: 'string', description: 'the onboarding\'s data_version, kept from each answer' });
  return {
    info: {
      name: `${doc.info.title}: /v1`,
      description: [
        'Every /v1 operation of the OpenAPI document, one folder per tag. Run the whole collection: each request sends the run on to the next one of the journey (create, review, approve, contract, cancel), which crosses folders, and keeps the ids the later ones use.',
        'Set baseUrl and the key variables for another emulator or workspace; webhookUrl is where the webhook address created points.',
      ].join('\n\n'),
      schema: SCHEMA_URL,
    },
    item: folders,
    variable: [...variables.slice(0, 1), ...keyVariables.values(), ...variables.slice(1)],
  };
}

/** The body to send: the schema's example or defaults, a step's variables put in, the role a step names; undefined for none. */
function bodyOf(doc: OpenApiDocument, p: Planned, variables: PostmanVariable[]): string | undefined {
  if (!p.op.requestBody) return undefined;
  const requestBody = resolve(doc as unknown as Json, p.op.requestBody);
  const schema = (requestBody.content as Json | undefined)?.['application/json'] as Json | undefined;
  const example = exampleOf(doc as unknown as Json, schema?.schema);
  if (example === null || typeof example !== 'object' || Array.isArray(example)) return undefined;
  const body = { ...(example as Json) };
  if (Object.keys(body).length === 0 && requestBody.required !== true) return undefined;
  const numbers: string[] = [];
  for (const [property, variable] of Object.entries(p.step.variables ?? {})) {
    if (!variables.some((v) => v.key === variable)) variables.push({ key: variable, value: String(body[property] ?? ''), type: 'string', description: `${property} of ${p.op.operationId}` });
    body[property] = `{{${variable}}}`;
  }
  if ('data_version' in body) {
    body.data_version = '{{data_version}}';
    numbers.push('data_version');
  }
  if (p.step.role !== undefined && 'role' in body) body.role = p.step.role;
  let text = JSON.stringify(body, null, 2);
  // A number kept in a variable goes in bare, so the body stays a number once Postman fills it in.
  for (const name of numbers) text = text.replace(`"{{${name}}}"`, `{{${name}}}`);
  return text;
}

/**
 * The test script: the documented status, the ids later requests name (a create keeps its id;
 * a list its first item's, unless one is kept already), the onboarding's data_version, and
 * where the run goes next (the same request again while a repeating step has not arrived).
 */
function testScript(p: Planned, status: number, segments: string[], used: Set<string>, next: string | null): string[] {
  const js = (v: unknown) => JSON.stringify(v);
  const lines = [
    `pm.test(${js(`${p.method} ${p.path} answers ${status}`)}, function () { pm.response.to.have.status(${status}); });`,
    'var body = {};',
    'try { body = pm.response.json(); } catch (e) { body = {}; }',
  ];
  const last = segments.at(-1)!;
  const own = last.startsWith('{') ? undefined : `${singular(last)}_id`;
  if (own !== undefined && used.has(own)) {
    if (p.method === 'POST') lines.push(`if (body.id) pm.collectionVariables.set(${js(own)}, body.id);`);
    // An item that says it cannot be fetched (a document not downloadable) is not the one to fetch next.
    if (p.method === 'GET') {
      lines.push(
        'var listed = Array.isArray(body.data) ? body.data.filter(function (d) { return d.downloadable !== false; }) : [];',
        `if (!pm.collectionVariables.get(${js(own)}) && listed[0]) pm.collectionVariables.set(${js(own)}, listed[0].id);`,
      );
    }
  }
  lines.push(
    'var onboarding = body.onboarding || body;',
    "if (typeof onboarding.data_version === 'number') pm.collectionVariables.set('data_version', onboarding.data_version);",
  );
  const then = next === null ? 'pm.execution.setNextRequest(null);' : `pm.execution.setNextRequest(${js(next)});`;
  if (p.step.until === undefined) return [...lines, then];
  const counter = `repeats ${p.id}`;
  return [
    ...lines,
    `var sent = Number(pm.collectionVariables.get(${js(counter)}) || 0) + 1;`,
    `pm.collectionVariables.set(${js(counter)}, sent);`,
    `if (onboarding.status !== ${js(p.step.until)} && sent < ${MAX_REPEATS}) {`,
    `  pm.execution.setNextRequest(${js(p.id)});`,
    '} else {',
    `  pm.test(${js(`the onboarding reaches ${p.step.until}`)}, function () { pm.expect(onboarding.status).to.eql(${js(p.step.until)}); });`,
    `  ${then}`,
    '}',
  ];
}
