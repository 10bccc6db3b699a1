import { plainSchema, type TSchema } from '../core/schema.js';
import { ErrorSchema } from '../resources/common.schemas.js';
import type { ApiRoute, BodyType, ControlRoute } from '../resources/route.js';
import type { Emulator } from '../emulator.js';
import { API_VERSIONS } from '../core/versions.js';
import { IDEMPOTENCY_KEY_MAX } from '../core/idempotency.js';
import { EMULATOR_VERSION } from '../control/control.service.js';
import { pageRoutes } from '../pages/pages.routes.js';
import type { PageResponse, PageRoute } from '../pages/route.js';
import { allControlRoutes, apiRoutes, servedPaths } from './routes.js';


const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

type AnyRoute = ApiRoute | ControlRoute<Emulator>;

function parameters(route: AnyRoute, path: string) {
  const params: unknown[] = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
  }));
  const query = route.query ? plainSchema(route.query) : undefined;
  const required = new Set((query?.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries((query?.properties as Record<string, unknown> | undefined) ?? {})) {
    params.push({ name, in: 'query', required: required.has(name), schema });
  }
  if (route.kind === 'api') {
    params.push({ $ref: '#/components/parameters/ServiceVersion' });
    if (route.acting !== false) params.push({ $ref: '#/components/parameters/ServiceOrganization' });
    if (route.method !== 'GET') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  }
  return params;
}

/** A body is required when its schema requires any field (an absent body counts as {}); a row that takes YAML lists it beside JSON. */
function requestBody(schema: TSchema, types: readonly BodyType[] = ['json']) {
  const body = plainSchema(schema);
  const required = Array.isArray(body.required) && body.required.length > 0;
  const media = ['application/json', ...(types.includes('yaml') ? ['application/yaml'] : [])];
  return { required, content: Object.fromEntries(media.map((m) => [m, { schema: body }])) };
}

/** JSON by its schema; a file as a string of its media type (OpenAPI 3.1 binary content). */
function content(r: AnyRoute['responses'][number]) {
  if (r.media) return { content: Object.fromEntries(r.media.map((m) => [m, { schema: { type: 'string', contentMediaType: m } }])) };
  return r.schema ? { content: { 'application/json': { schema: plainSchema(r.schema) } } } : {};
}

function operation(route: AnyRoute, path: string) {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(route.responses)) {
    responses[status] = { description: r.description, ...content(r) };
  }
  responses.default = { description: 'Error in the envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const perWorkspace = route.kind === 'control' && path.includes(':workspaceId') && route.perWorkspace;
  return {
    operationId: perWorkspace ? `${route.operationId}InWorkspace` : route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.kind === 'api'
      ? { description: `Scope: \`${route.scope}\`.`, security: [{ bearerAuth: [] }], 'x-scope': route.scope }
      : { description: 'Emulator control API. Selects the workspace by path, else by bearer key, else the default workspace.', security: [{}, { bearerAuth: [] }] }),
    parameters: parameters(route, path),
    ...(route.body ? { requestBody: requestBody(route.body, route.bodyTypes) } : {}),
    responses,
  };
}

/** A page's answer: HTML unless the row names another type, the envelope for the inspector's errors. */
function pageResponse(r: PageResponse) {
  if (r.location) return { description: r.description, headers: { Location: { schema: { type: 'string' }, description: 'where the browser goes next' } } };
  if (r.envelope) return { description: r.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const media = r.media ?? 'text/html';
  return { description: r.description, content: { [media]: { schema: { type: 'string', contentMediaType: media } } } };
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
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, r]) => [status, pageResponse(r)])),
  };
}

/** The published OpenAPI 3.1 document, from the same route tables and schemas that validate. */
export function buildOpenApi() {
  const paths: Record<string, Record<string, unknown>> = {};
  const routes: AnyRoute[] = [...apiRoutes, ...allControlRoutes];
  for (const route of routes) {
    for (const path of servedPaths(route)) {
      const key = toOpenApiPath(path);
      paths[key] = { ...paths[key], [route.method.toLowerCase()]: operation(route, path) };
    }
  }
  for (const route of pageRoutes) {
    const key = toOpenApiPath(route.path);
    paths[key] = { ...paths[key], [route.method.toLowerCase()]: pageOperation(route, route.path) };
  }
  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi', summary: 'This document', tags: ['Control'], security: [{}],
      responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hosted Employee Onboarding Service (emulator)',
      version: '1.0.0',
      description: `The /v1 interface as the emulator serves it, plus its control API under /_emulator. Emulator ${EMULATOR_VERSION}.`,
    },
    servers: [{ url: 'http://localhost:4010' }],
    // Every tag the operations use, in the order the route tables first use them.
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'hrs_test_... or hrs_live_... key' } },
      schemas: { Error: plainSchema(ErrorSchema) },
      parameters: {
        ServiceVersion: { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: [...API_VERSIONS] } },
        ServiceOrganization: { name: 'Service-Organization', in: 'header', required: false, description: 'Partner keys: the employer acted for; required when the partner has several.', schema: { type: 'string' } },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX } },
      },
    },
  };
}
