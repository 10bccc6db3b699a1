import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createBody, envelope, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { until } from '../support/wait.js';

const addFault = (h: Harness, body: object) => h.http().post('/_emulator/faults').send(body);

describe('POST /_emulator/faults', () => {
  it('answers 201 with the fault, its flt_ id, defaults and remaining; GET lists it', async () => {
    const h = harness();
    const res = await addFault(h, { kind: 'rate_limit' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^flt_\w+$/), object: 'fault', kind: 'rate_limit', method: null, path: null,
      count: 1, remaining: 1, latency_ms: null, retry_after_seconds: 1, error_code: null, first_byte_ms: null, between_bytes_ms: null, created_at: FROZEN_START,
    });
    const list = await h.http().get('/_emulator/faults');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([res.body]);
  });

  it.each([
    [{ kind: 'timeout' }, 'parameter_invalid'],
    [{ kind: 'error', count: 0 }, 'parameter_invalid'],
    [{ kind: 'error', count: 1001 }, 'parameter_invalid'],
    [{ kind: 'error', count: 1.5 }, 'parameter_invalid'],
    [{ kind: 'error', method: 'HEAD' }, 'parameter_invalid'],
    [{ kind: 'error', path: 'v1/employees' }, 'parameter_invalid'],
    [{ kind: 'error', path: '/v1/*/employees' }, 'parameter_invalid'],
    [{ kind: 'latency' }, 'parameter_missing'],
    [{ kind: 'latency', latency_ms: 0 }, 'parameter_invalid'],
    [{ kind: 'latency', latency_ms: 30001 }, 'parameter_invalid'],
    [{ kind: 'error', latency_ms: 10 }, 'parameter_invalid'],
    [{ kind: 'latency', latency_ms: 10, retry_after_seconds: 2 }, 'parameter_invalid'],
    [{ kind: 'error', colour: 'red' }, 'parameter_unknown'],
    [{}, 'parameter_missing'],
  ])('refuses %j with 422 %s and adds nothing', async (body, code) => {
    const h = harness();
    const res = await addFault(h, body);
    expect(res.status).toBe(422);
    const e = envelope(res);
    expect(e.type).toBe('invalid_request');
    expect(e.code).toBe(code);
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
  });
});

describe('DELETE /_emulator/faults', () => {
  it('removes one by id (404 for an unknown id) and clears all', async () => {
    const h = harness();
    const a = (await addFault(h, { kind: 'error', path: '/v1/employees' })).body;
    const b = (await addFault(h, { kind: 'error', path: '/v1/organizations' })).body;
    const c = (await addFault(h, { kind: 'error', path: '/v1/events' })).body;
    const del = await h.http().delete(`/_emulator/faults/${b.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: b.id, deleted: true });
    expect((await h.http().get('/_emulator/faults')).body.data.map((f: { id: string }) => f.id)).toEqual([a.id, c.id]);
    const again = await h.http().delete(`/_emulator/faults/${b.id}`);
    expect(again.status).toBe(404);
    expect(envelope(again).code).toBe('resource_not_found');
    const clear = await h.http().delete('/_emulator/faults');
    expect(clear.status).toBe(200);
    expect(clear.body).toEqual({ deleted: 2 });
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(200);
  });

  it('is cleared by a reset of the workspace', async () => {
    const h = harness();
    await addFault(h, { kind: 'error' });
    await h.http().post('/_emulator/reset');
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
  });
});

describe('applying faults to /v1 requests', () => {
  it('rate_limit: 429 rate_limited with Retry-After in the envelope, for count requests, then normal again', async () => {
    const h = harness();
    await addFault(h, { kind: 'rate_limit', count: 2, retry_after_seconds: 7 });
    for (let i = 0; i < 2; i++) {
      const res = await h.as(KEYS.owner).get('/v1/employees');
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.headers['request-id']).toMatch(/^req_/);
      const e = envelope(res);
      expect(e.type).toBe('rate_limited');
      expect(e.code).toBe('rate_limited');
    }
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(200);
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
  });

  it('error: 500 api_error internal_error saying it was injected; a refused write writes nothing', async () => {
    const h = harness();
    const fault = (await addFault(h, { kind: 'error', method: 'POST' })).body;
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'e-1');
    expect(res.status).toBe(500);
    const e = envelope(res);
    expect(e.type).toBe('api_error');
    expect(e.code).toBe('internal_error');
    expect(e.message).toContain('Injected');
    expect(e.message).toContain(fault.id);
    expect(h.storeJson()).toBe(before);
    // The key was not kept: the retry with the same key goes through.
    const retry = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'e-1');
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('latency: waits latency_ms of wall time, then answers normally', async () => {
    const h = harness();
    await addFault(h, { kind: 'latency', latency_ms: 150 });
    const started = Date.now();
    const res = await h.as(KEYS.owner).get('/v1/employees');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const fast = Date.now();
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(200);
    expect(Date.now() - fast).toBeLessThan(140);
  });

  it('matches the method and an exact path or a prefix, and remaining counts down', async () => {
    const h = harness();
    const exact = (await addFault(h, { kind: 'error', method: 'GET', path: '/v1/employees', count: 3 })).body;
    await addFault(h, { kind: 'rate_limit', path: '/v1/onboardings*', count: 2 });
    expect((await h.as(KEYS.owner).get('/v1/organizations')).status).toBe(200);
    expect((await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel').set('Content-Type', 'application/json').send({})).status).toBe(429);
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(500);
    const listed = (await h.http().get('/_emulator/faults')).body.data;
    expect(listed.map((f: { id: string; remaining: number }) => [f.id, f.remaining])).toEqual([[exact.id, 2], [listed[1].id, 1]]);
    expect((await h.as(KEYS.owner).get('/v1/onboardings')).status).toBe(429);
    expect((await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen')).status).toBe(200);
    expect((await h.as(KEYS.owner).get('/v1/employees/')).status).toBe(404); // not the exact path: no route (strict routing), and the fault is not used up
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(500);
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(500);
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(200);
  });

  it('matches a POST-only fault only on POST', async () => {
    const h = harness();
    await addFault(h, { kind: 'error', method: 'POST', path: '/v1/onboardings' });
    expect((await h.as(KEYS.owner).get('/v1/onboardings')).status).toBe(200);
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(500);
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
  });

  it('never applies to /_emulator routes', async () => {
    const h = harness();
    await addFault(h, { kind: 'error', count: 5 });
    expect((await h.http().get('/_emulator/health')).status).toBe(200);
    expect((await h.http().get('/_emulator/keys')).status).toBe(200);
    expect((await h.http().get('/_emulator/faults')).body.data[0].remaining).toBe(5);
  });

  it('is per workspace: a fault in one workspace does not touch another', async () => {
    const h = harness();
    const ws = (await h.http().post('/_emulator/workspaces')).body as { id: string; keys: { key: string }[] };
    const otherKey = ws.keys.find((k) => k.key.startsWith(`${KEYS.owner}_`))!.key;
    const add = await h.http().post(`/_emulator/workspaces/${ws.id}/faults`).send({ kind: 'rate_limit', count: 3 });
    expect(add.status).toBe(201);
    expect((await h.as(KEYS.owner).get('/v1/employees')).status).toBe(200);
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
    expect((await h.as(otherKey).get('/v1/employees')).status).toBe(429);
    // The control API also selects the workspace by bearer key.
    const listed = await h.as(otherKey).get('/_emulator/faults');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].remaining).toBe(2);
  });
});

describe('a latency fault makes 409 idempotency_in_progress reproducible', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a duplicate sent during the wait gets 409; the first then answers 201', async () => {
    server = await listen(new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } }), { port: 0, host: '127.0.0.1' });
    const added = await fetch(`${server.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // Latency is wall time, and it is the window the duplicate must land in: long enough for a
      // busy machine to send it, short enough not to slow the suite.
      body: JSON.stringify({ kind: 'latency', latency_ms: 1_000, method: 'POST', path: '/v1/onboardings' }),
    });
    expect(added.status).toBe(201);
    const headers = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'slow' };
    const body = JSON.stringify(createBody());
    const first = fetch(`${server.url}/v1/onboardings`, { method: 'POST', headers, body });
    // The fault is used up (and listed no more) as the first request reserves its key, before its wait.
    const url = server.url;
    await until(async () => ((await (await fetch(`${url}/_emulator/faults`)).json()) as { data: unknown[] }).data.length === 0, 'the first request to take the fault');
    const dup = await fetch(`${server.url}/v1/onboardings`, { method: 'POST', headers, body });
    expect(dup.status).toBe(409);
    expect(dup.headers.get('request-id')).toMatch(/^req_/);
    const dupBody = (await dup.json()) as { error: { code: string; type: string } };
    expect(dupBody.error).toMatchObject({ type: 'conflict', code: 'idempotency_in_progress' });
    const done = await first;
    expect(done.status).toBe(201);
    const firstText = await done.text();
    const replay = await fetch(`${server.url}/v1/onboardings`, { method: 'POST', headers, body });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
  });
});
