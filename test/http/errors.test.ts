import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { createBody, envelope, expectError, harness, KEYS, type Harness } from '../support/harness.js';

const bearer = `Bearer ${KEYS.owner}`;

/** A write with a raw body text and an explicit Content-Type. */
function rawPost(h: Harness, path: string, text: string, type = 'application/json') {
  return h.http().post(path).set('Authorization', bearer).set('Content-Type', type).send(text);
}

function allowOf(res: Response): string[] {
  return String(res.headers.allow ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
}

/** A stack trace names frames ("at fn (/path/file.js:1:2)") or source files. */
function expectNoStackTrace(res: Response) {
  const text = res.text ?? '';
  expect(text).not.toMatch(/\bat\s+\S*\s*\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+/);
  expect(text).not.toMatch(/\.(?:[cm]?js|ts):\d+:\d+/);
  expect(text).not.toContain('node_modules');
  expect(text).not.toMatch(/\/work\/|\/src\/|\/dist\//);
  expect(text).not.toMatch(/\n\s+at /);
}

describe('request bodies', () => {
  it.each([
    ['an unterminated object', '{"reference": '],
    ['a trailing comma', '{"reference": "x",}'],
    ['single quotes', "{'reference': 'x'}"],
    ['plain text announced as JSON', 'hello'],
    ['an object with a bare word', '{"a": undefined}'],
  ])('refuses %s with 400 body_invalid_json', async (_label, text) => {
    const h = harness();
    const before = h.storeJson();
    const res = await rawPost(h, '/v1/onboardings', text);
    expectError(res, 400, 'invalid_request', 'body_invalid_json');
    expectNoStackTrace(res);
    expect(h.storeJson()).toBe(before);
  });

  it('refuses malformed JSON on PATCH and on the control API too', async () => {
    const h = harness();
    const patch = await h.http().patch('/v1/onboardings/onb_demo_jansen').set('Authorization', bearer)
      .set('Content-Type', 'application/json').send('{"metadata": {');
    expectError(patch, 400, 'invalid_request', 'body_invalid_json');
    const control = await h.http().post('/_emulator/workspaces').set('Content-Type', 'application/json').send('{nope');
    expectError(control, 400, 'invalid_request', 'body_invalid_json');
  });

  it.each([
    ['an array', '[]'],
    ['an array of objects', JSON.stringify([createBody()])],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
    ['a boolean', 'true'],
  ])('refuses JSON that is %s with 400 body_not_object', async (_label, text) => {
    const h = harness();
    const before = h.storeJson();
    const res = await rawPost(h, '/v1/onboardings', text);
    expectError(res, 400, 'invalid_request', 'body_not_object');
    expect(h.storeJson()).toBe(before);
  });

  it.each(['[]', '"x"', '7', 'null'])('refuses %s as the body of PATCH and cancel with body_not_object', async (text) => {
    const h = harness();
    const patch = await h.http().patch('/v1/onboardings/onb_demo_jansen').set('Authorization', bearer)
      .set('Content-Type', 'application/json').send(text);
    expectError(patch, 400, 'invalid_request', 'body_not_object');
    const cancel = await rawPost(h, '/v1/onboardings/onb_demo_jansen/cancel', text);
    expectError(cancel, 400, 'invalid_request', 'body_not_object');
    const read = await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen');
    expect(read.body.status).toBe('pending_employee');
  });

  it.each([
    ['text/plain', 'hello'],
    ['text/plain', JSON.stringify(createBody())],
    ['application/x-www-form-urlencoded', 'reference=x'],
    ['application/xml', '<onboarding/>'],
    ['application/octet-stream', '{}'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
  ])('refuses a body sent as %s with 415', async (type, text) => {
    const h = harness();
    const before = h.storeJson();
    const res = await rawPost(h, '/v1/onboardings', text, type);
    expectError(res, 415, 'invalid_request', 'content_type_unsupported');
    expect(h.storeJson()).toBe(before);
  });

  it('accepts application/json with a charset parameter', async () => {
    const h = harness();
    const res = await rawPost(h, '/v1/onboardings', JSON.stringify(createBody()), 'application/json; charset=utf-8');
    expect(res.status).toBe(201);
  });

  it('refuses a body over 1 MB with 413 and writes nothing', async () => {
    const h = harness();
    const before = h.storeJson();
    const big = JSON.stringify({ ...createBody(), reference: 'x'.repeat(1_100_000) });
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    const res = await rawPost(h, '/v1/onboardings', big);
    expectError(res, 413, 'invalid_request', 'body_too_large');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses an oversized body on the control API with 413', async () => {
    const h = harness();
    const big = JSON.stringify({ fixtures: { description: 'y'.repeat(1_200_000) } });
    const res = await h.http().post('/_emulator/workspaces').set('Content-Type', 'application/json').send(big);
    expectError(res, 413, 'invalid_request', 'body_too_large');
    expect((await h.http().get('/_emulator/workspaces')).body.data).toHaveLength(1);
  });

  it('accepts a body just under 1 MB (it is the size limit, not any other rule, that refuses)', async () => {
    const h = harness();
    // Valid JSON object of about 0.9 MB that fails only the schema (unknown field): 422, not 413.
    const text = JSON.stringify({ ...createBody(), padding: 'p'.repeat(900_000) });
    const res = await rawPost(h, '/v1/onboardings', text);
    expectError(res, 422, 'invalid_request', 'parameter_unknown', 'padding');
  });
});

describe('routing', () => {
  it.each([
    ['/v1/nothing-here'],
    ['/v2/onboardings'],
    ['/v1/onboardings/onb_demo_jansen/unknown-action'],
    ['/_emulator/nothing-here'],
    ['/nothing-here'], // `/` itself redirects to the inspector (test/http/inspect.test.ts)
  ])('answers GET %s with 404 route_not_found, with or without a key', async (path) => {
    const h = harness();
    for (const res of [await h.http().get(path), await h.as(KEYS.owner).get(path), await h.as('hrs_test_invalid_key').get(path)]) {
      expectError(res, 404, 'not_found', 'route_not_found');
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('answers an unknown route for a write with 404 too, before looking at the body', async () => {
    const h = harness();
    const res = await h.http().post('/v1/nothing').set('Content-Type', 'application/json').send('{broken');
    expectError(res, 404, 'not_found', 'route_not_found');
  });

  it.each([
    ['DELETE', '/v1/onboardings', ['GET', 'POST']],
    ['PUT', '/v1/onboardings', ['GET', 'POST']],
    ['PUT', '/v1/onboardings/x', ['GET', 'PATCH']],
    ['DELETE', '/v1/onboardings/onb_demo_jansen', ['GET', 'PATCH']],
    ['POST', '/v1/onboardings/onb_demo_jansen', ['GET', 'PATCH']],
    ['GET', '/v1/onboardings/onb_demo_jansen/cancel', ['POST']],
    ['GET', '/v1/onboardings/onb_demo_jansen/hosted-link', ['POST']],
    ['POST', '/v1/employees', ['GET']],
    ['POST', '/v1/organization', ['GET']],
    ['DELETE', '/v1/organizations', ['GET']],
    ['POST', '/_emulator/health', ['GET']],
    ['GET', '/_emulator/reset', ['POST']],
    ['PUT', '/_emulator/workspaces', ['GET', 'POST']],
  ] as const)('%s %s -> 405 with Allow listing %j', async (method, path, allowed) => {
    const h = harness();
    const before = h.storeJson();
    const lower = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    for (const withKey of [true, false]) {
      const req = h.http()[lower](path);
      const res = await (withKey ? req.set('Authorization', bearer) : req);
      expectError(res, 405, 'invalid_request', 'method_not_allowed');
      const allow = allowOf(res);
      // Exactly the methods served there, plus HEAD (with GET) and OPTIONS, which HTTP gives for free.
      expect(allow.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').sort()).toEqual([...allowed].sort());
      expect(allow).not.toContain(method);
      if (allowed.includes('GET' as never)) expect(allow).toContain('HEAD');
      for (const m of allow) expect(['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']).toContain(m);
    }
    expect(h.storeJson()).toBe(before);
  });

  it('HEAD on a GET route is allowed', async () => {
    const h = harness();
    const res = await h.http().head('/v1/organization').set('Authorization', bearer);
    expect(res.status).toBe(200);
  });
});

describe('Service-Version', () => {
  it('accepts 2026-10-01 and names it in the response', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organization').set('Service-Version', '2026-10-01');
    expect(res.status).toBe(200);
    expect(res.headers['service-version']).toBe('2026-10-01');
  });

  it('answers with the key version when none is asked for', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(res.headers['service-version']).toBe('2026-10-01');
  });

  it('accepts the version on a write and echoes it', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Service-Version', '2026-10-01');
    expect(res.status).toBe(201);
    expect(res.headers['service-version']).toBe('2026-10-01');
  });

  it.each(['2025-01-01', '2026-10-02', 'latest', '1', '2026-10-01,2026-10-01'])(
    'refuses the unknown version %s with 400 service_version_unknown',
    async (version) => {
      const h = harness();
      const res = await h.as(KEYS.owner).get('/v1/organization').set('Service-Version', version);
      const e = expectError(res, 400, 'invalid_request', 'service_version_unknown');
      expect(e.message).toContain('2026-10-01');
      expect(res.headers['service-version']).toBe('2026-10-01');
    },
  );

  it('refuses an unknown version on a write without writing', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Service-Version', '2099-01-01');
    expectError(res, 400, 'invalid_request', 'service_version_unknown');
    expect(h.storeJson()).toBe(before);
  });
});

describe('headers on every response', () => {
  const probes: [string, (h: Harness) => Promise<Response>][] = [
    ['200 GET /v1/organization', (h) => h.as(KEYS.owner).get('/v1/organization')],
    ['200 GET /v1/onboardings', (h) => h.as(KEYS.owner).get('/v1/onboardings')],
    ['201 POST /v1/onboardings', (h) => h.as(KEYS.owner).post('/v1/onboardings', createBody())],
    ['200 PATCH /v1/onboardings/:id', (h) => h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_jansen', { reference: 'r' })],
    ['400 bad JSON', (h) => rawPost(h, '/v1/onboardings', '{')],
    ['400 unknown version', (h) => h.as(KEYS.owner).get('/v1/organization').set('Service-Version', 'x')],
    ['401 no key', (h) => h.http().get('/v1/onboardings')],
    ['401 bad key', (h) => h.as('hrs_test_bad_key').get('/v1/onboardings')],
    ['403 no scope', (h) => h.as(KEYS.noscopes).get('/v1/onboardings')],
    ['404 unknown onboarding', (h) => h.as(KEYS.owner).get('/v1/onboardings/onb_missing')],
    ['404 unknown route', (h) => h.http().get('/nope')],
    ['405 wrong method', (h) => h.http().delete('/v1/onboardings')],
    ['409 cancel twice', async (h) => {
      await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel');
      return h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel');
    }],
    ['413 too large', (h) => rawPost(h, '/v1/onboardings', JSON.stringify({ x: 'z'.repeat(1_100_000) }))],
    ['415 wrong type', (h) => rawPost(h, '/v1/onboardings', 'x', 'text/plain')],
    ['422 invalid field', (h) => h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 5 }))],
    ['200 GET /_emulator/health', (h) => h.http().get('/_emulator/health')],
    ['200 GET /_emulator/keys', (h) => h.http().get('/_emulator/keys')],
    ['201 POST /_emulator/workspaces', (h) => h.http().post('/_emulator/workspaces')],
    ['404 GET /_emulator/workspaces/unknown', (h) => h.http().get('/_emulator/workspaces/ws_unknown')],
    ['409 DELETE default workspace', (h) => h.http().delete('/_emulator/workspaces/default')],
    ['422 bad fixtures', (h) => h.http().post('/_emulator/workspaces').send({ fixtures: { organizations: [] } })],
    ['200 GET /openapi.json', (h) => h.http().get('/openapi.json')],
  ];

  it.each(probes)('%s carries Service-Version and Request-Id', async (_label, probe) => {
    const h = harness();
    const res = await probe(h);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.headers['service-version']).toBe('2026-10-01');
    expect(res.headers['request-id']).toMatch(/^req_[A-Za-z0-9]+$/);
    if (res.status >= 400) {
      const e = envelope(res);
      expect(e.request_id).toBe(res.headers['request-id']);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expectNoStackTrace(res);
  });

  it('every probe gets the status it is named after', async () => {
    for (const [label, probe] of probes) {
      const h = harness();
      const res = await probe(h);
      expect(res.status, label).toBe(Number(label.slice(0, 3)));
    }
  });

  it('request ids differ from request to request', async () => {
    const h = harness();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await (i % 2 ? h.as(KEYS.owner).get('/v1/organization') : h.http().get('/nope'));
      ids.add(res.headers['request-id']!);
    }
    expect(ids.size).toBe(20);
  });
});

describe('no stack traces, no 500s', () => {
  const bad: [string, (h: Harness) => Promise<Response>][] = [
    ['broken JSON', (h) => rawPost(h, '/v1/onboardings', '{"employee": {"first_name": "A",')],
    ['gzip announced, garbage sent', (h) => h.http().post('/v1/onboardings').set('Authorization', bearer)
      .set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('not gzip at all')],
    ['gzip of broken JSON', (h) => h.http().post('/v1/onboardings').set('Authorization', bearer)
      .set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send(gzipSync(Buffer.from('{"a":')))],
    ['unknown content encoding', (h) => h.http().post('/v1/onboardings').set('Authorization', bearer)
      .set('Content-Type', 'application/json').set('Content-Encoding', 'br-nope').send('{}')],
    ['unsupported charset', (h) => rawPost(h, '/v1/onboardings', '{}', 'application/json; charset=latin-9000')],
    ['deeply nested JSON', (h) => rawPost(h, '/v1/onboardings', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)],
    ['deeply nested arrays', (h) => rawPost(h, '/v1/onboardings', `${'['.repeat(20000)}${']'.repeat(20000)}`)],
    ['wrong types everywhere', (h) => h.as(KEYS.owner).post('/v1/onboardings', {
      reference: [], metadata: 'x', employee: 5, employment: { hours_per_week: 'lots' }, options: null,
    })],
    ['__proto__ in the body', (h) => rawPost(h, '/v1/onboardings', '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}')],
    ['bad percent-encoding in the path', (h) => h.as(KEYS.owner).get('/v1/onboardings/%E0%A4%A')],
    ['repeated query parameter', (h) => h.as(KEYS.owner).get('/v1/onboardings?limit=1&limit=2')],
    ['bracketed query parameter', (h) => h.as(KEYS.owner).get('/v1/onboardings?limit[gt]=1')],
    ['very long id', (h) => h.as(KEYS.owner).get(`/v1/onboardings/onb_${'x'.repeat(5000)}`)],
    ['oversized Idempotency-Key', (h) => h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k'.repeat(300))],
    ['control API with broken JSON', (h) => h.http().post('/_emulator/reset').set('Content-Type', 'application/json').send('[')],
    ['control API with wrong field types', (h) => h.http().post('/_emulator/workspaces').send({ fixtures: 'nope', seed: {}, clock: 1 })],
    ['fixtures that are not an object', (h) => h.http().post('/_emulator/workspaces').send({ fixtures: [] })],
  ];

  it.each(bad)('%s: a 4xx in the envelope, without a stack trace', async (_label, probe) => {
    const h = harness();
    const before = h.storeJson();
    const res = await probe(h);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    envelope(res);
    expectNoStackTrace(res);
    expect(h.storeJson()).toBe(before);
  });

  it('a malformed escape in the query string is not a 500 either', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/onboardings?reference=%E0%A4%A');
    expect(res.status).toBeLessThan(500);
    expectNoStackTrace(res);
  });
});
