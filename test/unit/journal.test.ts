import { describe, expect, it } from 'vitest';
import { RequestJournal, type JournalInput } from '../../src/core/journal.js';
import { maskSecret } from '../../src/core/mask.js';
import { includes, verifyEntries } from '../../src/core/journal.match.js';

const input = (over: Partial<JournalInput> = {}): JournalInput => ({
  at: '2026-10-05T09:00:00.000Z', key: maskSecret('hrs_test_acme_owner'), method: 'GET', path: '/v1/onboardings', query: {},
  headers: { idempotency_key: null, service_version: null, service_organization: null },
  body: null, body_bytes: null, status: 200, error_code: null, replayed: false, answered: true, duration_ms: 1, onboarding_ids: [], ...over,
});

describe('maskSecret', () => {
  it('keeps the prefix and the last 6 characters, and never shows a key whole', () => {
    expect(maskSecret('hrs_test_acme_owner')).toBe('hrs_test_…_owner');
    expect(maskSecret('hrs_live_acme_owner_a1b2c3')).toBe('hrs_live_…a1b2c3');
    expect(maskSecret('hrs_test_acme')).toBe('hrs_test_…');
    expect(maskSecret('hrs_test_abcdefghij')).toBe('hrs_test_…efghij');
    expect(maskSecret('abc')).toBe('…');
    expect(maskSecret('sk_0123456789')).toBe('sk_0…56789');
    for (const key of ['hrs_test_acme', 'abcdefgh', 'hrs_test_acme_owner', 'x'.repeat(40)]) {
      const shown = maskSecret(key).replace('…', '');
      expect(key.length - shown.length).toBeGreaterThanOrEqual(4);
    }
    expect(maskSecret(maskSecret('hrs_test_acme_owner'))).toBe('hrs_test_…_owner');
  });
});

describe('includes', () => {
  it('matches objects by subset, arrays item by item, the rest by equality', () => {
    expect(includes({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true);
    expect(includes({ a: 1 }, { a: '1' })).toBe(false);
    expect(includes({ a: 1 }, { b: undefined })).toBe(false);
    expect(includes({ list: [{ x: 1, y: 2 }] }, { list: [{ x: 1 }] })).toBe(true);
    expect(includes({ list: [1, 2] }, { list: [1] })).toBe(false);
    expect(includes(null, {})).toBe(false);
    expect(includes([1], {})).toBe(false);
    expect(includes(null, null)).toBe(true);
  });
});

describe('RequestJournal', () => {
  it('drops the oldest entries beyond its bound, counts them, and keeps numbering after a clear', () => {
    const journal = new RequestJournal(2);
    for (const path of ['/a', '/b', '/c']) journal.record(input({ path }));
    expect(journal.newestFirst().map((e) => [e.id, e.path])).toEqual([['jrn_000003', '/c'], ['jrn_000002', '/b']]);
    expect(journal.dropped).toBe(1);
    journal.clear();
    expect(journal.dropped).toBe(0);
    expect(journal.record(input()).id).toBe('jrn_000004');
  });

  it('saves without durations and restores what it saved', () => {
    const journal = new RequestJournal();
    journal.record(input({ duration_ms: 12.5 }));
    const saved = journal.save();
    expect(saved.entries[0]!.duration_ms).toBeNull();
    expect(RequestJournal.restore(JSON.parse(JSON.stringify(saved))).save()).toEqual(saved);
    expect(journal.newestFirst()[0]!.duration_ms).toBe(12.5);
  });

  it('verifies exactly, at_least and at_most, naming the nearest requests when the count is off', () => {
    const journal = new RequestJournal();
    journal.record(input({ method: 'POST', status: 201, body: { reference: 'a' } }));
    journal.record(input({ method: 'POST', status: 422, body: { reference: 7 }, error_code: 'parameter_invalid' }));
    journal.record(input());
    const post = { method: 'post', body_includes: { reference: 'a' } };
    expect(verifyEntries(journal.newestFirst(), post, { exactly: 1 })).toMatchObject({ ok: true, count: 1, nearest: [] });
    const short = verifyEntries(journal.newestFirst(), post, { exactly: 2 });
    expect(short.ok).toBe(false);
    expect(short.nearest.map((n) => [n.request.status, n.differs])).toEqual([[422, ['body_includes']], [200, ['method', 'body_includes']]]);
    const over = verifyEntries(journal.newestFirst(), { path: '/v1/*' }, { at_most: 1 });
    expect(over).toMatchObject({ ok: false, count: 3 });
    expect(over.nearest.map((n) => n.differs)).toEqual([[], [], []]);
    expect(verifyEntries(journal.newestFirst(), { since: '2026-10-05T09:00:00.001Z' }, { at_least: 1 }).nearest[0]!.differs).toEqual(['since']);
  });
});

describe('RequestJournal count limit', () => {
  it('keeps exactly its limit without dropping, and drops and counts the oldest from one past it', () => {
    const j = new RequestJournal(3);
    for (let i = 1; i <= 3; i++) j.record(input({ path: `/r${i}` }));
    expect(j.newestFirst().map((e) => e.path)).toEqual(['/r3', '/r2', '/r1']);
    expect(j.dropped).toBe(0);
    j.record(input({ path: '/r4' }));
    expect(j.newestFirst().map((e) => e.path)).toEqual(['/r4', '/r3', '/r2']);
    expect(j.dropped).toBe(1);
  });

  it('reads by number, follows and saves in order after many drops', () => {
    const j = new RequestJournal(3);
    for (let i = 1; i <= 50; i++) j.record(input({ path: `/r${i}` }));
    expect(j.dropped).toBe(47);
    expect(j.follow(49)).toMatchObject({ next: 51, first: 48, entries: [{ path: '/r49' }, { path: '/r50' }] });
    expect(j.follow(1).entries.map((e) => e.path)).toEqual(['/r48', '/r49', '/r50']);
    expect(j.numbered(48)?.path).toBe('/r48');
    expect(j.numbered(47)).toBeUndefined();
    expect(j.saveSince(50)).toMatchObject({ next_seq: 51, dropped: 47, kept: 3, added: [{ id: 'jrn_000050' }] });
    expect(j.save().entries.map((e) => e.id)).toEqual(['jrn_000048', 'jrn_000049', 'jrn_000050']);
  });

  it('with a limit of 0 keeps nothing and counts nothing, yet says what the entry would have been', () => {
    const j = new RequestJournal(0);
    expect(j.enabled).toBe(false);
    expect(j.record(input({ path: '/a', body: { a: 1 } }))).toMatchObject({ id: 'jrn_000001', path: '/a', body: { a: 1 } });
    expect(j.newestFirst()).toEqual([]);
    expect(j.dropped).toBe(0);
    expect(j.save()).toEqual({ next_seq: 1, dropped: 0, entries: [] });
  });

  it('masks what it records once, as it records it: path, query, headers and body', () => {
    const j = new RequestJournal();
    const key = 'hrs_test_acme_owner_secret';
    const entry = j.record(input({ path: `/v1/x/${key}`, query: { k: key }, headers: { idempotency_key: key, service_version: null, service_organization: null }, body: { k: key } }));
    expect(JSON.stringify(j.newestFirst())).not.toContain(key);
    expect(entry).toMatchObject({ path: `/v1/x/${maskSecret(key)}`, query: { k: maskSecret(key) }, headers: { idempotency_key: maskSecret(key) }, body: { k: maskSecret(key) } });
  });
});

describe('RequestJournal body budget', () => {
  it('keeps its order and numbering when entries dropped for the budget leave room to grow into', () => {
    const j = new RequestJournal(10);
    const size = 3 * 1024 * 1024;
    for (let i = 0; i < 4; i++) j.record(input({ path: `/big${i}`, body: { i }, body_bytes: size }));
    expect(j.newestFirst().map((e) => e.path)).toEqual(['/big3', '/big2']);
    for (let i = 0; i < 12; i++) j.record(input({ path: `/small${i}` }));
    const kept = j.newestFirst();
    expect(kept.map((e) => e.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/small${11 - i}`));
    expect(kept.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `jrn_${String(16 - i).padStart(6, '0')}`));
    expect(j.dropped).toBe(6);
  });


  it('keeps bodies adding up to exactly 8 MB, and drops the oldest once one more byte is kept', async () => {
    const { JOURNAL_BODY_BUDGET } = await import('../../src/core/journal.js');
    const j = new RequestJournal(1000);
    const quarter = JOURNAL_BODY_BUDGET / 4;
    for (let i = 0; i < 4; i++) j.record(input({ path: `/q${i}`, body: { i }, body_bytes: quarter }));
    expect(j.newestFirst().length).toBe(4);
    expect(j.dropped).toBe(0);
    j.record(input({ path: '/one', body: 1, body_bytes: 1 }));
    expect(j.newestFirst().map((e) => e.path)).toEqual(['/one', '/q3', '/q2', '/q1']);
    expect(j.dropped).toBe(1);
  });

  it('keeps the newest entry even when its body alone passes the budget', async () => {
    const { JOURNAL_BODY_BUDGET } = await import('../../src/core/journal.js');
    const j = new RequestJournal(10);
    j.record(input({ path: '/small', body: { s: 1 } }));
    j.record(input({ path: '/huge', body: { h: 1 }, body_bytes: JOURNAL_BODY_BUDGET + 1 }));
    expect(j.newestFirst().map((e) => e.path)).toEqual(['/huge']);
    expect(j.dropped).toBe(1);
  });

  it('drops the oldest entries, counted, once the bodies it keeps pass 8 MB, and keeps the newest', async () => {
    const { JOURNAL_BODY_BUDGET } = await import('../../src/core/journal.js');
    const j = new RequestJournal(1000);
    const size = 60 * 1024;
    for (let i = 0; i < 200; i++) j.record(input({ body: { i }, body_bytes: size }));
    const kept = j.newestFirst();
    expect(kept.length).toBe(Math.floor(JOURNAL_BODY_BUDGET / size));
    expect(kept[0]!.body).toEqual({ i: 199 });
    expect(j.dropped).toBe(200 - kept.length);
    // Entries without a kept body cost nothing against it.
    for (let i = 0; i < 500; i++) j.record(input({ body: null, body_bytes: size * 10 }));
    expect(j.newestFirst().length).toBe(kept.length + 500);
    // A restore keeps to the budget too.
    const again = RequestJournal.restore({ next_seq: 1, dropped: 0, entries: Array.from({ length: 300 }, (_, i) => ({ ...input({ body: { i }, body_bytes: size }), id: `jrn_${i}`, object: 'request' as const })) }, 1000);
    expect(again.newestFirst().length).toBe(kept.length);
    expect(again.dropped).toBe(300 - kept.length);
  });
});
