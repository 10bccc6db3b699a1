import { describe, expect, it, vi } from 'vitest';
import { JOURNAL_LIMIT, RequestJournal } from '../../src/core/journal.js';
import { Emulator } from '../../src/emulator.js';
import { createBody, expectError, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';

type Entry = {
  id: string; at: string; key: string; method: string; path: string; query: Record<string, unknown>;
  headers: Record<string, string | null>; body: unknown; status: number; error_code: string | null;
  replayed: boolean; duration_ms: number | null; onboarding_ids: string[];
};
type Page = { data: Entry[]; total: number; dropped: number; limit: number; has_more: boolean; next_cursor: string | null };

/** A few /v1 calls of every kind: a create with an Idempotency-Key and its replay, reads, a refusal by the schema and one by a bad key. */
async function traffic(h: Harness) {
  const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1').set('Service-Version', '2026-10-01');
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const replay = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'k-1');
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect((await h.as(KEYS.manager).get(`/v1/onboardings/${id}`)).status).toBe(200);
  expect((await h.as(KEYS.owner).get('/v1/onboardings?limit=2')).status).toBe(200);
  expectError(await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 7 })), 422, 'invalid_request', 'parameter_invalid');
  expect((await h.as('hrs_test_nobody').get('/v1/onboardings')).status).toBe(401);
  return id;
}

const list = async (h: Harness, query = ''): Promise<Page> => {
  const res = await h.http().get(`/_emulator/requests${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
};
const verify = async (h: Harness, body: object) => {
  const res = await h.http().post('/_emulator/requests/verify').send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { ok: boolean; count: number; expected: object; nearest: { request: Entry; differs: string[] }[] };
};

describe('the request journal', () => {
  it('records every /v1 request of the workspace, newest first, but not one refused before its key named a workspace', async () => {
    const h = harness();
    const id = await traffic(h);
    const page = await list(h);
    expect(page.total).toBe(5);
    expect(page.dropped).toBe(0);
    expect(page.data.map((e) => [e.method, e.path, e.status, e.error_code, e.replayed])).toEqual([
      ['POST', '/v1/onboardings', 422, 'parameter_invalid', false],
      ['GET', '/v1/onboardings', 200, null, false],
      ['GET', `/v1/onboardings/${id}`, 200, null, false],
      ['POST', '/v1/onboardings', 201, null, true],
      ['POST', '/v1/onboardings', 201, null, false],
    ]);
    const first = page.data[4]!;
    expect(first).toMatchObject({
      object: 'request',
      at: FROZEN_START,
      key: 'hrs_test_…_owner',
      query: {},
      headers: { idempotency_key: 'k-1', service_version: '2026-10-01', service_organization: null },
      body: createBody(),
      onboarding_ids: [id],
    });
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(page)).not.toContain(KEYS.owner);
    expect(page.data[1]!.query).toEqual({ limit: '2' });
    expect(page.data[1]!.body).toBeNull();
    expect(page.data[2]!.key).toBe('hrs_test_…anager');
  });

  it('filters by method, path (exact or prefix), status, error code, key, since and onboarding id', async () => {
    const h = harness();
    const id = await traffic(h);
    await h.http().post('/_emulator/clock/advance').send({ by: '1h' }).expect(200);
    await h.as(KEYS.manager).post(`/v1/onboardings/${id}/cancel`, {}).expect(200);
    const paths = async (q: string) => (await list(h, q)).data.map((e) => `${e.method} ${e.path} ${e.status}`);
    expect(await paths('?method=GET')).toEqual(['GET /v1/onboardings 200', `GET /v1/onboardings/${id} 200`]);
    expect(await paths('?path=/v1/onboardings')).toHaveLength(4);
    expect(await paths(`?path=/v1/onboardings/${id}*`)).toEqual([`POST /v1/onboardings/${id}/cancel 200`, `GET /v1/onboardings/${id} 200`]);
    expect(await paths('?status=422')).toEqual(['POST /v1/onboardings 422']);
    expect(await paths('?error_code=parameter_invalid')).toEqual(['POST /v1/onboardings 422']);
    expect(await paths(`?key=${KEYS.manager}`)).toEqual([`POST /v1/onboardings/${id}/cancel 200`, `GET /v1/onboardings/${id} 200`]);
    expect(await paths(`?key=${encodeURIComponent('hrs_test_…anager')}`)).toHaveLength(2);
    expect(await paths('?since=2026-10-05T09:30:00Z')).toEqual([`POST /v1/onboardings/${id}/cancel 200`]);
    // In the answer (the create and its replay), in the path (the read, the cancel).
    expect(await paths(`?onboarding_id=${id}`)).toHaveLength(4);
    expect((await list(h, '?method=GET&key=' + KEYS.owner)).total).toBe(1);
  });

  it('filters by the Idempotency-Key sent, whether one was sent, and whether the answer was a replay', async () => {
    const h = harness();
    await traffic(h);
    const paths = async (q: string) => (await list(h, q)).data.map((e) => `${e.method} ${e.path} ${e.status}${e.replayed ? ' replayed' : ''}`);
    expect(await paths('?idempotency_key=k-1')).toEqual(['POST /v1/onboardings 201 replayed', 'POST /v1/onboardings 201']);
    expect(await paths('?replayed=true')).toEqual(['POST /v1/onboardings 201 replayed']);
    expect(await paths('?method=POST&has_idempotency_key=false')).toEqual(['POST /v1/onboardings 422']);
    expect(await paths('?method=POST&has_idempotency_key=true&replayed=false')).toEqual(['POST /v1/onboardings 201']);
    // "No POST /v1/onboardings without an Idempotency-Key": one did go out, and verify names it.
    const keyless = await verify(h, { matcher: { method: 'POST', path: '/v1/onboardings', has_idempotency_key: false }, expected: { exactly: 0 } });
    expect(keyless).toMatchObject({ ok: false, count: 1 });
    expect(keyless.nearest.map((n) => [n.request.status, n.differs])).toEqual([[422, []]]);
    const other = await verify(h, { matcher: { idempotency_key: 'k-2' }, expected: { at_least: 1 } });
    expect(other.nearest[0]!.differs).toEqual(['idempotency_key']);
    expect((await h.http().get('/_emulator/requests?replayed=maybe')).status).toBe(422);
  });

  it('refuses a filter it cannot read with a 422', async () => {
    const h = harness();
    expectError(await h.http().get('/_emulator/requests?status=abc'), 422, 'invalid_request', 'parameter_invalid');
    expect((await h.http().get('/_emulator/requests?since=yesterday')).status).toBe(422);
    expect((await h.http().get('/_emulator/requests?method=FETCH')).status).toBe(422);
    expect((await h.http().get('/_emulator/requests?colour=red')).status).toBe(422);
  });

  it('pages newest first with limit and starting_after', async () => {
    const h = harness();
    await traffic(h);
    const all = (await list(h)).data.map((e) => e.id);
    const one = await list(h, '?limit=2');
    expect(one.data.map((e) => e.id)).toEqual(all.slice(0, 2));
    expect(one).toMatchObject({ has_more: true, next_cursor: all[1], total: 5 });
    const two = await list(h, `?limit=2&starting_after=${one.next_cursor}`);
    expect(two.data.map((e) => e.id)).toEqual(all.slice(2, 4));
    const three = await list(h, `?limit=2&starting_after=${two.next_cursor}`);
    expect(three.data.map((e) => e.id)).toEqual(all.slice(4));
    expect(three.has_more).toBe(false);
    expectError(await h.http().get('/_emulator/requests?starting_after=jrn_999999'), 422, 'invalid_request', 'cursor_invalid');
  });

  it(`keeps the newest ${JOURNAL_LIMIT} requests and counts the ones it dropped`, async () => {
    const h = harness();
    for (let i = 0; i < JOURNAL_LIMIT + 3; i++) await h.as(KEYS.owner).get(`/v1/onboardings?limit=${(i % 100) + 1}`).expect(200);
    const page = await list(h, '?limit=1');
    expect(page.total).toBe(JOURNAL_LIMIT);
    expect(page.dropped).toBe(3);
    expect(page.data[0]!.query).toEqual({ limit: String(((JOURNAL_LIMIT + 2) % 100) + 1) });
    const oldest = await list(h, `?limit=1&starting_after=${(await list(h, `?limit=${JOURNAL_LIMIT - 1}`)).next_cursor}`);
    expect(oldest.data[0]!.query).toEqual({ limit: '4' });
  }, 60_000);

  it('verifies a count, and when it is not met lists the nearest requests and the fields they differ in', async () => {
    const h = harness();
    await traffic(h);
    const created = { method: 'POST', path: '/v1/onboardings', status: 201, body_includes: { employee: { first_name: 'Lotte' } } };
    expect(await verify(h, { matcher: created, expected: { exactly: 2 } })).toEqual({ ok: true, count: 2, expected: { exactly: 2 }, nearest: [] });
    expect((await verify(h, { matcher: { path: '/v1/*' }, expected: { at_least: 5 } })).ok).toBe(true);

    const wrong = await verify(h, { matcher: { ...created, body_includes: { employee: { first_name: 'Sem' } } }, expected: { at_least: 1 } });
    expect(wrong).toMatchObject({ ok: false, count: 0, expected: { at_least: 1 } });
    expect(wrong.nearest).toHaveLength(3);
    expect(wrong.nearest.map((n) => n.differs)).toEqual([['body_includes'], ['body_includes'], ['status', 'body_includes']]);
    expect(wrong.nearest[0]!.request.replayed).toBe(true);

    const tooMany = await verify(h, { matcher: created, expected: { at_most: 1 } });
    expect(tooMany).toMatchObject({ ok: false, count: 2 });
    expect(tooMany.nearest.map((n) => n.differs)).toEqual([[], []]);
  });

  it('refuses a verification it cannot read with a 422', async () => {
    const h = harness();
    const bad = [{ matcher: {} }, { matcher: {}, expected: { exactly: 1, at_most: 2 } }, { matcher: { colour: 'red' }, expected: { exactly: 1 } }, { matcher: { status: '200' }, expected: { exactly: 1 } }];
    for (const body of bad) expect((await h.http().post('/_emulator/requests/verify').send(body)).status, JSON.stringify(body)).toBe(422);
  });

  it('is emptied by DELETE, dropped count included, and by a reset', async () => {
    const h = harness();
    await traffic(h);
    expect((await h.http().delete('/_emulator/requests')).body).toEqual({ deleted: 5, dropped: 0 });
    expect(await list(h)).toMatchObject({ data: [], total: 0, dropped: 0 });
    await h.as(KEYS.owner).get('/v1/onboardings').expect(200);
    expect((await list(h)).total).toBe(1);
    await h.http().post('/_emulator/reset').expect(200);
    expect((await list(h)).total).toBe(0);
  });

  it('belongs to one workspace', async () => {
    const h = harness();
    const other = (await h.http().post('/_emulator/workspaces').send({})).body as { id: string; keys: { key: string }[] };
    const key = other.keys[0]!.key;
    await h.as(key).get('/v1/onboardings').expect(200);
    await traffic(h);
    const theirs = (await h.http().get(`/_emulator/workspaces/${other.id}/requests`)).body as Page;
    expect(theirs.data.map((e) => e.path)).toEqual(['/v1/onboardings']);
    expect((await h.http().get('/_emulator/requests').set('Authorization', `Bearer ${key}`)).body.total).toBe(1);
    expect((await list(h)).total).toBe(5);
    await h.http().delete(`/_emulator/workspaces/${other.id}/requests`).expect(200);
    expect((await list(h)).total).toBe(5);
  });

  it('travels in a snapshot, without the measured durations', async () => {
    const h = harness();
    await traffic(h);
    const before = await list(h);
    const snapshot = (await h.http().get('/_emulator/snapshot')).body as { requests: { entries: Entry[]; dropped: number; next_seq: number } };
    expect(snapshot.requests.entries).toHaveLength(5);
    expect(snapshot.requests.entries.every((e) => e.duration_ms === null)).toBe(true);
    await h.http().delete('/_emulator/requests').expect(200);
    await h.http().put('/_emulator/snapshot').send(snapshot).expect(200);
    const after = await list(h);
    expect(after.data).toEqual(before.data.map((e) => ({ ...e, duration_ms: null })));
    // The sequence goes on: a new request gets a new id.
    await h.as(KEYS.owner).get('/v1/onboardings').expect(200);
    expect((await list(h, '?limit=1')).data[0]!.id).not.toBe(before.data[0]!.id);

    const { requests: _gone, ...older } = snapshot;
    await h.http().put('/_emulator/snapshot').send(older).expect(200);
    expect((await list(h)).total).toBe(0);
    // A journal longer than this workspace keeps (saved with a larger --journal-limit) is trimmed to it.
    const entries = Array.from({ length: JOURNAL_LIMIT + 2 }, (_, i) => ({ ...snapshot.requests.entries[0]!, id: `jrn_${String(i + 1).padStart(6, '0')}` }));
    const longer = { ...snapshot, requests: { next_seq: JOURNAL_LIMIT + 3, dropped: 4, entries } };
    expect((await h.http().put('/_emulator/snapshot').send(longer)).status).toBe(200);
    const trimmed = await list(h, '?limit=1');
    expect(trimmed).toMatchObject({ total: JOURNAL_LIMIT, dropped: 6, limit: JOURNAL_LIMIT });
    expect(trimmed.data[0]!.id).toBe(`jrn_${String(JOURNAL_LIMIT + 2).padStart(6, '0')}`);
  });
});

describe('a snapshot’s request journal', () => {
  it('is refused when an id repeats or is not below next_seq', async () => {
    const h = harness();
    await traffic(h);
    const snapshot = (await h.http().get('/_emulator/snapshot')).body as { requests: { entries: Entry[]; next_seq: number } };
    const [a, b] = snapshot.requests.entries;
    const twice = { ...snapshot, requests: { ...snapshot.requests, entries: [a, { ...b!, id: a!.id }] } };
    const res = await h.http().put('/_emulator/snapshot').send(twice);
    expectError(res, 422, 'invalid_request', 'snapshot_invalid');
    expect(res.body.error.details).toEqual([{ path: 'requests.entries[1].id', message: `${a!.id} appears twice` }]);
    const behind = { ...snapshot, requests: { ...snapshot.requests, next_seq: 1 } };
    expect((await h.http().put('/_emulator/snapshot').send(behind)).body.error.details[0]).toMatchObject({ path: 'requests.entries[0].id' });
  });
});

describe('a snapshot with a full journal', () => {
  it('is larger than the 1 MB of other bodies and still goes back over HTTP', async () => {
    const h = harness();
    // Refused creates with large metadata: each is journalled with its body, and none adds an onboarding.
    const metadata = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'x'.repeat(500)]));
    for (let i = 0; i < 120; i++) {
      expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody({ metadata }))).status).toBe(422);
    }
    const taken = await h.http().get('/_emulator/snapshot');
    expect(taken.status).toBe(200);
    const text = JSON.stringify(taken.body);
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const put = await h.http().put('/_emulator/snapshot').set('Content-Type', 'application/json').send(text);
    expect(put.status, JSON.stringify(put.body).slice(0, 300)).toBe(200);
    expect((await list(h)).total).toBe(120);
    // Other bodies keep their limit.
    const big = await h.as(KEYS.owner).post('/v1/onboardings').set('Content-Type', 'application/json').send(`{"x":"${'y'.repeat(1024 * 1024)}"}`);
    expect(big.status).toBe(413);
  });
});

describe('--journal-limit (journalLimit)', () => {
  it('says the limit in every list: 1000 by default', async () => {
    const h = harness();
    await traffic(h);
    expect(await list(h)).toMatchObject({ total: 5, dropped: 0, limit: JOURNAL_LIMIT });
  });

  it('0 turns the journal off: the HTTP edge records nothing, lists are empty and a verification counts 0', async () => {
    const h = harness({ journalLimit: 0 });
    const record = vi.spyOn(RequestJournal.prototype, 'record');
    try {
      await traffic(h);
      expect(record).not.toHaveBeenCalled();
    } finally {
      record.mockRestore();
    }
    expect(await list(h)).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null, total: 0, dropped: 0, limit: 0 });
    const created = { method: 'POST', path: '/v1/onboardings' };
    expect(await verify(h, { matcher: created, expected: { exactly: 0 } })).toEqual({ ok: true, count: 0, expected: { exactly: 0 }, nearest: [] });
    expect(await verify(h, { matcher: created, expected: { at_least: 1 } })).toEqual({ ok: false, count: 0, expected: { at_least: 1 }, nearest: [] });
    expect((await h.http().delete('/_emulator/requests')).body).toEqual({ deleted: 0, dropped: 0 });
    // Every workspace of the emulator: a new one and a reset one alike.
    const other = (await h.http().post('/_emulator/workspaces').send({})).body as { id: string; keys: { key: string }[] };
    await h.as(other.keys[0]!.key).get('/v1/organization').expect(200);
    expect((await h.http().get(`/_emulator/workspaces/${other.id}/requests`)).body).toMatchObject({ total: 0, limit: 0 });
    await h.http().post('/_emulator/reset').expect(200);
    await h.as(KEYS.owner).get('/v1/onboardings').expect(200);
    expect(await list(h)).toMatchObject({ total: 0, limit: 0 });
  });

  it('a small limit keeps the newest requests and counts the ones it dropped', async () => {
    const h = harness({ journalLimit: 3 });
    const id = await traffic(h);
    const page = await list(h);
    expect(page).toMatchObject({ total: 3, dropped: 2, limit: 3 });
    expect(page.data.map((e) => [e.method, e.path, e.status])).toEqual([
      ['POST', '/v1/onboardings', 422],
      ['GET', '/v1/onboardings', 200],
      ['GET', `/v1/onboardings/${id}`, 200],
    ]);
    expect(page.data.map((e) => e.id)).toEqual(['jrn_000005', 'jrn_000004', 'jrn_000003']);
    await h.as(KEYS.owner).get('/v1/organization').expect(200);
    expect(await list(h, '?limit=1')).toMatchObject({ total: 3, dropped: 3, data: [{ id: 'jrn_000006', path: '/v1/organization' }] });
  });

  it('a snapshot restores under any limit: trimmed to it, the oldest dropped and counted', async () => {
    const full = harness();
    await traffic(full);
    const snapshot = (await full.http().get('/_emulator/snapshot')).body as { requests: { entries: Entry[] } };
    expect(snapshot.requests.entries).toHaveLength(5);

    const small = harness({ journalLimit: 2 });
    await small.http().put('/_emulator/snapshot').send(snapshot).expect(200);
    const page = await list(small);
    expect(page).toMatchObject({ total: 2, dropped: 3, limit: 2 });
    expect(page.data.map((e) => e.id)).toEqual(['jrn_000005', 'jrn_000004']);
    // Saved again, it holds what it keeps; a larger limit takes it back as it is.
    const again = (await small.http().get('/_emulator/snapshot')).body as { requests: { entries: Entry[]; dropped: number } };
    expect(again.requests).toMatchObject({ dropped: 3, entries: [{ id: 'jrn_000004' }, { id: 'jrn_000005' }] });
    await full.http().put('/_emulator/snapshot').send(again).expect(200);
    expect(await list(full)).toMatchObject({ total: 2, dropped: 3, limit: JOURNAL_LIMIT });

    const off = harness({ journalLimit: 0 });
    await off.http().put('/_emulator/snapshot').send(snapshot).expect(200);
    expect(await list(off)).toMatchObject({ data: [], total: 0, dropped: 5, limit: 0 });
    await off.as(KEYS.owner).get('/v1/onboardings').expect(200);
    expect(await list(off)).toMatchObject({ total: 0, dropped: 5 });
  });

  it('a verification may count past 1000 when the journal keeps more', async () => {
    const h = harness({ journalLimit: 5000 });
    expect(await verify(h, { matcher: {}, expected: { at_most: 5000 } })).toMatchObject({ ok: true, count: 0 });
    expectError(await h.http().post('/_emulator/requests/verify').send({ matcher: {}, expected: { at_most: 100_001 } }), 422, 'invalid_request', 'parameter_invalid');
  });

  it.each([-1, 1.5, 100_001, Number.NaN])('refuses journalLimit %s in process, with the range', (limit) => {
    expect(() => new Emulator({ journalLimit: limit })).toThrow(`journalLimit: not a valid journal limit (0 to 100000): ${limit}`);
  });
});
