import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { submitted } from '../support/journey.js';

/** A person reads dates and times on the pages, not ISO instants. */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('dates and times on the employee\'s and the reviewer\'s pages', () => {
  it('the code page says when the code was sent in words, and the date-of-birth hint gives a date, not a format', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(created.status).toBe(201);
    const page = await h.http().get(new URL(created.body.hosted_url as string).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/We sent a one-time code to \S+ on \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} CES?T\./);
    expect(page.text).not.toMatch(ISO_INSTANT);
  });

  it('the review page shows the start date, the submission and the link in words', async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, 'onb_demo_jansen');
    const session = await h.as(KEYS.manager).post('/v1/onboardings/onb_demo_jansen/review-sessions', { reviewer: { email: 'mark.manager@acme.test', external_id: 'u1' } });
    expect(session.status).toBe(201);
    const path = new URL(session.body.review_url as string).pathname;
    const opened = await h.http().get(path);
    const actionToken = /name="action_token" value="([^"]+)"/.exec(opened.text)![1]!;
    const review = await h.http().post(`${path}/sign-in`).type('form').send({ action_token: actionToken, user_id: 'usr_acme_mark' });
    expect(review.status).toBe(200);
    expect(review.text).toMatch(/<dt>Start date<\/dt><dd>\d{1,2} [A-Z][a-z]+ \d{4}<\/dd>/);
    expect(review.text).toMatch(/<dt>Submitted<\/dt><dd>\d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} CES?T<\/dd>/);
    expect(review.text).toMatch(/later reviews open directly/);
    expect(review.text).not.toMatch(ISO_INSTANT);
  });
});
