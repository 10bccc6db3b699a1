import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import type { Json } from '../support/openapi-doc.js';
import { payrollDone, payrollFailed, submitted } from '../support/journey.js';
import { returnForCorrection } from '../../src/resources/onboardings/onboardings.lifecycle.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, Json>;
  content?: Record<string, { schema?: Json }>;
}
interface Operation {
  parameters?: Json[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses: Record<string, Response>;
}
interface Doc {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Response>; headers: Record<string, Json> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
let doc: Doc;

beforeAll(async () => {
  doc = (await harness().http().get('/openapi.json')).body as Doc;
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ method, path, op, key: `${method.toUpperCase()} ${path}` })),
  );
const v1 = () => operations().filter((o) => o.path.startsWith('/v1/'));
/** A response with a shared component followed. */
const answer = (r: Response): Response => (r.$ref ? doc.components.responses[r.$ref.replace('#/components/responses/', '')]! : r);
const component = (name: string) => doc.components.schemas[name]!;

/** Every `$ref` anywhere under a node. */
function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

describe('named schemas under components.schemas', () => {
  it('the shared objects have names', () => {
    for (const name of ['Onboarding', 'OnboardingListItem', 'OnboardingStep', 'Document', 'Event', 'EventData', 'WebhookEndpoint',
      'WebhookEndpointWithSecret', 'WebhookDelivery', 'Error', 'Metadata', 'CreatedOnboarding', 'Employee']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('the request bodies have names too, under components.requestBodies, where generators read a default as a field a request may leave out', async () => {
    const raw = (await harness().http().get('/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: Json }>>; components: { requestBodies: Record<string, Json> } };
    expect(raw.paths['/v1/onboardings']!.post!.requestBody).toEqual({ $ref: '#/components/requestBodies/CreateOnboardingRequest' });
    expect(Object.keys(raw.components.requestBodies)).toEqual(expect.arrayContaining(['CreateOnboardingRequest', 'HostedLinkRequest', 'RotateSecretRequest']));
  });

  it('each is written once and referred to everywhere, nested uses included', () => {
    const text = JSON.stringify(doc.paths);
    // No titled schema is left inline in the operations.
    expect(text).not.toMatch(/"title":"[A-Z]/);
    expect(JSON.stringify(doc.paths['/v1/onboardings/{id}']!.get!.responses['200']!.content)).toBe(
      JSON.stringify({ 'application/json': { schema: { $ref: '#/components/schemas/Onboarding' } } }),
    );
    // Inside a component too: the onboarding's documents are Document, the page's items OnboardingListItem.
    expect((component('Onboarding').properties as Record<string, Json>).documents).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Document' } });
    expect((component('OnboardingList').properties as Record<string, Json>).data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/OnboardingListItem' } });
    // Every reference resolves.
    for (const ref of refsIn(doc)) {
      const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect((doc.components as unknown as Record<string, Record<string, unknown>>)[kind!]?.[name!], ref).toBeDefined();
    }
  });

  it('unions of string values are enums', () => {
    const status = (component('Onboarding').properties as Record<string, Json>).status;
    expect(status).toEqual({ type: 'string', enum: expect.arrayContaining(['pending_employee', 'cancelled']) as unknown });
    const literalUnions: unknown[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const anyOf = (node as Json).anyOf;
      if (Array.isArray(anyOf) && anyOf.every((b) => typeof (b as Json).const === 'string')) literalUnions.push(anyOf);
      Object.values(node).forEach(walk);
    };
    walk(doc);
    expect(literalUnions.slice(0, 3)).toEqual([]);
  });
});

describe('statuses', () => {
  it('every /v1 operation answers 401, 403 and 429 (with Retry-After), and writes 400, 409, 413 and 415', () => {
    for (const { key, method, op } of v1()) {
      const statuses = Object.keys(op.responses);
      for (const s of ['400', '401', '403', '429', 'default']) expect(statuses, key).toContain(s);
      if (method !== 'get') for (const s of ['409', '413', '415']) expect(statuses, key).toContain(s);
      if (key.includes('{')) expect(statuses, key).toContain('404');
      expect(answer(op.responses['401']!).headers?.['WWW-Authenticate'], key).toBeDefined();
      expect(answer(op.responses['429']!).headers?.['Retry-After'], key).toBeDefined();
      for (const [status, r] of Object.entries(op.responses)) {
        if (/^[45]/.test(status)) expect(answer(r).content?.['application/json']?.schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  it('the statuses documented are the ones answered: no key, no scope, a rate-limit fault, a body that is not JSON', async () => {
    const h = harness();
    const concrete = (path: string) => path.replace('{id}', 'onb_demo_jansen').replace('{documentId}', 'doc_x').replace('{deliveryId}', 'whd_x');
    const call = (method: string, path: string) =>
      (h.http() as unknown as Record<string, (p: string) => import('supertest').Test>)[method]!(concrete(path));
    for (const { key, method, path, op } of v1()) {
      const seen: import('supertest').Response[] = [await call(method, path)];
      seen.push(await call(method, path).set('Authorization', `Bearer ${KEYS.noscopes}`));
      if (method !== 'get') {
        seen.push(await call(method, path).set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'text/plain').send('hello'));
        seen.push(await call(method, path).set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json').send('{"a":'));
      }
      await h.http().post('/_emulator/faults').send({ kind: 'rate_limit', retry_after_seconds: 3 }).expect(201);
      const limited = await call(method, path).set('Authorization', `Bearer ${KEYS.owner}`);
      expect(limited.status, key).toBe(429);
      expect(limited.headers['retry-after'], key).toBe('3');
      seen.push(limited);
      expect(seen.map((r) => r.status).slice(0, 2), key).toEqual([401, 403]);
      if (method !== 'get') expect(seen.map((r) => r.status).slice(2, 4), key).toEqual([415, 400]);
      for (const res of seen) {
        expect(Object.keys(op.responses), `${key} answered ${res.status}`).toContain(String(res.status));
        expect(res.headers['request-id'], key).toMatch(/^req_/);
        expect(res.headers['service-version'], key).toBe('2026-10-01');
      }
    }
  });
});

describe('headers', () => {
  it('Service-Version and Request-Id on every response; Idempotent-Replayed on the successes of /v1 writes', () => {
    for (const { key, path, method, op } of operations()) {
      for (const [status, r] of Object.entries(op.responses)) {
        const headers = answer(r).headers ?? {};
        expect(headers['Service-Version'], `${key} ${status}`).toEqual({ $ref: '#/components/headers/ServiceVersion' });
        expect(headers['Request-Id'], `${key} ${status}`).toEqual({ $ref: '#/components/headers/RequestId' });
        const replayable = path.startsWith('/v1/') && method !== 'get' && /^2/.test(status);
        expect(headers['Idempotent-Replayed'] !== undefined, `${key} ${status}`).toBe(replayable);
      }
    }
  });

  it('a replay answers with Idempotent-Replayed: true, as documented', async () => {
    const h = harness();
    const first = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1');
    const again = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(doc.components.headers.IdempotentReplayed).toMatchObject({ schema: { enum: ['true'] } });
  });
});

describe('defaults and required fields', () => {
  const limitOf = (path: string) =>
    (doc.paths[path]!.get!.parameters ?? []).find((p) => p.name === 'limit') as { schema: { default?: number } } | undefined;

  it('every /v1 list documents the default page size', () => {
    const lists = v1().filter((o) => o.method === 'get' && (o.op.parameters ?? []).some((p) => p.name === 'limit'));
    expect(lists.length).toBeGreaterThanOrEqual(8);
    for (const { path } of lists) expect(limitOf(path)!.schema.default, path).toBe(path === '/v1/events' ? 50 : 25);
  });

  it('a list without limit is as long as the documented default', async () => {
    const h = harness();
    for (let i = 0; i < 51; i++) {
      await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } })).expect(201);
    }
    const onboardings = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(onboardings.body.data).toHaveLength(limitOf('/v1/onboardings')!.schema.default!);
    const events = await h.as(KEYS.owner).get('/v1/events');
    expect(events.body.data).toHaveLength(limitOf('/v1/events')!.schema.default!);
    expect(events.body.has_more).toBe(true);
  });

  it('steps and documents are always in an onboarding; the secret always in the answers that carry it', async () => {
    expect(component('Onboarding').required).toEqual(expect.arrayContaining(['steps', 'documents']));
    expect(component('OnboardingListItem').properties).not.toHaveProperty('steps');
    expect(component('WebhookEndpointWithSecret').required).toContain('secret');
    expect(component('WebhookEndpoint').properties).not.toHaveProperty('secret');
    const answerOf = (path: string, method: string, status: string) => doc.paths[path]![method]!.responses[status]!.content!['application/json']!.schema;
    expect(answerOf('/v1/webhooks', 'post', '201')).toEqual({ $ref: '#/components/schemas/WebhookEndpointWithSecret' });
    expect(answerOf('/v1/webhooks/{id}/rotate-secret', 'post', '200')).toEqual({ $ref: '#/components/schemas/WebhookEndpointWithSecret' });
    expect(answerOf('/v1/webhooks/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/WebhookEndpoint' });
    // And the views agree: a key without the dossier still gets steps and documents.
    const read = await harness().as(KEYS.readonly).get('/v1/onboardings/onb_demo_jansen');
    expect(read.body).toHaveProperty('steps');
    expect(read.body).toHaveProperty('documents');
  });
});

describe('events: one schema per type, told apart by type', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = () => ajv.compile({ $ref: '#/components/schemas/Event', components: doc.components });

  it('Event is a oneOf with a discriminator mapping every type to its schema', () => {
    const event = component('Event') as { oneOf: Json[]; discriminator: { propertyName: string; mapping: Record<string, string> } };
    expect(event.discriminator.propertyName).toBe('type');
    expect(Object.keys(event.discriminator.mapping)).toHaveLength(event.oneOf.length);
    expect(event.discriminator.mapping['onboarding.approval_given']).toBe('#/components/schemas/OnboardingApprovalGivenEvent');
    const given = component('OnboardingApprovalGivenEvent').properties as Record<string, Json>;
    expect(given.type).toEqual({ const: 'onboarding.approval_given', type: 'string' });
    expect(given.data).toEqual({ $ref: '#/components/schemas/ApprovalEventData' });
    expect(component('ApprovalEventData').required).toContain('role');
    expect(event.discriminator.mapping).not.toHaveProperty('ping');
  });

  it('every event of a whole life cycle matches its type\'s schema, and a wrong data does not', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const create = async (options = {}) => (await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options })).expect(201)).body.id as string;
    returnForCorrection(ws, submitted(ws, await create({ send_invitation: true })), 'employee');
    payrollDone(ws, await create());
    payrollFailed(ws, await create());
    await h.as(KEYS.owner).post(`/v1/onboardings/${await create()}/cancel`).expect(200);
    const events = (await h.as(KEYS.owner).get('/v1/events?limit=100')).body.data as Json[];
    const types = new Set(events.map((e) => e.type));
    for (const t of ['onboarding.invitation_sent', 'onboarding.returned', 'onboarding.approval_given', 'integration.sync_succeeded',
      'payroll.completed', 'onboarding.cancelled']) expect(types, t).toContain(t);
    const check = validate();
    for (const e of events) expect(check(e), `${String(e.type)}: ${ajv.errorsText(check.errors)}`).toBe(true);
    const given = events.find((e) => e.type === 'onboarding.approval_given')!;
    expect(check({ ...given, data: { ...(given.data as Json), role: 'boss' } })).toBe(false);
    expect(check({ ...given, type: 'onboarding.returned' })).toBe(false);
    const failure = events.find((e) => e.type === 'onboarding.failed');
    expect(failure).toBeDefined();
    expect(check({ ...failure, data: { ...(failure!.data as Json), error_code: 7 } })).toBe(false);
    expect(failure!.data).toHaveProperty('error_code', 'connector_unavailable');
  });
});

describe('servers', () => {
  it('names the base URL the request used, per address', async () => {
    // Names under .test are answered only when admitted (the Host guard against DNS rebinding).
    const h = harness({}, { allowedHosts: '.test' });
    const one = await h.http().get('/openapi.json').set('Host', 'emulator.test:8080');
    const two = await h.http().get('/openapi.json').set('Host', 'other.test:4010');
    expect(one.body.servers).toEqual([{ url: 'http://emulator.test:8080', description: 'This emulator' }]);
    expect(two.body.servers[0].url).toBe('http://other.test:4010');
    expect((await h.http().get('/openapi.json').set('Host', 'emulator.test:8080')).text).toBe(one.text);
  });

  it('names --public-url when it is set', async () => {
    const h = harness({}, { publicUrl: 'https://onboarding.example.test/base/', allowedHosts: 'ignored.test' });
    const res = await h.http().get('/openapi.json').set('Host', 'ignored.test');
    expect(res.body.servers[0].url).toBe('https://onboarding.example.test/base');
  });
});
