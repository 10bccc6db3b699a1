import { describe, expect, it } from 'vitest';
import { JOURNAL_BODY_CAP } from '../../src/core/journal.js';
import { createBody, harness, KEYS } from '../support/harness.js';

/**
 * Large bodies in the request journal: kept as their size only above 64 KB, so a run of big
 * requests no longer fills the process (each 1 MB body cost about 20 MB kept in the journal)
 * or every snapshot and state-file write after it.
 */
describe('the journal and large bodies', () => {
  it('keeps a body up to 64 KB, and above it only its size; the onboarding ids are still read', async () => {
    const h = harness();
    const small = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'small' }));
    expect(small.status).toBe(201);
    const big = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel', { reason: 'x'.repeat(JOURNAL_BODY_CAP + 1) });
    expect(big.status).toBeGreaterThanOrEqual(400);
    const [bigEntry, smallEntry] = (await h.http().get('/_emulator/requests')).body.data as { body: unknown; body_bytes: number | null; onboarding_ids: string[] }[];
    expect(smallEntry).toMatchObject({ body: { reference: 'small' }, body_bytes: JSON.stringify(createBody({ reference: 'small' })).length });
    expect(bigEntry!.body).toBeNull();
    expect(bigEntry!.body_bytes).toBeGreaterThan(JOURNAL_BODY_CAP);
    expect(bigEntry!.onboarding_ids).toEqual(['onb_demo_jansen']);
    const none = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(none.status).toBe(200);
    expect((await h.http().get('/_emulator/requests')).body.data[0]).toMatchObject({ body: null, body_bytes: null });
  });

  it('keeps a body of exactly 64 KB whole, and one of a byte more as its size only', async () => {
    const h = harness();
    const sized = (bytes: number) => `{"reason":"${'x'.repeat(bytes - '{"reason":""}'.length)}"}`;
    for (const bytes of [JOURNAL_BODY_CAP, JOURNAL_BODY_CAP + 1]) {
      const sent = await h.http().post('/v1/onboardings/onb_demo_jansen/cancel').set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json').send(sized(bytes));
      expect(sent.status).toBeGreaterThanOrEqual(400);
    }
    const [over, at] = (await h.http().get('/_emulator/requests')).body.data as { body: { reason: string } | null; body_bytes: number }[];
    expect(at!.body_bytes).toBe(JOURNAL_BODY_CAP);
    expect(at!.body?.reason.length).toBe(JOURNAL_BODY_CAP - '{"reason":""}'.length);
    expect(over).toMatchObject({ body: null, body_bytes: JOURNAL_BODY_CAP + 1 });
  });

  it('keeps a body sent with a byte order mark without it: the journal lists it, and a page of it is its text as sent', async () => {
    const h = harness();
    const sent = '{ "reason" :  "spaced as sent" }';
    const bom = `\uFEFF${sent}`;
    const refused = await h.http().post('/v1/onboardings/onb_demo_jansen/cancel').set('Authorization', `Bearer ${KEYS.owner}`).set('Content-Type', 'application/json').send(bom);
    expect(refused.status).toBe(422);
    const listed = await h.http().get('/_emulator/requests');
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toMatchObject({ body: { reason: 'spaced as sent' }, body_bytes: Buffer.byteLength(bom) });
    expect(listed.text).toContain(`"body":${sent}`);
  });

  it('stays small after 40 bodies of 900 KB: the snapshot holds their sizes, not their content', async () => {
    const h = harness();
    const body = { ...createBody(), notes: 'x'.repeat(900 * 1024) };
    for (let i = 0; i < 40; i++) expect((await h.as(KEYS.owner).post('/v1/onboardings', body)).status).toBe(422);
    const snapshot = await h.http().get('/_emulator/snapshot');
    expect(snapshot.status).toBe(200);
    expect(snapshot.text.length).toBeLessThan(1024 * 1024);
    expect((await h.http().post('/_emulator/requests/verify').send({ matcher: { status: 422 }, expected: { exactly: 40 } })).body.ok).toBe(true);
  });
});
