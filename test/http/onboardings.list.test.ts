import { describe, expect, it } from 'vitest';
import { envelope, harness, KEYS, type Harness } from '../support/harness.js';
import { HOUR, EMPLOYER_FIXTURE, PARTNER_FIXTURE, STAFF_FIXTURES, ALL_FIXTURES, partner, createMany, idsOf } from '../support/onboardings-read.js';

/** Listing onboardings (GET /v1/onboardings): the list shape, filters, limit, cursor paging and unknown query parameters. */

describe('GET /v1/onboardings: list shape', () => {
  it('answers a list: object list, data, has_more, next_cursor', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'next_cursor', 'object']);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    expect(idsOf(res)).toEqual(ALL_FIXTURES);
  });

  it('lists newest first', async () => {
    const h = harness();
    const [a, b] = await createMany(h, 2);
    h.emulator.defaultWorkspace.clock.advance(HOUR);
    const [c] = await createMany(h, 1);
    const res = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(res.status).toBe(200);
    const ids = idsOf(res);
    expect(ids.slice(0, 3)).toEqual([c, b, a]);
    expect(ids.slice(3)).toEqual(ALL_FIXTURES);
  });

  it('leaves steps, documents, email, phone and the employment terms out of list items, even for the owner', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual(ALL_FIXTURES);
    for (const item of res.body.data) {
      expect(item).not.toHaveProperty('steps');
      expect(item).not.toHaveProperty('documents');
      expect(Object.keys(item.employee).sort()).toEqual(['first_name', 'id', 'last_name']);
      expect(Object.keys(item.employment).sort()).toEqual(['location_id', 'position', 'start_date']);
      expect(item.object).toBe('onboarding');
      expect(item).toHaveProperty('status');
      expect(item).toHaveProperty('metadata');
      expect(item).toHaveProperty('hosted_link');
    }
  });

  it('includes cancelled onboardings', async () => {
    const h = harness();
    const cancel = await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`);
    expect(cancel.status).toBe(200);
    const res = await h.as(KEYS.owner).get('/v1/onboardings');
    const item = res.body.data.find((o: { id: string }) => o.id === EMPLOYER_FIXTURE);
    expect(item?.status).toBe('cancelled');
  });
});

describe('GET /v1/onboardings: filters', () => {
  it('filters on status', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${EMPLOYER_FIXTURE}/cancel`)).status).toBe(200);
    const cancelled = await h.as(KEYS.owner).get('/v1/onboardings?status=cancelled');
    expect(cancelled.status).toBe(200);
    expect(idsOf(cancelled)).toEqual([EMPLOYER_FIXTURE]);
    const pending = await h.as(KEYS.owner).get('/v1/onboardings?status=pending_employee');
    expect(idsOf(pending)).toEqual([PARTNER_FIXTURE]);
    const completed = await h.as(KEYS.owner).get('/v1/onboardings?status=completed');
    expect(completed.status).toBe(200);
    expect(idsOf(completed)).toEqual(STAFF_FIXTURES);
    expect(completed.body.data.map((o: { status: string }) => o.status)).toEqual(['completed', 'completed']);
    expect(completed.body.has_more).toBe(false);
    const processing = await h.as(KEYS.owner).get('/v1/onboardings?status=processing');
    expect(processing.status).toBe(200);
    expect(processing.body.data).toEqual([]);
    expect(processing.body.has_more).toBe(false);
  });

  it('refuses a status outside the enum (422, param status)', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?status=open');
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.type).toBe('invalid_request');
    expect(err.code).toBe('parameter_invalid');
    expect(err.param).toBe('status');
  });

  it('filters on reference (exact match)', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/onboardings?reference=demo-jansen');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([EMPLOYER_FIXTURE]);
    const none = await h.as(KEYS.owner).get('/v1/onboardings?reference=demo');
    expect(none.body.data).toEqual([]);
  });

  it('filters on reference with characters that need encoding', async () => {
    const h = harness();
    const [id] = await createMany(h, 1, KEYS.owner, () => ({ reference: 'PO #12 & co' }));
    const res = await h.as(KEYS.owner).get(`/v1/onboardings?reference=${encodeURIComponent('PO #12 & co')}`);
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([id]);
  });

  it('filters on updated_since', async () => {
    const h = harness();
    const clock = h.emulator.defaultWorkspace.clock;
    clock.advance(2 * HOUR);
    const since = clock.iso();
    const [fresh] = await createMany(h, 1);
    clock.advance(HOUR);
    const patched = await h.as(KEYS.owner).patch(`/v1/onboardings/${PARTNER_FIXTURE}`, { reference: 'touched' });
    expect(patched.status).toBe(200);
    const res = await h.as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    expect(idsOf(res).sort()).toEqual([fresh, PARTNER_FIXTURE].sort());
    const later = await h.as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent(clock.iso())}`);
    expect(idsOf(later)).toEqual([PARTNER_FIXTURE]);
    const future = new Date(clock.nowMs() + HOUR).toISOString();
    const none = await h.as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent(future)}`);
    expect(none.body.data).toEqual([]);
  });

  it('compares updated_since as an instant, also when it is given with a UTC offset', async () => {
    const h = harness();
    const clock = h.emulator.defaultWorkspace.clock;
    clock.advance(2 * HOUR); // 2026-10-05T11:00:00Z
    const [fresh] = await createMany(h, 1);
    const sameInstant = await h.as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent('2026-10-05T13:00:00+02:00')}`);
    expect(sameInstant.status).toBe(200);
    expect(idsOf(sameInstant)).toEqual([fresh]);
    const secondLater = await h.as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent('2026-10-05T13:00:01+02:00')}`);
    expect(secondLater.body.data).toEqual([]);
  });

  it.each(['yesterday', '2026-10-05', '2026-13-01T00:00:00Z', '1700000000'])('refuses updated_since %j (422, param updated_since)', async (value) => {
    const res = await harness().as(KEYS.owner).get(`/v1/onboardings?updated_since=${encodeURIComponent(value)}`);
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.code).toBe('parameter_invalid');
    expect(err.param).toBe('updated_since');
  });

  it('combines filters', async () => {
    const h = harness();
    await createMany(h, 3, KEYS.owner, (i) => ({ reference: i === 1 ? 'team-x' : `other-${i}` }));
    const res = await h.as(KEYS.owner).get('/v1/onboardings?status=pending_employee&reference=team-x');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].reference).toBe('team-x');
  });
});

describe('GET /v1/onboardings: limit', () => {
  it('returns 25 items by default', async () => {
    const h = harness();
    await createMany(h, 28); // 32 with the four fixtures
    const res = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.has_more).toBe(true);
    expect(res.body.next_cursor).toBe(res.body.data[24].id);
  });

  it('accepts limit 1', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?limit=1');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.has_more).toBe(true);
    expect(typeof res.body.next_cursor).toBe('string');
  });

  it('accepts limit 100 and returns everything when fewer exist', async () => {
    const h = harness();
    await createMany(h, 28); // 32 with the four fixtures
    const res = await h.as(KEYS.owner).get('/v1/onboardings?limit=100');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(32);
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
  });

  it('says has_more false when the page ends exactly at the last item', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?limit=4'); // the four fixtures
    expect(idsOf(res)).toEqual(ALL_FIXTURES);
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
  });

  it.each(['0', '101', 'abc', '-1', '2.5', ''])('refuses limit=%j (422, param limit)', async (value) => {
    const res = await harness().as(KEYS.owner).get(`/v1/onboardings?limit=${value}`);
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.type).toBe('invalid_request');
    expect(err.code).toBe('parameter_invalid');
    expect(err.param).toBe('limit');
  });
});

describe('GET /v1/onboardings: cursor paging', () => {
  async function walk(h: Harness, limit: number, between?: (page: number) => Promise<void>, query = '') {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/v1/onboardings?limit=${limit}${query}${cursor ? `&starting_after=${cursor}` : ''}`;
      const res = await h.as(KEYS.owner).get(path);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...idsOf(res));
      expect(res.body.has_more).toBe(res.body.next_cursor !== null);
      cursor = res.body.next_cursor;
      pages++;
      if (pages > 50) throw new Error('paging does not end');
      if (cursor && between) await between(pages);
    } while (cursor);
    return { seen, pages };
  }

  it('walks all pages with starting_after = next_cursor and sees each item once, newest first', async () => {
    const h = harness();
    await createMany(h, 10); // 14 in all
    const all = idsOf(await h.as(KEYS.owner).get('/v1/onboardings?limit=100'));
    expect(all).toHaveLength(14);
    expect(all.slice(10)).toEqual(ALL_FIXTURES);
    const { seen, pages } = await walk(h, 5);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('sees each item once while new onboardings are created between page fetches', async () => {
    const h = harness();
    await createMany(h, 8); // 12 in all
    const before = idsOf(await h.as(KEYS.owner).get('/v1/onboardings?limit=100'));
    const added: string[] = [];
    const { seen } = await walk(h, 3, async () => {
      added.push(...(await createMany(h, 2)));
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before);
    for (const id of added) expect(seen).not.toContain(id);
    const after = idsOf(await h.as(KEYS.owner).get('/v1/onboardings?limit=100'));
    expect(after).toHaveLength(before.length + added.length);
  });

  it('pages through a filtered list', async () => {
    const h = harness();
    await createMany(h, 7, KEYS.owner, (i) => ({ reference: i % 2 === 0 ? 'even' : 'odd' }));
    const { seen } = await walk(h, 2, undefined, '&reference=even');
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it('refuses an unknown cursor with 422 cursor_invalid', async () => {
    const res = await harness().as(KEYS.owner).get('/v1/onboardings?starting_after=onb_nope');
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.type).toBe('invalid_request');
    expect(err.code).toBe('cursor_invalid');
    expect(err.param).toBe('starting_after');
  });

  it("refuses as a cursor the id of an onboarding the key cannot see (the employer's own, for the partner)", async () => {
    const h = harness();
    const res = await partner(h).get(`/v1/onboardings?starting_after=${EMPLOYER_FIXTURE}`);
    expect(res.status).toBe(422);
    expect(envelope(res).code).toBe('cursor_invalid');
  });
});

describe('GET /v1/onboardings: unknown query parameters', () => {
  it.each(['foo=bar', 'page=2', 'ending_before=onb_demo_jansen', 'statuses=cancelled'])('refuses ?%s with 422 parameter_unknown', async (qs) => {
    const res = await harness().as(KEYS.owner).get(`/v1/onboardings?${qs}`);
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.type).toBe('invalid_request');
    expect(err.code).toBe('parameter_unknown');
    expect(err.param).toBe(qs.split('=')[0]);
  });
});
