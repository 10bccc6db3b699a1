import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { WorkspaceSnapshot } from '../../src/persistence/snapshot.js';
import type { Transport, TransportRequest, TransportResult } from '../../src/delivery/transport.js';
import { createEmulator } from '../../src/in-process.js';
import { createBody, expectError, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * GET/PUT /_emulator/snapshot (docs/decisions.md, Snapshots and persistence): the whole
 * workspace as one document, and back. A restore must give byte-identical answers, continue a
 * seeded id sequence, keep timers (retries, purges) firing at their instants, refuse a bad
 * document without changing anything, and keep API keys unique across workspaces.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function take(h: Harness, path = '/_emulator/snapshot'): Promise<{ text: string; body: WorkspaceSnapshot }> {
  const res = await h.http().get(path);
  expect(res.status, res.text).toBe(200);
  return { text: res.text, body: res.body as WorkspaceSnapshot };
}

async function put(h: Harness, snapshot: unknown, path = '/_emulator/snapshot') {
  return h.http().put(path).send(snapshot as object);
}

async function create(h: Harness, overrides: Record<string, unknown> = {}, key: string = KEYS.owner) {
  const res = await h.as(key).post('/v1/onboardings', createBody(overrides));
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; hosted_url: string };
}

const portless = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');

/** Every answer a client could compare, as raw text. */
async function answers(h: Harness, onboardingIds: string[]): Promise<string[]> {
  const paths = [
    '/v1/onboardings', '/v1/employees', '/v1/events', '/v1/webhooks', '/v1/organization',
    ...onboardingIds.flatMap((id) => [`/v1/onboardings/${id}`, `/v1/onboardings/${id}/documents`]),
  ];
  const out: string[] = [];
  for (const p of paths) {
    const res = await h.as(KEYS.owner).get(p);
    out.push(`${p} ${res.status} ${res.text}`);
  }
  for (const p of ['/_emulator/clock', '/_emulator/outbox', '/_emulator/keys', '/_emulator/faults', '/_emulator/scenario', '/_emulator/audit-log']) {
    const res = await h.http().get(p);
    out.push(`${p} ${res.status} ${res.text}`);
  }
  return out;
}

/** A transport that never connects: answers from a list of statuses, then 200. */
function scriptedTransport(statuses: number[] = []) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    send: async (req): Promise<TransportResult> => {
      sent.push(req);
      const status = statuses.shift() ?? 200;
      return { ok: status < 300, status, error: status < 300 ? null : `HTTP ${status}`, durationMs: 1 };
    },
  };
  return { transport, sent };
}

describe('GET /_emulator/snapshot', () => {
  it('holds the whole workspace with its format and version', async () => {
    const h = harness({ seed: 'snap' });
    await create(h);
    await h.http().post('/_emulator/faults').send({ kind: 'error', count: 2 });
    const { body } = await take(h);
    expect(body).toMatchObject({ format: 'onboarding-emulator-snapshot', version: 1, workspace: { id: 'default' } });
    expect(body.clock).toEqual({ mode: 'frozen', now: FROZEN_START, offset_ms: 0 });
    expect(body.random).toMatchObject({ seed: 'snap' });
    expect(body.random!.words).toHaveLength(4);
    expect(Object.keys(body.store)).toEqual(expect.arrayContaining(['organizations', 'users', 'keys', 'onboardings', 'employees', 'events', 'webhooks', 'deliveries', 'sequence']));
    expect(body.store.onboardings.length).toBeGreaterThan(0);
    expect(body.timers.timers.map((t) => t.kind)).toContain('event.purge');
    expect(body.timers.next_seq).toBeGreaterThan(body.timers.timers.length);
    expect(body.idempotency).toEqual([]);
    expect(body.outbox).toEqual([]);
    expect(body.faults).toMatchObject([{ kind: 'error', remaining: 2 }]);
    expect(body).toHaveProperty('scenario', null);
    expect(body).toHaveProperty('audit_log');
    expect(body).toHaveProperty('autopilot');
  });

  it('is the same document whichever way the workspace is selected, and null random without a seed', async () => {
    const h = harness();
    const created = await h.http().post('/_emulator/workspaces').send({});
    const id = (created.body as { id: string }).id;
    const key = (created.body as { keys: { key: string }[] }).keys[0]!.key;
    const byPath = await take(h, `/_emulator/workspaces/${id}/snapshot`);
    const byKey = await h.http().get('/_emulator/snapshot').set('Authorization', `Bearer ${key}`);
    expect(byKey.text).toBe(byPath.text);
    expect(byPath.body.workspace.id).toBe(id);
    expect(byPath.body.random).toBeNull();
  });

  it('changes nothing: two snapshots in a row are byte-identical', async () => {
    const h = harness({ seed: 's' });
    await create(h);
    expect((await take(h)).text).toBe((await take(h)).text);
  });
});

describe('PUT /_emulator/snapshot', () => {
  it('restores every answer byte for byte after changes of every kind', async () => {
    const h = harness({ seed: 'round-trip' });
    const first = await create(h, { reference: 'first' });
    await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook' });
    await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'idem' })).set('Idempotency-Key', 'k-1');
    const before = await take(h);
    const seen = await answers(h, [first.id]);

    // Changes: a new onboarding, a cancellation, a fault, a scenario, a clock move, a reset even.
    const second = await create(h, { reference: 'second' });
    await h.as(KEYS.owner).post(`/v1/onboardings/${first.id}/cancel`);
    await h.http().post('/_emulator/faults').send({ kind: 'latency', latency_ms: 5 });
    await h.http().put('/_emulator/scenario').send({ version: 1, rules: [{ match: { all: true }, employee: { opens: '1h' } }] });
    await h.http().post('/_emulator/clock/advance').send({ by: '3d' });
    expect((await take(h)).text).not.toBe(before.text);

    const res = await put(h, before.body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: 'default', restored: true, clock: { now: FROZEN_START, mode: 'frozen' } });
    expect((await take(h)).text).toBe(before.text);
    expect(await answers(h, [first.id])).toEqual(seen);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${second.id}`)).status).toBe(404);
    // Idempotency records came back too: the same key and body replay the first answer.
    const replay = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'idem' })).set('Idempotency-Key', 'k-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('continues the seeded id sequence: an onboarding made after a restore gets the id the original made', async () => {
    const h = harness({ seed: 'continue' });
    await create(h);
    const snapshot = (await take(h)).body;
    const original = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'next' }));
    await create(h, { reference: 'more' });

    expect((await put(h, snapshot)).status).toBe(200);
    const again = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'next' }));
    expect(again.body.id).toBe(original.body.id);
    expect(portless(again.text)).toBe(portless(original.text)); // hosted_url names the port supertest used

    // The same in another emulator (started with another seed): the snapshot carries the position.
    const other = harness({ seed: 'something else' });
    expect((await put(other, snapshot)).status).toBe(200);
    const there = await other.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'next' }));
    expect(portless(there.text)).toBe(portless(original.text));
  });

  it('keeps webhook retries: a failed attempt retried after restore and an advance reaches the receiver', async () => {
    const failing = scriptedTransport([500]);
    const h = harness({ webhooks: { transport: failing.transport } });
    const hook = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['onboarding.created'] });
    expect(hook.status, hook.text).toBe(201);
    await create(h);
    await h.http().post('/_emulator/clock/advance').send({ by: 0 });
    expect(failing.sent).toHaveLength(1);
    const snapshot = (await take(h)).body;
    expect(snapshot.store.deliveries).toMatchObject([{ status: 'failed', attempts: 1 }]);

    const healthy = scriptedTransport();
    const other = harness({ webhooks: { transport: healthy.transport } });
    expect((await put(other, snapshot)).status).toBe(200);
    const moved = await other.http().post('/_emulator/clock/advance').send({ by: '1m' });
    expect(moved.body.fired).toContainEqual(expect.objectContaining({ kind: 'webhook.attempt', due_at: new Date(Date.parse(FROZEN_START) + MINUTE).toISOString(), status: 'succeeded' }));
    expect(healthy.sent).toHaveLength(1);
    expect(healthy.sent[0]!.body).toBe(failing.sent[0]!.body);
    expect(other.emulator.defaultWorkspace.store.deliveries.values()).toMatchObject([{ status: 'succeeded', attempts: 2 }]);
  });

  it('keeps a scenario half played: the restored autopilot plays the remaining steps at the same instants', async () => {
    const scenario = fileURLToPath(new URL('../../scenarios/returned-for-correction.yaml', import.meta.url));
    const h = harness({ seed: 'mid-scenario', scenario });
    const { id } = await create(h);
    const early = await h.http().post('/_emulator/clock/advance').send({ by: '2h' });
    expect(early.body.fired.some((f: { kind: string }) => f.kind === 'scenario.step')).toBe(true);
    const midway = (await h.as(KEYS.owner).get(`/v1/onboardings/${id}`)).body.status as string;
    expect(['completed', 'cancelled']).not.toContain(midway);
    const snapshot = (await take(h)).text;

    const rest = async (x: Harness) => {
      const moved = await x.http().post('/_emulator/clock/advance').send({ by: '10d' });
      expect(moved.status).toBe(200);
      return [JSON.stringify(moved.body.fired), ...(await answers(x, [id]))];
    };
    const original = await rest(h);
    expect(original[0]).toContain('"step":"returned"');
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${id}`)).body.status).toBe('completed');

    // A workspace with no scenario of its own: what plays there comes from the snapshot.
    const other = harness({ seed: 'another seed' });
    expect((await other.http().get('/_emulator/scenario')).body.loaded).toBe(false);
    expect((await put(other, JSON.parse(snapshot))).status).toBe(200);
    expect(await rest(other)).toEqual(original);
  });

  it('keeps event purges: events restored are purged 30 days after they were made', async () => {
    const h = harness();
    const { id } = await create(h);
    const snapshot = (await take(h)).body;
    const other = harness();
    expect((await put(other, snapshot)).status).toBe(200);
    const mine = async () => {
      const listed = await other.as(KEYS.owner).get('/v1/events?limit=100');
      expect(listed.status, listed.text).toBe(200);
      return (listed.body.data as { data: { onboarding_id: string } }[]).filter((e) => e.data.onboarding_id === id);
    };
    expect((await mine()).length).toBeGreaterThan(0);
    const moved = await other.http().post('/_emulator/clock/advance').send({ by: '30d' });
    expect(moved.body.fired.filter((f: { kind: string }) => f.kind === 'event.purge').length).toBe(snapshot.store.events.length);
    expect(await mine()).toEqual([]);
  });

  it('keeps cancelled timers cancelled and the pending count exact', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    // Due after the fixtures' event purges, so it is not at the top of the queue (dropped there on the next look).
    const t = ws.scheduler.schedule('event.purge', Date.parse(FROZEN_START) + 60 * DAY, { event_id: 'evt_none' });
    ws.timers.cancel(t.seq);
    const clock = (await h.http().get('/_emulator/clock')).text;
    const snapshot = (await take(h)).body;
    expect(snapshot.timers.cancelled).toContain(t.seq);
    const other = harness();
    await put(other, snapshot);
    expect((await other.http().get('/_emulator/clock')).text).toBe(clock);
    const moved = await other.http().post('/_emulator/clock/advance').send({ by: '61d' });
    expect(moved.body.fired.length).toBeGreaterThan(0);
    expect(moved.body.fired.filter((f: { event_id?: string }) => f.event_id === 'evt_none')).toEqual([]);
  });

  it('restores a realtime clock with its offset, so it keeps following the wall clock', async () => {
    let wall = Date.parse('2030-01-01T00:00:00Z');
    const h = harness({ clock: { mode: 'realtime', start: '2026-10-05T09:00:00Z', wallNow: () => wall } });
    await h.http().post('/_emulator/clock/advance').send({ by: '1h' });
    const snapshot = (await take(h)).body;
    expect(snapshot.clock).toEqual({ mode: 'realtime', now: '2026-10-05T10:00:00.000Z', offset_ms: Date.parse('2026-10-05T10:00:00Z') - wall });
    wall += DAY; // a day passes before the restore
    expect((await put(h, snapshot)).status).toBe(200);
    expect((await h.http().get('/_emulator/clock')).body.now).toBe('2026-10-06T10:00:00.000Z');
  });

  it('re-arms a realtime workspace: a restored timer fires by itself when due', async () => {
    const h = harness({ clock: { mode: 'realtime' } });
    const { id } = await create(h);
    const snapshot = (await take(h)).body;
    const ws = h.emulator.defaultWorkspace;
    const event = snapshot.store.events.find((e) => (e as { data: { onboarding_id: string } }).data.onboarding_id === id)!;
    snapshot.timers.timers.push({ seq: snapshot.timers.next_seq, due: Date.parse(snapshot.clock.now) + 150, kind: 'event.purge', payload: { event_id: event.id } });
    snapshot.timers.next_seq += 1;
    expect((await put(h, snapshot)).status).toBe(200);
    expect(ws.store.events.has(event.id)).toBe(true);
    // Polls the store, not the API: with no request in between, only the alarm can fire the timer.
    await until(() => !ws.store.events.has(event.id), 'the restored purge timer to fire');
    expect(ws.store.events.has(event.id)).toBe(false);
  });

  it('works under /_emulator/workspaces/{id}/snapshot', async () => {
    const h = harness({ seed: 'ws' });
    const created = (await h.http().post('/_emulator/workspaces').send({})).body as { id: string; keys: { key: string }[] };
    const path = `/_emulator/workspaces/${created.id}/snapshot`;
    const before = await take(h, path);
    await h.as(created.keys[0]!.key).post('/v1/onboardings', createBody());
    const res = await put(h, before.body, path);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(created.id);
    expect((await take(h, path)).text).toBe(before.text);
  });
});

describe('PUT /_emulator/snapshot refusals change nothing', () => {
  async function refusedUnchanged(h: Harness, document: unknown, status: number, code: string, path = '/_emulator/snapshot') {
    const snapshotBefore = (await take(h, path)).text;
    const storeBefore = h.storeJson();
    const err = expectError(await put(h, document, path), status, status === 409 ? 'conflict' : 'invalid_request', code);
    expect(h.storeJson()).toBe(storeBefore);
    expect((await take(h, path)).text).toBe(snapshotBefore);
    return err;
  }

  it('refuses a document that is not a snapshot', async () => {
    const h = harness();
    await create(h);
    const err = await refusedUnchanged(h, { hello: 'world' }, 422, 'snapshot_invalid');
    expect(err.details).toEqual([{ path: 'format', message: expect.stringContaining('"onboarding-emulator-snapshot"') }]);
    expect(err.message).toContain('Nothing was changed');
  });

  it('refuses another version with snapshot_version_unsupported', async () => {
    const h = harness();
    const { body } = await take(h);
    const err = await refusedUnchanged(h, { ...body, version: 2 }, 422, 'snapshot_version_unsupported');
    expect(err.message).toBe('The snapshot has version 2; this emulator reads version 1 only. Nothing was changed.');
    expect(err.param).toBe('version');
  });

  it('lists every mistake of a malformed snapshot, with its path', async () => {
    const h = harness();
    const { body } = await take(h);
    const broken = structuredClone(body) as unknown as Record<string, any>; // deliberately malformed
    delete broken.store.onboardings[0].id;
    broken.clock.mode = 'sideways';
    broken.timers.timers[0].due = 'soon';
    delete broken.outbox;
    const err = await refusedUnchanged(h, broken, 422, 'snapshot_invalid');
    const paths = err.details!.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['store.onboardings[0].id', 'clock.mode', 'timers.timers[0].due', 'outbox']));
  });

  it('refuses what the shape cannot say: duplicate ids, timer numbers, unknown timer kinds, a broken scenario', async () => {
    const h = harness();
    const { body } = await take(h);
    const broken = structuredClone(body);
    broken.store.onboardings.push(broken.store.onboardings[0]!);
    broken.timers.timers.push({ seq: broken.timers.next_seq, due: 0, kind: 'event.purge', payload: {} });
    broken.timers.timers[0]!.kind = 'coffee.break';
    broken.scenario = { document: { version: 1, rules: [{ employee: { opens: 'whenever' } }] } as never, source: 'api', loaded_at: FROZEN_START };
    const err = await refusedUnchanged(h, broken, 422, 'snapshot_invalid');
    const byPath = Object.fromEntries(err.details!.map((d) => [d.path, d.message]));
    expect(byPath[`store.onboardings[${broken.store.onboardings.length - 1}].id`]).toContain('appears twice');
    expect(byPath[`timers.timers[${broken.timers.timers.length - 1}].seq`]).toContain('next_seq');
    expect(byPath['timers.timers[0].kind']).toContain('"coffee.break" is not a timer kind');
    expect(Object.keys(byPath).some((p) => p.startsWith('scenario.document'))).toBe(true);
  });

  it('refuses a body that is not JSON or not an object', async () => {
    const h = harness();
    const before = h.storeJson();
    expectError(await h.http().put('/_emulator/snapshot').set('Content-Type', 'application/json').send('{"format":'), 400, 'invalid_request', 'body_invalid_json');
    expectError(await h.http().put('/_emulator/snapshot').set('Content-Type', 'application/json').send('[1]'), 400, 'invalid_request', 'body_not_object');
    expect(h.storeJson()).toBe(before);
  });

  it("refuses keys of another workspace with 409 snapshot_key_conflict; a deleted workspace's keys may move", async () => {
    const h = harness();
    const a = (await h.http().post('/_emulator/workspaces').send({})).body as { id: string; keys: { key: string }[] };
    const b = (await h.http().post('/_emulator/workspaces').send({})).body as { id: string };
    // The default workspace's keys into b: they are the default workspace's.
    const fromDefault = (await take(h)).body;
    const err = await refusedUnchanged(h, fromDefault, 409, 'snapshot_key_conflict', `/_emulator/workspaces/${b.id}/snapshot`);
    expect(err.message).toContain('belongs to workspace default');

    // a's snapshot into b is refused while a exists, and allowed once a is gone.
    const fromA = (await take(h, `/_emulator/workspaces/${a.id}/snapshot`)).body;
    await refusedUnchanged(h, fromA, 409, 'snapshot_key_conflict', `/_emulator/workspaces/${b.id}/snapshot`);
    expect((await h.http().delete(`/_emulator/workspaces/${a.id}`)).status).toBe(200);
    const res = await put(h, fromA, `/_emulator/workspaces/${b.id}/snapshot`);
    expect(res.status, res.text).toBe(200);
    // a's keys now reach b, for /v1 and for the control API alike.
    const key = a.keys[0]!.key;
    expect((await h.as(key).get('/v1/organization')).status).toBe(200);
    const keys = await h.http().get('/_emulator/keys').set('Authorization', `Bearer ${key}`);
    expect(keys.body.data.map((k: { key: string }) => k.key)).toContain(key);
    expect((await h.http().get(`/_emulator/workspaces/${b.id}/keys`)).text).toBe(keys.text);
    // The keys b had before are gone; a reset brings b's own fixtures back.
    await h.http().post(`/_emulator/workspaces/${b.id}/reset`);
    expect((await h.as(key).get('/v1/organization')).status).toBe(401);
  });
});

describe('createEmulator snapshot() and restore()', () => {
  it('take and give back the same document as the HTTP routes, per workspace handle too', async () => {
    const emu = createEmulator({ seed: 'in-process', clock: { mode: 'frozen', start: FROZEN_START } });
    const snap = await emu.snapshot();
    expect(snap.format).toBe('onboarding-emulator-snapshot');
    await emu.clock.advance('1d');
    const restored = await emu.restore(snap);
    expect(restored).toMatchObject({ id: 'default', restored: true, clock: { now: FROZEN_START } });
    expect(JSON.stringify(await emu.snapshot())).toBe(JSON.stringify(snap));

    const { handle } = await emu.workspace.create();
    const other = await handle.snapshot();
    expect(other.workspace.id).toBe(handle.workspaceId);
    await expect(handle.restore(snap)).rejects.toMatchObject({ code: 'snapshot_key_conflict', status: 409 });
    await expect(emu.restore({ ...snap, version: 7 } as never)).rejects.toMatchObject({ code: 'snapshot_version_unsupported' });
  });

  it('the returned snapshot is a copy: changing it changes nothing, and restoring it later still works', async () => {
    const emu = createEmulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    const snap = await emu.snapshot();
    const text = JSON.stringify(snap);
    snap.store.onboardings.length = 0;
    expect(JSON.stringify(await emu.snapshot())).toBe(text);
    const again = JSON.parse(text) as WorkspaceSnapshot;
    await emu.restore(again);
    again.store.keys.length = 0; // the restored state shares nothing with the caller's object
    expect(JSON.stringify(await emu.snapshot())).toBe(text);
  });
});
