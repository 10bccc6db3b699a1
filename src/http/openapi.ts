import { plainSchema, type JsonSchema, type TSchema } from '../core/schema.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import type { ApiRoute } from '../resources/route.js';
import type { BodyType } from '../operations/reply.js';
import type { ControlRoute } from '../operations/control-row.js';
import type { Emulator } from '../emulator.js';
import { API_VERSIONS } from '../core/versions.js';
import { IDEMPOTENCY_KEY_MAX } from '../core/idempotency.js';
import { DEFAULT_BASE_URL, EMULATOR_VERSION } from '../core/product.js';
import { pageRoutes } from '../pages/pages.routes.js';
import type { PageResponse, PageRoute } from '../pages/route.js';
import { allControlRoutes, apiRoutes, servedPaths } from './routes.js';
import { webhooks } from './openapi.webhooks.js';

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

type AnyRoute = ApiRoute | ControlRoute<Emulator>;
type Json = Record<string, unknown>;

/** The address the document names when its builder is given none: the CLI's default. */
const DEFAULT_SERVER_URL = DEFAULT_BASE_URL;

// ---------------------------------------------------------------------------------------------
// Named schemas: a schema's `title` is its name under components.schemas.

/** Keywords whose value is one schema, a list of schemas or a map of names to schemas. */
const ONE_SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'propertyNames', 'contains', 'unevaluatedProperties', 'unevaluatedItems'];
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/** The characters OpenAPI allows in a component's name. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Publishes schemas as the document shows them. A titled schema is written once under
 * components.schemas and referred to by `$ref` wherever it is used, nested uses included, so a
 * client generator gets one named type per title. Two different schemas with one title are a
 * mistake in the schema modules, refused here rather than published as one of them.
 * A union of string literals is published as `enum`, which generators turn into enum types;
 * ajv validates the same values either way.
 */
export class SchemaPublisher {
  readonly components: Record<string, Json> = {};
  readonly requestBodies: Record<string, Json> = {};
  private readonly texts = new Map<string, string>();

  ref(schema: TSchema): Json {
    return this.publish(plainSchema(schema));
  }

  /**
   * A request body. A titled one whose fields carry a `default` is published once under
   * components.requestBodies, its schema written there inline (what it nests by title still goes
   * to components.schemas): generators tell a request from an answer by where a schema stands,
   * and only in a request may a field with a default be left out (openapi-typescript with its
   * default settings makes it required anywhere else). Other bodies refer to components.schemas.
   */
  body(schema: TSchema, media: readonly string[], required: boolean): Json {
    const node = plainSchema(schema);
    const name = node.title;
    if (typeof name !== 'string' || !hasDefault(node)) return { required, content: Object.fromEntries(media.map((m) => [m, { schema: this.publish(node) }])) };
    const inline = this.children(node);
    const body = { required, content: Object.fromEntries(media.map((m) => [m, { schema: inline }])) };
    const seen = this.requestBodies[name];
    if (seen === undefined) this.requestBodies[name] = body;
    else if (JSON.stringify(seen) !== JSON.stringify(body)) throw new Error(`two different request bodies are titled ${name}: give one of them another title`);
    return { $ref: `#/components/requestBodies/${name}` };
  }

  private publish(node: Json): Json {
    const out = this.children(node);
    const name = node.title;
    if (typeof name !== 'string') return out;
    if (!COMPONENT_NAME.test(name)) throw new Error(`schema title ${JSON.stringify(name)} is not a component name`);
    const text = JSON.stringify(out);
    const seen = this.texts.get(name);
    if (seen === undefined) {
      this.texts.set(name, text);
      this.components[name] = out;
    } else if (seen !== text) {
      throw new Error(`two different schemas are titled ${name}: give one of them another title`);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private children(node: Json): Json {
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (ONE_SCHEMA.includes(key) && isObject(value)) out[key] = this.publish(value);
      else if (SCHEMA_LIST.includes(key) && Array.isArray(value)) out[key] = value.map((v) => (isObject(v) ? this.publish(v) : v));
      else if (SCHEMA_MAP.includes(key) && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? this.publish(v) : v]));
      } else out[key] = value;
    }
    if (isObject(node.discriminator) && Array.isArray(node.oneOf)) out.discriminator = mapping(node.discriminator, node.oneOf as Json[], out.oneOf as Json[]);
    return literalsAsEnum(out);
  }
}

/** A `default` anywhere in the schema's own tree (what it nests by title counts too: it is written inline here). */
const hasDefault = (node: unknown): boolean =>
  isObject(node) && ('default' in node || Object.values(node).some((v) => (Array.isArray(v) ? v.some(hasDefault) : hasDefault(v))));

/** `anyOf` of string constants → `enum` of them, keeping the schema's other keywords. */
function literalsAsEnum(schema: Json): Json {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return schema;
  const literal = (b: unknown): b is { const: string; type: 'string' } =>
    isObject(b) && Object.keys(b).length === 2 && b.type === 'string' && typeof b.const === 'string';
  if (!branches.every(literal)) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { type: 'string', enum: branches.map((b) => b.const), ...rest };
}

/** A discriminator's mapping from each branch's constant to the branch's component. */
function mapping(discriminator: Json, branches: Json[], refs: Json[]): Json {
  const property = String(discriminator.propertyName);
  const entries = branches.map((b, i) => {
    const value = ((b.properties as Record<string, Json> | undefined)?.[property])?.const;
    const ref = refs[i]?.$ref;
    if (typeof value !== 'string' || typeof ref !== 'string') throw new Error(`discriminator ${property}: every branch needs a title and a constant ${property}`);
    return [value, ref];
  });
  return { ...discriminator, mapping: Object.fromEntries(entries) };
}

// ---------------------------------------------------------------------------------------------
// Statuses and headers.

/** The error answers every operation may share, by status: when they happen. */
const ERROR_RESPONSES: Record<number, { name: string; description: string; headers?: Record<string, Json> }> = {
  400: { name: 'BadRequest', description: 'The request cannot be read: an unknown Service-Version, a Service-Organization a partner key must send, an invalid Idempotency-Key, or a body that is not a JSON object' },
  401: { name: 'Unauthorized', description: 'No API key, or one that is not valid', headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } } },
  403: { name: 'Forbidden', description: 'The key lacks the scope, the employer does not admit the partner, or a setting refuses the action' },
  404: { name: 'NotFound', description: 'No such resource for this key (unknown, or another employer\'s)' },
  409: { name: 'Conflict', description: 'The state does not allow it now, or the Idempotency-Key is in use or was used with other content' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 1 MB' },
  415: { name: 'UnsupportedMediaType', description: 'A body that is not sent as application/json' },
  422: { name: 'UnprocessableEntity', description: 'A field or query parameter breaks a rule; param names it' },
  429: { name: 'TooManyRequests', description: 'Rate limited (--rate-limit) or an injected fault', headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } },
  431: { name: 'RequestHeaderFieldsTooLarge', description: 'The request line and headers are larger than 16 kB together (answered before a route is matched)' },
};

/** What HTTP parsing answers before a route is matched, on every operation of every kind. */
const PARSER_STATUSES = [431];

/** Sent with every answer, errors and pages included. */
const EVERY_ANSWER = {
  'Service-Version': { $ref: '#/components/headers/ServiceVersion' },
  'Request-Id': { $ref: '#/components/headers/RequestId' },
};

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Every status an operation can answer with beyond its success, from what the adapter does before `handle` and the row's own. */
function errorStatuses(route: AnyRoute, path: string): number[] {
  const statuses = new Set(Object.keys(route.responses).map(Number).filter((s) => s >= 400));
  const write = WRITES.has(route.method);
  const ids = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  if (route.kind === 'api') {
    // Service-Version, the key, its scope and the rate limit or an injected fault, on every /v1 route.
    for (const s of [400, 401, 403, 429]) statuses.add(s);
    if (write) statuses.add(409); // Idempotency-Key in use or reused
  } else if (ids.includes('workspaceId')) statuses.add(404);
  else statuses.add(401); // a bearer key that selects no workspace
  if (write) for (const s of [400, 413, 415]) statuses.add(s);
  if (route.body || route.query) statuses.add(422);
  if (ids.some((id) => id !== 'workspaceId')) statuses.add(404);
  for (const s of PARSER_STATUSES) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

function errorResponse(status: number): Json {
  const known = ERROR_RESPONSES[status];
  if (!known) throw new Error(`no shared answer for status ${status}`);
  return { $ref: `#/components/responses/${known.name}` };
}

// ---------------------------------------------------------------------------------------------
// Operations.

function parameters(route: AnyRoute, path: string, schemas: SchemaPublisher) {
  const params: unknown[] = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
  }));
  const query = route.query ? plainSchema(route.query) : undefined;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  for (const name of Object.keys((query?.properties as Json | undefined) ?? {})) {
    const schema = schemas.ref((route.query!.properties as Record<string, TSchema>)[name]!);
    const description = typeof schema.description === 'string' ? { description: schema.description } : {};
    params.push({ name, in: 'query', required: required.has(name), ...description, schema });
  }
  if (route.kind === 'control') {
    for (const [name, d] of Object.entries(route.headers ?? {})) {
      params.push({ name, in: 'header', required: typeof d === 'string', description: typeof d === 'string' ? d : d.description, schema: { type: 'string' } });
    }
  }
  if (route.kind === 'api') {
    params.push({ $ref: '#/components/parameters/ServiceVersion' });
    if (route.acting !== false) params.push({ $ref: '#/components/parameters/ServiceOrganization' });
    if (WRITES.has(route.method)) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  }
  return params;
}

/** A body is required when its schema requires any field (an absent body counts as {}); a row that takes YAML lists it beside JSON. */
function requestBody(schema: TSchema, schemas: SchemaPublisher, types: readonly BodyType[] = ['json']) {
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  const media = ['application/json', ...(types.includes('yaml') ? ['application/yaml'] : [])];
  return schemas.body(schema, media, required);
}

/** JSON by its schema; a file or text as a string of its media type (OpenAPI 3.1 binary content); a row may offer both. */
function content(r: AnyRoute['responses'][number], schemas: SchemaPublisher) {
  const json = r.schema ? { 'application/json': { schema: schemas.ref(r.schema) } } : {};
  const files = Object.fromEntries((r.media ?? []).map((m) => [m, { schema: { type: 'string', contentMediaType: m } }]));
  const all = { ...json, ...files };
  return Object.keys(all).length > 0 ? { content: all } : {};
}

function operation(route: AnyRoute, path: string, schemas: SchemaPublisher) {
  const responses: Record<string, unknown> = {};
  // A replay (same Idempotency-Key and content) repeats the first success, marked as such.
  const replayable = route.kind === 'api' && WRITES.has(route.method);
  const headers = replayable ? { ...EVERY_ANSWER, 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : EVERY_ANSWER;
  for (const [status, r] of Object.entries(route.responses)) {
    if (Number(status) < 400) responses[status] = { description: r.description, headers, ...content(r, schemas) };
  }
  for (const status of errorStatuses(route, path)) responses[status] = errorResponse(status);
  responses.default = { $ref: '#/components/responses/Error' };
  const perWorkspace = route.kind === 'control' && path.includes(':workspaceId') && route.perWorkspace;
  return {
    operationId: perWorkspace ? `${route.operationId}InWorkspace` : route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.kind === 'api'
      ? { description: [route.description, `Scope: \`${route.scope}\`.`].filter(Boolean).join('\n\n'), security: [{ bearerAuth: [] }], 'x-scope': route.scope }
      : {
          description: [route.description, 'Emulator control API. Selects the workspace by path, else by bearer key, else the default workspace.'].filter(Boolean).join('\n\n'),
          security: [{}, { bearerAuth: [] }],
        }),
    parameters: parameters(route, path, schemas),
    ...(route.body ? { requestBody: requestBody(route.body, schemas, route.bodyTypes) } : {}),
    responses,
  };
}

/** A page's answer: HTML unless the row names another type, the envelope for the inspector's errors. */
function pageResponse(r: PageResponse) {
  if (r.location) return { description: r.description, headers: { ...EVERY_ANSWER, Location: { schema: { type: 'string' }, description: 'where the browser goes next' } } };
  if (r.envelope) return { description: r.description, headers: EVERY_ANSWER, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const media = r.media ?? 'text/html';
  return { description: r.description, headers: EVERY_ANSWER, content: { [media]: { schema: { type: 'string', contentMediaType: media } } } };
}

/** A page row as an operation: no key (a person's browser opens it), its form as the request body. */
function pageOperation(route: PageRoute, path: string) {
  const parameters = [
    ...[...path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1], in: 'path', required: true, schema: { type: 'string' }, ...(route.params?.[m[1]!] ? { description: route.params[m[1]!] } : {}),
    })),
    ...Object.entries(route.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: false, schema: { type: 'string' }, description: q.description })),
  ];
  const form = route.form;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: ['Pages'],
    security: [{}],
    ...(parameters.length ? { parameters } : {}),
    ...(form
      ? {
          requestBody: {
            required: true,
            content: {
              [form.multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded']: {
                schema: { type: 'object', properties: form.fields, required: [...form.required] },
              },
            },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(Object.entries(route.responses).map(([status, r]) => [status, pageResponse(r)])),
      // Refused by the parser before the page is known: in the envelope, as every such answer.
      ...Object.fromEntries(PARSER_STATUSES.map((s) => [s, errorResponse(s)])),
    },
  };
}

/** What each tag's operations are for; a tag the routes use without a line here is a lint warning. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Organizations: 'The employers a key may act for, and the one it acts for.',
  Onboardings: 'Create, read, list, change and cancel hosted onboardings, and make new hosted links.',
  Approvals: 'The four-eyes review through the API: open approvals, the identity check and approvals.',
  Contracts: 'Create the contract and send it for signature.',
  Employees: 'Employees that came out of completed onboardings.',
  Events: 'The same events the webhooks carry, as a list to poll.',
  Sandbox: 'Play the next step of a test onboarding.',
  Documents: 'The documents of an onboarding and their files.',
  Integrations: 'The payroll connector and its last synchronization.',
  Reviews: 'Links for the review embedded in a partner product.',
  Webhooks: 'Webhook addresses, their secrets and their delivery log; the messages themselves are under webhooks, one per event type.',
  Control: 'The emulator itself: health, keys, workspaces, clock, faults, snapshots and the actions people take in the product\'s screens.',
  Inspect: 'What the inspector page reads: every record of a workspace, whichever key made it.',
  Scenarios: 'Scenario documents that play onboardings by themselves.',
  Requests: 'The journal of a workspace\'s /v1 requests: find them, check how many matched, clear it.',
  Wait: 'Hold a request until something happens in the workspace (an event, a delivery, a request, a status) or nothing is left to run: a test waits for it instead of sleeping.',
  'Delivery faults': 'Faults on the workspace\'s webhook messages: duplicated, reordered, late, unacknowledged or badly signed, on purpose.',
  'State machine': 'The onboarding life cycle as data: every status and trigger, its events, refusals and guards, and a Mermaid diagram of it.',
  Catalog: 'The sandbox catalogue: every magic input (addresses, test values, payroll failures) and control action, with its outcome and an example.',
  'Receiver checks': 'A conformance run against a webhook receiver: real signed messages, each answer graded against what the spec asks of a receiver.',
  Relays: 'Webhook relays: a process beside the receiver (onboarding-emulator listen) takes the messages the emulator cannot send itself, posts them and reports each answer.',
  MCP: 'The Model Context Protocol for coding agents: the control actions as tools, one workspace per session, test keys only (docs/mcp.md).',
  Pages: 'Pages a person opens in a browser: the hosted flow, the embedded review and the inspector.',
};

const headerSchema = (description: string, schema: Json) => ({ description, schema });

function components(schemas: SchemaPublisher) {
  const error = schemas.ref(ErrorSchema);
  const shared = (description: string, extra: Record<string, Json> = {}) => ({
    description,
    headers: { ...EVERY_ANSWER, ...extra },
    content: { 'application/json': { schema: error } },
  });
  return {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'hrs_test_... or hrs_live_... key' } },
    responses: {
      ...Object.fromEntries(Object.values(ERROR_RESPONSES).map((r) => [r.name, shared(r.description, r.headers)])),
      Error: shared('Any other error, in the envelope (500 for a failure of the emulator or an injected one)'),
    },
    headers: {
      ServiceVersion: headerSchema('The interface version that answered', { type: 'string', enum: [...API_VERSIONS] }),
      RequestId: headerSchema('This request\'s id, also in error bodies and the log', { type: 'string' }),
      IdempotentReplayed: headerSchema('true on a replay of an earlier answer with the same Idempotency-Key; absent otherwise', { type: 'string', enum: ['true'] }),
      RetryAfter: headerSchema('Whole seconds to wait before retrying', { type: 'integer', minimum: 1 }),
      WWWAuthenticate: headerSchema('How to authenticate: Bearer', { type: 'string', enum: ['Bearer'] }),
    },
    parameters: {
      ServiceVersion: { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: [...API_VERSIONS] } },
      ServiceOrganization: { name: 'Service-Organization', in: 'header', required: false, description: 'Partner keys: the employer acted for; required when the partner has several.', schema: { type: 'string' } },
      IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX } },
    },
  };
}

/**
 * The published OpenAPI 3.1 document, from the same route tables and schemas that validate.
 * `serverUrl`: the base URL clients reach this emulator at (the request's, or --public-url).
 */
export function buildOpenApi(serverUrl: string = DEFAULT_SERVER_URL) {
  const schemas = new SchemaPublisher();
  const paths: Record<string, Record<string, unknown>> = {};
  const routes: AnyRoute[] = [...apiRoutes, ...allControlRoutes];
  for (const route of routes) {
    for (const path of servedPaths(route)) {
      const key = toOpenApiPath(path);
      paths[key] = { ...paths[key], [route.method.toLowerCase()]: operation(route, path, schemas) };
    }
  }
  for (const route of pageRoutes) {
    const key = toOpenApiPath(route.path);
    paths[key] = { ...paths[key], [route.method.toLowerCase()]: pageOperation(route, route.path) };
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi', summary: 'This document', tags: ['Control'], security: [{}],
      responses: {
        200: { description: 'OpenAPI 3.1 document', headers: EVERY_ANSWER, content: { 'application/json': { schema: { type: 'object' } } } },
        ...Object.fromEntries(PARSER_STATUSES.map((st) => [st, errorResponse(st)])),
      },
    },
  };
  const messages = webhooks((schema) => schemas.ref(schema));
  const shared = components(schemas);
  // Every tag the operations use, in the order the route tables first use them.
  const tags = [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hosted Employee Onboarding Service (emulator)',
      version: '1.0.0',
      description: `The /v1 interface as the emulator serves it, the webhook messages it sends (webhooks), and its control API under /_emulator. Emulator ${EMULATOR_VERSION}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl.replace(/\/+$/, ''), description: 'This emulator' }],
    tags: tags.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    webhooks: messages,
    components: { ...shared, schemas: sortedByName(schemas.components), requestBodies: sortedByName(schemas.requestBodies) },
  };
}

/** Components in name order: a stable document, whatever order the routes use them in. */
const sortedByName = (named: Record<string, JsonSchema>) => Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
