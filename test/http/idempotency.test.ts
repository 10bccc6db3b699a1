import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createBody, envelope, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

const HOUR = 3_600_000;

describe('Idempotency-Key on write endpoints', () => {
  it('replays the first response exactly for the same key and content, and creates once', async () => {
    const h = harness();
    const first = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1');
    const again = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['request-id']).not.toBe(first.headers['request-id']);
    const list = await h.as(KEYS.owner).get('/v1/onboardings?reference=test-ref');
    expect(list.body.data).toHaveLength(1);
  });

  it('treats the same JSON with its keys in another order as the same content', async () => {
    const h = harness();
    const body = createBody();
    const reordered = { employment: body.employment, employee: body.employee, metadata: body.metadata, reference: body.reference };
    await h.as(KEYS.owner).post('/v1/onboardings', body).set('Idempotency-Key', 'order');
    const again = await h.as(KEYS.owner).post('/v1/onboardings', reordered).set('Idempotency-Key', 'order');
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses the same key with other content with 409 idempotency_key_reused', async () => {
    const h = harness();
    await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-2');
    const other = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'other' })).set('Idempotency-Key', 'k-2');
    expect(other.status).toBe(409);
    const e = envelope(other);
    expect(e.type).toBe('conflict');
    expect(e.code).toBe('idempotency_key_reused');
  });

  it('refuses the same key on another endpoint', async () => {
    const h = harness();
    await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-3');
    const cancel = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel').set('Idempotency-Key', 'k-3');
    expect(envelope(cancel).code).toBe('idempotency_key_reused');
  });

  it('scopes keys per API key', async () => {
    const h = harness();
    const a = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'shared');
    const b = await h.as(KEYS.manager).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'shared');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('accepts keys of 200 characters and refuses longer or empty ones with 400', async () => {
    const h = harness();
    const ok = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'x'.repeat(200));
    expect(ok.status).toBe(201);
    const before = h.storeJson();
    const long = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'x'.repeat(201));
    expect(long.status).toBe(400);
    expect(envelope(long).code).toBe('idempotency_key_invalid');
    expect(h.storeJson()).toBe(before);
  });

  it('forgets a key after 24 hours on the workspace clock', async () => {
    const h = harness();
    const first = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'day');
    h.emulator.defaultWorkspace.clock.advance(24 * HOUR - 1);
    const within = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'day');
    expect(within.body.id).toBe(first.body.id);
    h.emulator.defaultWorkspace.clock.advance(1);
    const after = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'day');
    expect(after.status).toBe(201);
    expect(after.body.id).not.toBe(first.body.id);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not remember a refusal: a corrected retry with the same key goes through', async () => {
    const h = harness();
    const bad = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'r'.repeat(201) })).set('Idempotency-Key', 'fix');
    expect(bad.status).toBe(422);
    const good = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'fix');
    expect(good.status).toBe(201);
  });

  it('replays a cancel instead of answering 409 on the retry', async () => {
    const h = harness();
    const first = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel').set('Idempotency-Key', 'c');
    const again = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel').set('Idempotency-Key', 'c');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const fresh = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel');
    expect(envelope(fresh).code).toBe('onboarding_cancelled');
  });

  it('replays PATCH responses', async () => {
    const h = harness();
    const first = await h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_jansen', { reference: 'p' }).set('Idempotency-Key', 'p');
    h.emulator.defaultWorkspace.clock.advance(HOUR);
    const again = await h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_jansen', { reference: 'p' }).set('Idempotency-Key', 'p');
    expect(again.text).toBe(first.text);
  });
});

describe('a duplicate while the first request still runs', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps the key of a request whose client stopped waiting until that request ends: 409 meanwhile', async () => {
    const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    const released = vi.spyOn(emulator.defaultWorkspace.idempotency, 'release');
    server = await listen(emulator, { port: 0, host: '127.0.0.1' });
    const fault = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'latency', latency_ms: 1500, method: 'POST', path: '/v1/onboardings', count: 1 }) });
    expect(fault.status).toBe(201);
    const send = (signal?: AbortSignal) =>
      fetch(`${server!.url}/v1/onboardings`, { method: 'POST', headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'gone' }, body: JSON.stringify(createBody()), ...(signal ? { signal } : {}) });
    // The client gives up while the request is held; the request runs on and holds its key.
    await expect(send(AbortSignal.timeout(200))).rejects.toThrow();
    const meanwhile = await send();
    expect(meanwhile.status).toBe(409);
    expect(((await meanwhile.json()) as { error: { code: string } }).error.code).toBe('idempotency_in_progress');
    expect(released).not.toHaveBeenCalled();
    // Its body gone with its client, it made nothing, and its end frees the key: a retry then makes the onboarding once.
    await until(() => released.mock.calls.length > 0, 'the abandoned request to end and free its key');
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(emulator.defaultWorkspace.store.onboardings.values().filter((o) => o.reference === 'test-ref').length).toBe(1);
  });

  it('gets 409 idempotency_in_progress, and the first then completes', async () => {
    const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    // Watched to know when the first request holds its key: no answer tells it while its body is unsent.
    const reserve = vi.spyOn(emulator.defaultWorkspace.idempotency, 'reserve');
    server = await listen(emulator, { port: 0, host: '127.0.0.1' });
    const text = JSON.stringify(createBody());
    const { port } = new URL(server.url);
    const headers = {
      Authorization: `Bearer ${KEYS.owner}`,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      'Idempotency-Key': 'slow',
    };
    // The first request sends its headers and half its body; the rest only once the duplicate is answered.
    let first!: ClientRequest;
    const firstDone = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/v1/onboardings', headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(text.slice(0, 40));
      first = req;
    });
    await until(() => reserve.mock.results.some((r) => r.type === 'return' && (r.value as { kind: string }).kind === 'reserved'), 'the first request to reserve its key');
    const dup = await fetch(`${server.url}/v1/onboardings`, { method: 'POST', headers, body: text });
    expect(dup.status).toBe(409);
    const dupBody = (await dup.json()) as { error: { code: string; type: string } };
    expect(dupBody.error.code).toBe('idempotency_in_progress');
    first.end(text.slice(40));
    const done = await firstDone;
    expect(done.status).toBe(201);
    const replay = await fetch(`${server.url}/v1/onboardings`, { method: 'POST', headers, body: text });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(done.body);
  });
});
