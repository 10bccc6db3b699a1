import http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import type { AppOptions } from '../../src/http/app.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createBody, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { gate, until } from '../support/wait.js';

// Faults that take the connection away are only real over a socket: every test here listens on 127.0.0.1.
let server: RunningServer | undefined;
let emulator: Emulator;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: AppOptions = {}): Promise<string> {
  emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
  server = await listen(emulator, { port: 0, host: '127.0.0.1', ...options });
  return server.url;
}

async function addFault(base: string, body: object): Promise<Response> {
  return fetch(`${base}/_emulator/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

/** Creates an onboarding; the promise of the fetch itself, so a test can see it reject. */
function create(base: string, key?: string, reference = 'net-ref'): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' };
  if (key !== undefined) headers['Idempotency-Key'] = key;
  // A bounded wait: a request that hangs instead of being cut fails the test rather than the suite.
  return fetch(`${base}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody({ reference })), signal: AbortSignal.timeout(10_000) });
}

const onboardingsWith = (reference: string) => emulator.defaultWorkspace.store.onboardings.values().filter((o) => o.reference === reference);
const eventCount = () => emulator.defaultWorkspace.store.events.values().length;

/** fetch() rejects with a closed socket, never with our own timeout or an answer. */
async function expectDropped(pending: Promise<Response>): Promise<void> {
  const err = (await pending.then(() => undefined, (e: unknown) => e)) as (Error & { cause?: { code?: string; name?: string } }) | undefined;
  expect(err, 'the request was answered').toBeInstanceOf(TypeError);
  expect(err!.message).toBe('fetch failed');
  expect(err!.cause?.name).not.toBe('TimeoutError');
}

describe('POST /_emulator/faults with the connection kinds', () => {
  it.each(['reset_before_commit', 'drop_response_after_commit'])('adds %s with method, path and count', async (kind) => {
    const h = harness();
    const res = await h.http().post('/_emulator/faults').send({ kind, method: 'POST', path: '/v1/onboardings*', count: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ kind, method: 'POST', path: '/v1/onboardings*', count: 2, remaining: 2, latency_ms: null, retry_after_seconds: null, error_code: null });
  });

  it.each([
    { kind: 'drop_response_after_commit', latency_ms: 10 },
    { kind: 'reset_before_commit', retry_after_seconds: 2 },
    { kind: 'reset_before_commit', error_code: 'x' },
  ])('refuses %j with 422 parameter_invalid in the envelope', async (body) => {
    const h = harness();
    const res = await h.http().post('/_emulator/faults').send(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'parameter_invalid' });
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([]);
  });

  it('keeps them in a snapshot and restores them', async () => {
    const h = harness();
    const added = (await h.http().post('/_emulator/faults').send({ kind: 'drop_response_after_commit', path: '/v1/onboardings' })).body;
    const snapshot = (await h.http().get('/_emulator/snapshot')).body;
    await h.http().delete('/_emulator/faults');
    const restored = await h.http().put('/_emulator/snapshot').send(snapshot);
    expect(restored.status, JSON.stringify(restored.body)).toBeLessThan(300);
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([added]);
  });

  it('restores a snapshot written before slow_response, without first_byte_ms and between_bytes_ms', async () => {
    const h = harness();
    const added = (await h.http().post('/_emulator/faults').send({ kind: 'error' })).body;
    const snapshot = (await h.http().get('/_emulator/snapshot')).body;
    for (const f of snapshot.faults) {
      delete f.first_byte_ms;
      delete f.between_bytes_ms;
    }
    await h.http().delete('/_emulator/faults');
    const restored = await h.http().put('/_emulator/snapshot').send(snapshot);
    expect(restored.status, JSON.stringify(restored.body)).toBeLessThan(300);
    expect((await h.http().get('/_emulator/faults')).body.data).toEqual([added]);
  });
});

describe('drop_response_after_commit', () => {
  it('commits the request, closes without an answer; the retry with the key replays it, one without creates another', async () => {
    const base = await start();
    expect((await addFault(base, { kind: 'drop_response_after_commit', method: 'POST', path: '/v1/onboardings' })).status).toBe(201);
    const events = eventCount();
    await expectDropped(create(base, 'drop-1', 'dropped'));
    // The work was done and kept: the onboarding, its events.
    expect(onboardingsWith('dropped')).toHaveLength(1);
    const id = onboardingsWith('dropped')[0]!.id;
    expect(eventCount()).toBeGreaterThan(events);

    const replay = await create(base, 'drop-1', 'dropped');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string }).id).toBe(id);
    expect(onboardingsWith('dropped')).toHaveLength(1);

    const fresh = await create(base, undefined, 'dropped');
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(((await fresh.json()) as { id: string }).id).not.toBe(id);
    expect(onboardingsWith('dropped')).toHaveLength(2);

    // The journal shows what happened: the dropped request ran (with what it would have answered), then its replay, then the keyless one.
    const journal = (await (await fetch(`${base}/_emulator/requests?method=POST&path=/v1/onboardings`, { signal: AbortSignal.timeout(10_000) })).json()) as {
      data: { status: number; answered: boolean; replayed: boolean; headers: { idempotency_key: string | null }; onboarding_ids: string[] }[];
    };
    expect(journal.data.slice(0, 3).map((e) => [e.status, e.answered, e.replayed, e.headers.idempotency_key])).toEqual([
      [201, true, false, null],
      [201, true, true, 'drop-1'],
      [201, false, false, 'drop-1'],
    ]);
    expect(journal.data[2]!.onboarding_ids).toContain(id);
  });

  it('closes only after the commit resolved (the state file holds what was not answered)', async () => {
    // The dropped request's commit is held until the test opens the disk; every other commit passes.
    let held: Promise<void> | undefined;
    let heldStarted = false;
    let heldDone = false;
    const base = await start({ commit: async () => {
      if (!held) return;
      const disk = held;
      held = undefined;
      heldStarted = true;
      await disk;
      heldDone = true;
    } });
    await addFault(base, { kind: 'drop_response_after_commit', method: 'POST' });
    const disk = gate();
    held = disk.opened;
    let dropped = false;
    const outcome = expectDropped(create(base, 'drop-2', 'held')).then(() => void (dropped = true));
    await until(() => heldStarted, 'the commit of the dropped request to start');
    // A request made after it is answered while that commit is held: the server had its chance to close the connection, and kept it.
    expect((await fetch(`${base}/_emulator/health`)).status).toBe(200);
    expect(dropped).toBe(false);
    disk.open();
    await outcome;
    expect(heldDone).toBe(true);
    expect(onboardingsWith('held')).toHaveLength(1);
  });

  it('drops an error answer too, and keeps no Idempotency-Key for it', async () => {
    const base = await start();
    await addFault(base, { kind: 'drop_response_after_commit', method: 'POST' });
    const bad = fetch(`${base}/v1/onboardings`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'drop-3' },
      body: JSON.stringify({ reference: 'bad' }),
      signal: AbortSignal.timeout(10_000),
    });
    await expectDropped(bad);
    const retry = await create(base, 'drop-3', 'after-bad');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('leaves one request-log line with no status, and no error line', async () => {
    const lines: { level: number; res?: { status: number | null; dropped?: boolean } }[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString())); done(); } });
    const base = await start({ logger: pino({ level: 'info' }, sink) });
    await addFault(base, { kind: 'drop_response_after_commit', method: 'GET', path: '/v1/employees' });
    await expectDropped(fetch(`${base}/v1/employees`, { headers: { Authorization: `Bearer ${KEYS.owner}` }, signal: AbortSignal.timeout(10_000) }));
    const ok = await fetch(`${base}/v1/employees`, { headers: { Authorization: `Bearer ${KEYS.owner}` } });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    // The line of the dropped request is written on close, which follows its fetch's rejection by a moment.
    await until(() => lines.some((l) => l.res?.dropped), 'the log line of the dropped request', 1_000);
    expect(lines.filter((l) => l.res?.dropped).map((l) => l.res)).toEqual([{ status: null, dropped: true }]);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('reset_before_commit', () => {
  it('closes before anything runs: nothing stored, the key not kept; the retry runs normally', async () => {
    const base = await start();
    await addFault(base, { kind: 'reset_before_commit', method: 'POST', path: '/v1/onboardings' });
    const store = () => JSON.stringify(emulator.defaultWorkspace.store.onboardings.values());
    const before = store();
    const events = eventCount();
    await expectDropped(create(base, 'reset-1', 'reset'));
    expect(store()).toBe(before);
    expect(eventCount()).toBe(events);

    const retry = await create(base, 'reset-1', 'reset');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(onboardingsWith('reset')).toHaveLength(1);
    expect((await (await fetch(`${base}/_emulator/faults`)).json()) as { data: unknown[] }).toEqual({ data: [] });
  });
});

interface Timed { status: number; headers: Record<string, string | string[] | undefined>; firstByteAfter: number; chunks: { at: number; bytes: number }[]; body: string }

/** One GET over a raw socket, with the time each piece of the answer arrived (ms after sending). */
function timedGet(base: string, path: string, headers: Record<string, string>): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteAfter = -1;
    const req = http.request(`${base}${path}`, { headers, timeout: 20_000 }, (res) => {
      firstByteAfter = firstByteAfter < 0 ? performance.now() - started : firstByteAfter;
      const chunks: { at: number; bytes: number }[] = [];
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push({ at: performance.now() - started, bytes: c.length });
        parts.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, firstByteAfter, chunks, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    // The status line is the first byte of the answer: the socket's first data marks it.
    req.on('socket', (s) => s.once('data', () => void (firstByteAfter = performance.now() - started)));
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', reject);
    req.end();
  });
}

describe('slow_response', () => {
  it.each([
    [{ kind: 'slow_response' }, 'parameter_missing'],
    [{ kind: 'slow_response', first_byte_ms: 0 }, 'parameter_invalid'],
    [{ kind: 'slow_response', first_byte_ms: 30_001 }, 'parameter_invalid'],
    [{ kind: 'slow_response', between_bytes_ms: 3_001 }, 'parameter_invalid'],
    [{ kind: 'slow_response', first_byte_ms: 10, latency_ms: 10 }, 'parameter_invalid'],
    [{ kind: 'latency', latency_ms: 10, between_bytes_ms: 10 }, 'parameter_invalid'],
  ])('refuses %j with 422 %s', async (body, code) => {
    const h = harness();
    const res = await h.http().post('/_emulator/faults').send(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ type: 'invalid_request', code });
  });

  it('shows first_byte_ms and between_bytes_ms, null on other kinds', async () => {
    const h = harness();
    const slow = await h.http().post('/_emulator/faults').send({ kind: 'slow_response', first_byte_ms: 5 });
    expect(slow.status).toBe(201);
    expect(slow.body).toMatchObject({ kind: 'slow_response', first_byte_ms: 5, between_bytes_ms: null, latency_ms: null });
    const other = await h.http().post('/_emulator/faults').send({ kind: 'error' });
    expect(other.body).toMatchObject({ first_byte_ms: null, between_bytes_ms: null });
  });

  it('waits first_byte_ms before the first byte, then sends the whole body in pieces over time', async () => {
    const base = await start();
    const headers = { Authorization: `Bearer ${KEYS.owner}` };
    const normal = await timedGet(base, '/v1/onboardings', headers);
    expect(normal.status).toBe(200);
    await addFault(base, { kind: 'slow_response', method: 'GET', path: '/v1/onboardings', first_byte_ms: 300, between_bytes_ms: 60 });
    const slow = await timedGet(base, '/v1/onboardings', headers);
    expect(slow.status).toBe(200);
    expect(slow.firstByteAfter).toBeGreaterThanOrEqual(290);
    expect(slow.body).toBe(normal.body);
    expect(Number(slow.headers['content-length'])).toBe(Buffer.byteLength(normal.body));
    // Ten pieces with nine pauses of 60 ms: the last arrives well after the first.
    expect(slow.chunks.length).toBeGreaterThanOrEqual(3);
    expect(slow.chunks.at(-1)!.at - slow.chunks[0]!.at).toBeGreaterThanOrEqual(9 * 60 - 30);
    // Used up by the one request.
    expect((await (await fetch(`${base}/_emulator/faults`)).json()) as { data: unknown[] }).toEqual({ data: [] });
  });

  it('with a state file, never starts a 2xx whose change failed to be written: 500 state_not_written instead', async () => {
    let failing = false;
    const base = await start({ commit: async () => { if (failing) throw new Error('disk full'); } });
    await addFault(base, { kind: 'slow_response', method: 'POST', first_byte_ms: 50, between_bytes_ms: 10 });
    failing = true;
    const res = await create(base, 'slow-2', 'unwritten');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('state_not_written');
  });

  it('a client that gives up on a slow answer: the request ran, the journal records it not answered, and the retry with the key replays it', async () => {
    const base = await start();
    await addFault(base, { kind: 'slow_response', method: 'POST', first_byte_ms: 1000 });
    const headers = { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'slow-gave-up' };
    const body = JSON.stringify(createBody({ reference: 'gave-up' }));
    await expect(fetch(`${base}/v1/onboardings`, { method: 'POST', headers, body, signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(onboardingsWith('gave-up')).toHaveLength(1);
    const retry = await fetch(`${base}/v1/onboardings`, { method: 'POST', headers, body });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    // The hang-up is seen when the socket closes: wait for the first entry, bounded.
    const journal = emulator.defaultWorkspace.requests;
    await until(() => journal.newestFirst().length >= 2, 'two journal entries', 1_000);
    const entries = journal.newestFirst().map((e) => [e.status, e.answered, e.replayed]);
    expect(entries).toEqual(expect.arrayContaining([[201, false, false], [201, true, true]]));
    expect(entries).toHaveLength(2);
  });

  it('a write is kept before its slow answer begins; the retry with the key replays it', async () => {
    const base = await start();
    await addFault(base, { kind: 'slow_response', method: 'POST', first_byte_ms: 200 });
    let answered = false;
    const pending = create(base, 'slow-1', 'slow').finally(() => void (answered = true));
    await until(() => onboardingsWith('slow').length > 0, 'the onboarding to be stored');
    // Mid-wait, no answer yet, but the onboarding is already stored.
    expect(answered).toBe(false);
    expect(onboardingsWith('slow')).toHaveLength(1);
    const res = await pending;
    expect(res.status).toBe(201);
    const first = (await res.json()) as { id: string };
    expect(first.id).toBe(onboardingsWith('slow')[0]!.id);
    const replay = await create(base, 'slow-1', 'slow');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string }).id).toBe(first.id);
  });
});
