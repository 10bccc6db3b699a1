import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import express from 'express';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { allControlRoutes, apiRoutes, servedPaths } from '../../src/http/routes.js';
import { Emulator } from '../../src/emulator.js';
import { createBody, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { withBodiesInline, type Json } from '../support/openapi-doc.js';
import { payrollDone, submitted } from '../support/journey.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Operation {
  operationId?: string;
  description?: string;
  'x-scope'?: string;
  parameters?: Json[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const toOpenApi = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${toOpenApi(path)}`;

/** The spec's overview table, for the /v1 routes built so far. */
const SPEC_SCOPES: Record<string, string> = {
  'GET /v1/organizations': 'organization:read',
  'GET /v1/organization': 'organization:read',
  'GET /v1/onboardings': 'onboardings:read',
  'POST /v1/onboardings': 'onboardings:write',
  'GET /v1/onboardings/{id}': 'onboardings:read',
  'PATCH /v1/onboardings/{id}': 'onboardings:write',
  'POST /v1/onboardings/{id}/hosted-link': 'onboardings:write',
  'POST /v1/onboardings/{id}/cancel': 'onboardings:write',
  'GET /v1/employees': 'employees:read',
  'GET /v1/onboardings/{id}/documents': 'documents:read',
  'GET /v1/onboardings/{id}/documents/{documentId}': 'documents:read',
  'GET /v1/integrations': 'integrations:read',
  'POST /v1/onboardings/{id}/review-sessions': 'reviews:embed',
};

let doc: Doc;

/** A schema of the document with its `$ref` to components.schemas followed (one level). */
function resolved(schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return doc.components.schemas[ref.replace('#/components/schemas/', '')];
}

beforeAll(async () => {
  const res = await harness().http().get('/openapi.json');
  expect(res.status).toBe(200);
  doc = withBodiesInline(JSON.parse(res.text) as Doc);
});

function operations(d: Doc): { key: string; method: string; path: string; op: Operation }[] {
  return Object.entries(d.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, op })),
  );
}

// ---------------------------------------------------------------------------------------------
// The app's routes, read from the Express router stack (independent of the route tables).

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

function walk(stack: Layer[] | undefined, out: Set<string>): void {
  for (const layer of stack ?? []) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== '_all') out.add(routeKey(m, p));
      }
    } else if (layer.handle?.stack) {
      walk(layer.handle.stack, out);
    }
  }
}

/** Builds a fresh app while watching every express.Router it makes, then walks all stacks. */
function expressRoutes(): Set<string> {
  const spy = vi.spyOn(express, 'Router');
  try {
    const app = createApp(new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } }));
    const out = new Set<string>();
    walk((app as unknown as { router?: { stack: Layer[] } }).router?.stack, out);
    for (const r of spy.mock.results) {
      if (r.type === 'return') walk((r.value as unknown as { stack?: Layer[] }).stack, out);
    }
    return out;
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /openapi.json', () => {
  it('is served as JSON', async () => {
    const res = await harness().http().get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('validates as OpenAPI 3.1', async () => {
    const v = new Validator();
    const r = await v.validate(doc as unknown as Record<string, unknown>);
    expect(r.errors, JSON.stringify(r.errors, null, 2)).toBeUndefined();
    expect(r.valid).toBe(true);
    expect(v.version).toBe('3.1');
    // Control: the same validator refuses the document once it is broken.
    const broken = JSON.parse(JSON.stringify(doc)) as Doc & { info?: unknown };
    delete broken.info;
    const op = operations(broken)[0]!.op as unknown as Json;
    op.responses = 'none';
    const refused = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(refused.valid).toBe(false);
  });

  it('describes interface version 1.0.0 and the known Service-Version values', () => {
    const d = doc as unknown as { info: { version: string }; components: { parameters: Record<string, { schema: { enum?: string[] } }> } };
    expect(d.info.version).toBe('1.0.0');
    expect(d.components.parameters.ServiceVersion?.schema.enum).toEqual(['2026-10-01']);
  });

  it('operation ids are unique', () => {
    const ids = operations(doc).map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('every route of the app is documented', () => {
  const tableRoutes = () =>
    [...apiRoutes, ...allControlRoutes].flatMap((r) => servedPaths(r).map((p) => ({ key: routeKey(r.method, p), route: r })));

  it('the route tables are not empty and include every /v1 route built so far', () => {
    const keys = new Set(tableRoutes().map((r) => r.key));
    for (const k of Object.keys(SPEC_SCOPES)) expect(keys).toContain(k);
    for (const k of ['GET /_emulator/health', 'GET /_emulator/keys', 'POST /_emulator/reset', 'POST /_emulator/workspaces',
      'GET /_emulator/workspaces', 'GET /_emulator/workspaces/{workspaceId}', 'DELETE /_emulator/workspaces/{workspaceId}',
      'GET /_emulator/workspaces/{workspaceId}/keys', 'POST /_emulator/workspaces/{workspaceId}/reset']) {
      expect(keys).toContain(k);
    }
  });

  it('every route of the tables (apiRoutes, allControlRoutes, servedPaths) is in doc.paths', () => {
    const documented = new Set(operations(doc).map((o) => o.key));
    const missing = tableRoutes().map((r) => r.key).filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });

  it('every route of the Express router stack is in doc.paths', () => {
    const routes = expressRoutes();
    // The walk found the mounted routes, not just the app's own.
    expect(routes.size).toBeGreaterThanOrEqual(tableRoutes().length);
    expect(routes).toContain('GET /openapi.json');
    expect(routes).toContain('POST /v1/onboardings');
    const documented = new Set(operations(doc).map((o) => o.key));
    const missing = [...routes].filter((k) => !documented.has(k));
    expect(missing).toEqual([]);
  });

  it('the document describes nothing the app does not serve', () => {
    const served = expressRoutes();
    const extra = operations(doc).map((o) => o.key).filter((k) => !served.has(k));
    expect(extra).toEqual([]);
  });

  it('every documented operation answers over HTTP with something other than 404 route_not_found or 405', async () => {
    const h = harness();
    for (const { method, path } of operations(doc)) {
      const concrete = path.replace('{workspaceId}', 'default').replace('{id}', 'onb_demo_jansen');
      const req = (h.http() as unknown as Record<string, (p: string) => import('supertest').Test>)[method]!(concrete);
      const res = await req.set('Authorization', `Bearer ${KEYS.readonly}`);
      expect(res.status, `${method} ${concrete}`).not.toBe(405);
      // Pages (review links) answer an unknown token with a 404 HTML page, not the envelope.
      if (res.status === 404) expect(res.body.error?.code, `${method} ${concrete}`).not.toBe('route_not_found');
    }
  });

  it('each /v1 operation names the scope of the spec table and the bearer security', () => {
    for (const [key, scope] of Object.entries(SPEC_SCOPES)) {
      const [method, path] = key.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, key).toBeDefined();
      expect(op!['x-scope'] ?? op!.description, key).toContain(scope);
      expect(JSON.stringify((op as unknown as Json).security), key).toContain('bearerAuth');
    }
  });

  it('every path parameter is declared, in path and required', () => {
    for (const { key, path, op } of operations(doc)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const name of names) {
        const p = (op.parameters ?? []).find((x) => x.in === 'path' && x.name === name);
        expect(p, `${key} {${name}}`).toBeDefined();
        expect(p!.required, `${key} {${name}}`).toBe(true);
      }
    }
  });
});

describe('responses and request bodies', () => {
  it('every operation has a 2xx response with a schema (JSON, or a file or page of its media type), or none for a 202 or 204', () => {
    for (const { key, op } of operations(doc)) {
      const ok = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
      // A page's form post succeeds with a redirect (redirect-after-post: 303), `/` is one to the inspector (302): with its Location.
      const redirect = (op.responses['303'] ?? op.responses['302']) as { headers?: Record<string, unknown> } | undefined;
      if (ok.length === 0 && (key.startsWith('POST /hosted/') || key === 'GET /') && redirect?.headers?.Location) continue;
      expect(ok.length, key).toBeGreaterThan(0);
      for (const [status, r] of ok) {
        // An answer with no body (MCP's 202 to a notification) says so by having no content.
        if (status === '202' || status === '204') {
          expect(r.content, `${key} ${status}`).toBeUndefined();
          continue;
        }
        const [media, first] = Object.entries(r.content ?? {})[0] ?? [];
        const schema = media === 'application/json' ? first?.schema : first?.schema?.contentMediaType === media ? first?.schema : undefined;
        expect(schema, `${key} ${status}`).toBeDefined();
        expect(Object.keys(schema!).length, `${key} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it('declares on every operation, pages included, the 431 envelope the HTTP parser answers for headers over 16 kB', () => {
    const shared = (doc.components as { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> }).responses ?? {};
    expect(shared.RequestHeaderFieldsTooLarge?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    for (const { key, op } of operations(doc)) {
      expect(op.responses['431'], key).toEqual({ $ref: '#/components/responses/RequestHeaderFieldsTooLarge' });
    }
  });

  it('documents the status each route answers with on success (201 for creations)', () => {
    const statusOf = (key: string) => {
      const [method, path] = key.split(' ') as [string, string];
      return Object.keys(doc.paths[path]![method.toLowerCase()]!.responses).filter((s) => /^2/.test(s));
    };
    expect(statusOf('POST /v1/onboardings')).toEqual(['201']);
    expect(statusOf('POST /v1/onboardings/{id}/hosted-link')).toEqual(['201']);
    expect(statusOf('POST /v1/onboardings/{id}/cancel')).toEqual(['200']);
    expect(statusOf('POST /_emulator/workspaces')).toEqual(['201']);
  });

  it('every operation documents its errors in the envelope', () => {
    const error = doc.components.schemas.Error;
    expect(error).toBeDefined();
    for (const { key, op } of operations(doc).filter((o) => o.path !== '/openapi.json')) {
      const errs = Object.entries(op.responses).filter(([s]) => s === 'default' || /^[45]/.test(s));
      expect(errs.length, key).toBeGreaterThan(0);
    }
  });

  it('every table route that takes a body has a JSON request body in the document', () => {
    for (const r of [...apiRoutes, ...allControlRoutes]) {
      for (const p of servedPaths(r)) {
        const op = doc.paths[toOpenApi(p)]![r.method.toLowerCase()]!;
        if (r.body) {
          expect(op.requestBody?.content?.['application/json']?.schema, routeKey(r.method, p)).toBeDefined();
        } else {
          expect(op.requestBody, routeKey(r.method, p)).toBeUndefined();
        }
      }
    }
  });

  it.each([
    ['POST', '/v1/onboardings', ['employee', 'employment']],
    ['PATCH', '/v1/onboardings/{id}', []],
    ['POST', '/v1/onboardings/{id}/hosted-link', []],
    ['POST', '/_emulator/workspaces', []],
  ] as const)('%s %s has a request body schema', (method, path, required) => {
    const op = doc.paths[path]![method.toLowerCase()]!;
    const schema = resolved(op.requestBody?.content?.['application/json']?.schema) as { type?: string; properties?: Json; required?: string[] } | undefined;
    expect(schema).toBeDefined();
    expect(schema!.type).toBe('object');
    expect(Object.keys(schema!.properties ?? {}).length).toBeGreaterThan(0);
    for (const field of required) expect(schema!.required ?? []).toContain(field);
  });

  it('the create request body is marked required (an empty body is refused)', async () => {
    const op = doc.paths['/v1/onboardings']!.post!;
    expect(op.requestBody?.required).toBe(true);
    const res = await harness().as(KEYS.owner).post('/v1/onboardings');
    expect(res.status).toBe(422);
  });

  it('the PATCH body documents reference and metadata only', () => {
    const schema = resolved(doc.paths['/v1/onboardings/{id}']!.patch!.requestBody!.content!['application/json']!.schema) as { properties: Json };
    expect(Object.keys(schema.properties).sort()).toEqual(['metadata', 'reference']);
  });
});

// ---------------------------------------------------------------------------------------------
// Conformance: real responses validate against the schemas the document publishes.

describe('real responses conform to the published schemas', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);

  function schemaOf(method: string, path: string, status: number): Json {
    const schema = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
    expect(schema, `${method} ${path} ${status}`).toBeDefined();
    return schema!;
  }

  /** A published schema with the components its `$ref`s point into, for ajv. */
  const compile = (schema: Json) => ajv.compile({ ...schema, components: doc.components });

  function conforms(method: string, path: string, res: { status: number; body: unknown }) {
    const validate = compile(schemaOf(method, path, res.status));
    const ok = validate(res.body);
    expect(ok, `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 500)}`).toBe(true);
  }

  function errorConforms(res: { status: number; body: unknown }) {
    const validate = compile(doc.components.schemas.Error!);
    expect(validate(res.body), ajv.errorsText(validate.errors)).toBe(true);
  }

  it('create, get, list, patch, hosted link and cancel of onboardings', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true, expires_in_hours: 24 } }));
    expect(created.status).toBe(201);
    conforms('POST', '/v1/onboardings', created);
    const id = created.body.id as string;

    for (const key of [KEYS.owner, KEYS.recruiter, KEYS.readonly]) {
      const got = await h.as(key).get(`/v1/onboardings/${id}`);
      expect(got.status).toBe(200);
      conforms('GET', '/v1/onboardings/{id}', got);
    }
    const partner = await h.as(KEYS.hrsoft).get('/v1/onboardings/onb_demo_partner').set('Service-Organization', 'org_acme');
    expect(partner.status).toBe(200);
    conforms('GET', '/v1/onboardings/{id}', partner);

    const list = await h.as(KEYS.owner).get('/v1/onboardings?limit=2');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBe(2);
    conforms('GET', '/v1/onboardings', list);

    const patched = await h.as(KEYS.owner).patch(`/v1/onboardings/${id}`, { reference: null, metadata: { team: null, n: 1 } });
    expect(patched.status).toBe(200);
    conforms('PATCH', '/v1/onboardings/{id}', patched);

    const link = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/hosted-link`, { expires_in_hours: 2 });
    expect(link.status).toBe(201);
    conforms('POST', '/v1/onboardings/{id}/hosted-link', link);

    const cancelled = await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    conforms('POST', '/v1/onboardings/{id}/cancel', cancelled);
    const listAfter = await h.as(KEYS.owner).get('/v1/onboardings');
    conforms('GET', '/v1/onboardings', listAfter);
  });

  it('organization, organizations and employees', async () => {
    const h = harness();
    await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    const org = await h.as(KEYS.owner).get('/v1/organization');
    conforms('GET', '/v1/organization', org);
    const bakker = await h.as(KEYS.bakker).get('/v1/organization');
    conforms('GET', '/v1/organization', bakker);
    for (const key of [KEYS.owner, KEYS.hrsoft, KEYS.payflow]) {
      const orgs = await h.as(key).get('/v1/organizations');
      expect(orgs.status).toBe(200);
      conforms('GET', '/v1/organizations', orgs);
    }
    const employees = await h.as(KEYS.owner).get('/v1/employees');
    expect(employees.body.data.length).toBe(5);
    conforms('GET', '/v1/employees', employees);
    const page = await h.as(KEYS.owner).get('/v1/employees?limit=1');
    expect(page.body.has_more).toBe(true);
    conforms('GET', '/v1/employees', page);
  });

  it('the control API: keys, health, workspaces, reset', async () => {
    const h = harness();
    const keys = await h.http().get('/_emulator/keys');
    conforms('GET', '/_emulator/keys', keys);
    conforms('GET', '/_emulator/health', await h.http().get('/_emulator/health'));
    const created = await h.http().post('/_emulator/workspaces');
    conforms('POST', '/_emulator/workspaces', created);
    const id = created.body.id as string;
    conforms('GET', '/_emulator/workspaces/{workspaceId}/keys', await h.http().get(`/_emulator/workspaces/${id}/keys`));
    conforms('GET', '/_emulator/workspaces', await h.http().get('/_emulator/workspaces'));
    conforms('GET', '/_emulator/workspaces/{workspaceId}', await h.http().get(`/_emulator/workspaces/${id}`));
    conforms('POST', '/_emulator/reset', await h.http().post('/_emulator/reset'));
    conforms('POST', '/_emulator/workspaces/{workspaceId}/reset', await h.http().post(`/_emulator/workspaces/${id}/reset`));
    conforms('DELETE', '/_emulator/workspaces/{workspaceId}', await h.http().delete(`/_emulator/workspaces/${id}`));
  });

  it('documents, integrations and review sessions', async () => {
    const h = harness();
    payrollDone(h.emulator.defaultWorkspace, 'onb_demo_jansen');
    const docs = await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen/documents');
    expect(docs.body.data.length).toBe(5);
    conforms('GET', '/v1/onboardings/{id}/documents', docs);
    const download = doc.paths['/v1/onboardings/{id}/documents/{documentId}']!.get!.responses['200']!;
    expect(Object.keys(download.content ?? {}).sort()).toEqual(['application/pdf', 'image/jpeg', 'image/png']);
    const integrations = await h.as(KEYS.owner).get('/v1/integrations');
    expect(integrations.body.data[0].last_sync).not.toBeNull();
    conforms('GET', '/v1/integrations', integrations);
    submitted(h.emulator.defaultWorkspace, 'onb_demo_partner');
    const session = await h.as(KEYS.manager).post('/v1/onboardings/onb_demo_partner/review-sessions', { reviewer: { email: 'm@acme.test', external_id: 'u1' } });
    expect(session.status).toBe(201);
    conforms('POST', '/v1/onboardings/{id}/review-sessions', session);
    expect(Object.keys(doc.paths['/review/{token}']!.get!.responses)).toEqual(['200', '404', '410', '431']);
  });

  it('webhooks: create and rotate (with the secret), read, list, deliveries; events', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'https://hooks.acme.test/onboarding' });
    expect(created.status).toBe(201);
    conforms('POST', '/v1/webhooks', created);
    const id = created.body.id as string;
    const read = await h.as(KEYS.owner).get(`/v1/webhooks/${id}`);
    expect(read.body).not.toHaveProperty('secret');
    conforms('GET', '/v1/webhooks/{id}', read);
    const rotated = await h.as(KEYS.owner).post(`/v1/webhooks/${id}/rotate-secret`, { overlap_hours: 1 });
    expect(rotated.status).toBe(200);
    conforms('POST', '/v1/webhooks/{id}/rotate-secret', rotated);
    conforms('GET', '/v1/webhooks', await h.as(KEYS.owner).get('/v1/webhooks'));
    await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    conforms('GET', '/v1/webhooks/{id}/deliveries', await h.as(KEYS.owner).get(`/v1/webhooks/${id}/deliveries`));
    conforms('GET', '/v1/events', await h.as(KEYS.owner).get('/v1/events'));
    // The answers of creation and rotation promise the secret.
    const { secret: _secret, ...withoutSecret } = created.body as Json;
    expect(compile(schemaOf('POST', '/v1/webhooks', 201))(withoutSecret)).toBe(false);
  });

  it('error bodies conform to components.schemas.Error', async () => {
    const h = harness();
    const probes = [
      await h.http().get('/v1/onboardings'),
      await h.as(KEYS.noscopes).get('/v1/onboardings'),
      await h.as(KEYS.owner).get('/v1/onboardings/onb_nope'),
      await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 7 })),
      await h.http().post('/_emulator/workspaces').send({ fixtures: { organizations: [] } }),
      await h.http().get('/nowhere'),
    ];
    expect(probes.map((r) => r.status)).toEqual([401, 403, 404, 422, 422, 404]);
    for (const res of probes) errorConforms(res);
  });

  it('the schemas are strict enough to catch a wrong response', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    const validate = compile(schemaOf('POST', '/v1/onboardings', 201));
    expect(validate(created.body)).toBe(true);
    expect(validate({ ...created.body, status: 'in_review' })).toBe(false);
    expect(validate({ ...created.body, id: 'xyz' })).toBe(false);
    const { hosted_url: _dropped, ...withoutUrl } = created.body as Json;
    expect(validate(withoutUrl)).toBe(false);
    const org = compile(schemaOf('GET', '/v1/organization', 200));
    const body = (await h.as(KEYS.owner).get('/v1/organization')).body as Json;
    expect(org(body)).toBe(true);
    expect(org({ ...body, templates: [{ id: 't', name: 'n', contract_type: 'freelance', cao: 'c' }] })).toBe(false);
  });
});
