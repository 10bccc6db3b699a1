import { describe, expect, it } from 'vitest';
import { frameAncestors } from '../../src/pages/framing.js';
import { cancelRecord } from '../../src/resources/onboardings/onboardings.service.js';
import { returnForCorrection } from '../../src/resources/onboardings/onboardings.lifecycle.js';
import type { Organization } from '../../src/resources/organizations/organizations.model.js';
import { createBody, envelope, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { approved, submitted } from '../support/journey.js';

const EMPLOYER_FIXTURE = 'onb_demo_jansen'; // Eva Jansen, created by hrs_test_acme_owner
const PARTNER_FIXTURE = 'onb_demo_partner'; // Noah Bakker, created by hrs_test_hrsoft for org_acme
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const reviewer = (overrides: Record<string, unknown> = {}) => ({
  reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark Manager', ...overrides },
});
const path = (id: string) => `/v1/onboardings/${id}/review-sessions`;

/** A harness with the employer's fixture onboarding in review. */
function inReview() {
  const h = harness();
  submitted(h.emulator.defaultWorkspace, EMPLOYER_FIXTURE);
  return h;
}

async function session(h: Harness, body: object = reviewer(), key: string = KEYS.manager, id = EMPLOYER_FIXTURE) {
  const res = await h.as(key).post(path(id), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; review_url: string; expires_at: string; reviewer: { linked: boolean } };
}

/** Opens the page behind review_url. */
const open = (h: Harness, reviewUrl: string) => h.http().get(new URL(reviewUrl).pathname);

/** Opens the page and signs in (the emulated sign-in that links the reviewer); answers the review page. */
async function openAndSignIn(h: Harness, reviewUrl: string, userId = 'usr_acme_mark') {
  const page = await open(h, reviewUrl);
  expect(page.status, page.text).toBe(200);
  const actionToken = /name="action_token" value="([^"]+)"/.exec(page.text)?.[1];
  return h.http().post(`${new URL(reviewUrl).pathname}/sign-in`).type('form').send({ action_token: actionToken, user_id: userId });
}

describe('POST /v1/onboardings/{id}/review-sessions', () => {
  it('creates a ReviewSession: 201, review_url on the request host, valid 15 minutes', async () => {
    const h = inReview();
    const res = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), reviewer());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expires_at', 'id', 'onboarding_id', 'review_url', 'reviewer']);
    expect(res.body).toMatchObject({
      onboarding_id: EMPLOYER_FIXTURE,
      expires_at: '2026-10-05T09:15:00.000Z',
      reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42', name: 'Mark Manager', linked: false },
    });
    expect(res.body.id).toMatch(/^rvs_[A-Za-z0-9]{20}$/);
    expect(res.body.review_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/review\/[A-Za-z0-9]{32}$/);
    const stored = h.emulator.defaultWorkspace.store.reviewSessions.get(res.body.id)!;
    expect(stored).toMatchObject({ onboarding_id: EMPLOYER_FIXTURE, client_id: 'org_acme', created_at: FROZEN_START, opened_at: null });
  });

  it('answers name as an empty string (the spec types it a string, never null) when it is left out, and gives every session its own link', async () => {
    const h = inReview();
    const a = await session(h, { reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42' } });
    const b = await session(h);
    expect(a.reviewer).toEqual({ email: 'mark.manager@acme.test', external_id: 'user-42', name: '', linked: false });
    expect(a.id).not.toBe(b.id);
    expect(a.review_url).not.toBe(b.review_url);
  });

  it.each([
    ['no body', undefined, 'parameter_missing', 'reviewer'],
    ['reviewer not an object', { reviewer: 'mark' }, 'parameter_invalid', 'reviewer'],
    ['email missing', { reviewer: { external_id: 'x' } }, 'parameter_missing', 'reviewer.email'],
    ['email invalid', reviewer({ email: 'not-an-email' }), 'parameter_invalid', 'reviewer.email'],
    ['email not a string', reviewer({ email: 42 }), 'parameter_invalid', 'reviewer.email'],
    ['external_id missing', { reviewer: { email: 'a@b.test' } }, 'parameter_missing', 'reviewer.external_id'],
    ['external_id empty', reviewer({ external_id: '' }), 'parameter_invalid', 'reviewer.external_id'],
    ['external_id of 201 characters', reviewer({ external_id: 'x'.repeat(201) }), 'parameter_invalid', 'reviewer.external_id'],
    ['external_id a number', reviewer({ external_id: 42 }), 'parameter_invalid', 'reviewer.external_id'],
    ['name of 121 characters', reviewer({ name: 'n'.repeat(121) }), 'parameter_invalid', 'reviewer.name'],
    ['name empty', reviewer({ name: '' }), 'parameter_invalid', 'reviewer.name'],
    ['name null', reviewer({ name: null }), 'parameter_invalid', 'reviewer.name'],
    ['unknown reviewer field', reviewer({ role: 'manager' }), 'parameter_unknown', 'reviewer.role'],
    ['unknown top-level field', { ...reviewer(), onboarding_id: EMPLOYER_FIXTURE }, 'parameter_unknown', 'onboarding_id'],
  ])('refuses %s with 422 %s and writes nothing', async (_name, body, code, param) => {
    const h = inReview();
    const before = h.storeJson();
    const res = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), body);
    expect(res.status).toBe(422);
    expect(envelope(res)).toMatchObject({ type: 'invalid_request', code, param });
    expect(h.storeJson()).toBe(before);
  });

  it('accepts external_id of 200 characters and name of 120', async () => {
    const h = inReview();
    const s = await session(h, reviewer({ external_id: 'x'.repeat(200), name: 'n'.repeat(120) }));
    expect(s.reviewer).toMatchObject({ external_id: 'x'.repeat(200), name: 'n'.repeat(120) });
  });

  it('refuses onboardings that are not in review, each with its own code', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const pending = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), reviewer());
    expect(pending.status).toBe(409);
    expect(envelope(pending)).toMatchObject({ type: 'conflict', code: 'onboarding_not_in_review' });
    expect(envelope(pending).message).toContain('pending_employee');

    approved(ws, EMPLOYER_FIXTURE);
    const ready = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), reviewer());
    expect(envelope(ready)).toMatchObject({ code: 'onboarding_not_in_review' });
    expect(envelope(ready).message).toContain('contract_ready');

    returnForCorrection(ws, submitted(ws, PARTNER_FIXTURE), 'manager');
    const returned = await h.as(KEYS.manager).post(path(PARTNER_FIXTURE), reviewer());
    expect(returned.status).toBe(409);
    expect(envelope(returned).code).toBe('returned_to_manager');

    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    cancelRecord(ws, ws.store.onboardings.get(created.body.id)!);
    const cancelled = await h.as(KEYS.manager).post(path(created.body.id), reviewer());
    expect(envelope(cancelled).code).toBe('onboarding_cancelled');
    expect(ws.store.reviewSessions.size).toBe(0);
  });

  it('answers 404 for an unknown onboarding or one of the other environment', async () => {
    const h = inReview();
    for (const [key, id] of [[KEYS.manager, 'onb_nope'], [KEYS.live, EMPLOYER_FIXTURE]] as const) {
      const res = await h.as(key).post(path(id), reviewer());
      expect(res.status).toBe(404);
      expect(envelope(res).code).toBe('resource_not_found');
    }
  });

  it('replays the same session for the same Idempotency-Key', async () => {
    const h = inReview();
    const first = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), reviewer()).set('Idempotency-Key', 'rv-1');
    const again = await h.as(KEYS.manager).post(path(EMPLOYER_FIXTURE), reviewer()).set('Idempotency-Key', 'rv-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(h.emulator.defaultWorkspace.store.reviewSessions.size).toBe(1);
  });
});

describe('scope reviews:embed', () => {
  it('is refused to keys without it (403 scope_missing)', async () => {
    const h = inReview();
    for (const key of [KEYS.noscopes, KEYS.readonly, KEYS.recruiter]) {
      const res = await h.as(key).post(path(EMPLOYER_FIXTURE), reviewer());
      expect(res.status, key).toBe(403);
      expect(envelope(res)).toMatchObject({ type: 'permission_error', code: 'scope_missing' });
    }
  });

  it("a partner needs the employer's grant: hrs_test_payflow lacks it on the key, HR Soft at Bakker was not granted it", async () => {
    const h = inReview();
    const payflow = await h.as(KEYS.payflow).post(path(EMPLOYER_FIXTURE), reviewer());
    expect(payflow.status).toBe(403);
    // Payflow's key itself has no reviews:embed (and org_acme did not grant it either).
    expect(envelope(payflow).code).toBe('scope_missing');
    const bakker = await h.asPartnerFor(KEYS.hrsoft, 'org_bakker').post(path(PARTNER_FIXTURE), reviewer());
    expect(bakker.status).toBe(403);
    expect(envelope(bakker).code).toBe('scope_not_granted');
  });

  it('a partner granted reviews:embed makes sessions for its own onboardings only', async () => {
    const h = inReview();
    submitted(h.emulator.defaultWorkspace, PARTNER_FIXTURE);
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    const own = await partner.post(path(PARTNER_FIXTURE), reviewer());
    expect(own.status).toBe(201);
    expect(h.emulator.defaultWorkspace.store.reviewSessions.get(own.body.id)).toMatchObject({ client_id: 'org_hrsoft', partner_id: 'org_hrsoft' });
    const employers = await partner.post(path(EMPLOYER_FIXTURE), reviewer());
    expect(employers.status).toBe(404);
  });
});

describe('the review page at review_url', () => {
  it('opens once: 200 HTML (the sign-in) naming the onboarding and the reviewer, then 410 already used', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const s = await session(h);
    ws.clock.advance(MINUTE);
    const page = await open(h, s.review_url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain(EMPLOYER_FIXTURE);
    expect(page.text).toContain('Acme Retail B.V.');
    expect(page.text).toContain('Mark Manager');
    expect(page.text).toContain('user-42');
    // No personal data of the employee before the reviewer signed in (test/http/review-page.test.ts has the review itself).
    for (const secret of ['Eva', 'Jansen', 'eva.jansen@example.test', '12345678', 'Sales associate', '1525']) expect(page.text).not.toContain(secret);
    expect(ws.store.reviewSessions.get(s.id)!.opened_at).toBe('2026-10-05T09:01:00.000Z');

    const again = await open(h, s.review_url);
    expect(again.status).toBe(410);
    expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(again.text).toContain('already used');
    expect(ws.store.reviewSessions.get(s.id)!.opened_at).toBe('2026-10-05T09:01:00.000Z');
  });

  it('sends frame-ancestors with the allowed_origins, and no-store, no-referrer', async () => {
    const h = inReview();
    const page = await open(h, (await session(h)).review_url);
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("frame-ancestors 'self' app.acme.test:* *.acme.test:*");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['request-id']).toMatch(/^req_/);
  });

  it("admits the partner's allowed_origins too for a partner's session", async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, PARTNER_FIXTURE);
    const res = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post(path(PARTNER_FIXTURE), reviewer());
    const page = await open(h, res.body.review_url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('HR Soft (API partner) asks you to review');
    expect(page.text).not.toContain('Noah');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self' app.acme.test:* *.acme.test:* app.hrsoft.test:*");
  });

  it('expires 15 minutes after creation on the workspace clock (410 expired)', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const early = await session(h);
    const late = await session(h, reviewer({ external_id: 'user-43' }));
    ws.clock.advance(15 * MINUTE - 1);
    expect((await open(h, early.review_url)).status).toBe(200);
    ws.clock.advance(1);
    const expired = await open(h, late.review_url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
    expect(ws.store.reviewSessions.get(late.id)!.opened_at).toBeNull();
    // An expired link links nobody.
    expect((await session(h, reviewer({ external_id: 'user-43' }))).reviewer.linked).toBe(false);
  });

  it('says already used rather than expired for a link opened before it expired', async () => {
    const h = inReview();
    const s = await session(h);
    expect((await open(h, s.review_url)).status).toBe(200);
    h.emulator.defaultWorkspace.clock.advance(20 * MINUTE);
    expect((await open(h, s.review_url)).text).toContain('already used');
  });

  it('answers 404 HTML for an unknown link, and a 405 HTML page (not the envelope) for other methods', async () => {
    const h = inReview();
    const res = await h.http().get('/review/NoSuchTokenNoSuchTokenNoSuchToke');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('not found');
    const post = await h.http().post('/review/whatever');
    expect(post.status).toBe(405);
    expect(post.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(post.text).toContain('This page cannot be used this way');
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('does not use up the opening on HEAD', async () => {
    const h = inReview();
    const s = await session(h);
    const head = await h.http().head(new URL(s.review_url).pathname);
    expect(head.status).toBe(200);
    expect(h.emulator.defaultWorkspace.store.reviewSessions.get(s.id)!.opened_at).toBeNull();
    expect((await open(h, s.review_url)).status).toBe(200);
  });

  it('answers 410 without recording when the onboarding left the review', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const s = await session(h);
    cancelRecord(ws, ws.store.onboardings.get(EMPLOYER_FIXTURE)!);
    const page = await open(h, s.review_url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('no longer in review');
    expect(ws.store.reviewSessions.get(s.id)!.opened_at).toBeNull();
    expect(ws.store.reviewerLinks.size).toBe(0);
  });

  it('escapes every name it shows', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody({
      employee: { first_name: '<img src=x onerror=alert(1)>', last_name: 'Doe', email: 'x@example.test' },
    }));
    submitted(ws, created.body.id);
    const s = await session(h, reviewer({ name: '<script>alert("r")</script>', external_id: `"'><b>` }), KEYS.manager, created.body.id);
    const signIn = await open(h, s.review_url);
    expect(signIn.text).toContain('&lt;script&gt;alert(&quot;r&quot;)&lt;/script&gt;');
    const page = await openAndSignIn(h, (await session(h, reviewer({ external_id: 'x' }), KEYS.manager, created.body.id)).review_url);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<script');
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(signIn.text).toContain('&quot;&#39;&gt;&lt;b&gt;');
  });
});

describe('reviewer links: external_id linked for 30 days after the first sign-in', () => {
  it('links at the sign-in (not at the opening), and lapses 30 days later', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const first = await session(h);
    expect(first.reviewer.linked).toBe(false);
    // Not linked before the page was opened, nor by the opening itself.
    expect((await session(h)).reviewer.linked).toBe(false);
    expect((await open(h, first.review_url)).text).toContain('Sign in to review');
    expect(ws.store.reviewerLinks.size).toBe(0);
    expect((await session(h)).reviewer.linked).toBe(false);
    expect((await openAndSignIn(h, (await session(h)).review_url)).text).toContain('now linked');
    expect(ws.store.reviewerLinks.values()).toMatchObject([
      { external_id: 'user-42', organization_id: 'org_acme', client_id: 'org_acme', linked_at: FROZEN_START, expires_at: '2026-11-04T09:00:00.000Z' },
    ]);

    const second = await session(h);
    expect(second.reviewer.linked).toBe(true);
    expect((await session(h, reviewer({ external_id: 'user-99' }))).reviewer.linked).toBe(false);

    // Opening again while linked does not extend the 30 days.
    ws.clock.advance(10 * DAY);
    const third = await session(h);
    const page = await open(h, third.review_url);
    expect(page.text).toContain('opened directly');
    expect(ws.store.reviewerLinks.values()[0]!.expires_at).toBe('2026-11-04T09:00:00.000Z');

    ws.clock.advance(20 * DAY - 1);
    expect((await session(h)).reviewer.linked).toBe(true);
    ws.clock.advance(1);
    const lapsed = await session(h);
    expect(lapsed.reviewer.linked).toBe(false);
    // The page asks to sign in again: linked for another 30 days from now.
    expect((await open(h, lapsed.review_url)).text).toContain('Sign in to review');
    await openAndSignIn(h, (await session(h)).review_url);
    expect((await session(h)).reviewer.linked).toBe(true);
    expect(ws.store.reviewerLinks.values()[0]!.linked_at).toBe('2026-11-04T09:00:00.000Z');
  });

  it("is per client: the same external_id from a partner's product is another user", async () => {
    const h = inReview();
    submitted(h.emulator.defaultWorkspace, PARTNER_FIXTURE);
    await openAndSignIn(h, (await session(h)).review_url);
    const partner = h.asPartnerFor(KEYS.hrsoft, 'org_acme');
    const res = await partner.post(path(PARTNER_FIXTURE), reviewer());
    expect(res.body.reviewer.linked).toBe(false);
    // Any onboarding of the same employer: the employer's own user stays linked.
    expect((await session(h, reviewer(), KEYS.owner, PARTNER_FIXTURE)).reviewer.linked).toBe(true);
  });

  it('the timer queue reports expiries and drops lapsed links when the clock is advanced', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const s = await session(h);
    await openAndSignIn(h, s.review_url);
    const advanced = await h.http().post('/_emulator/clock/advance').send({ by: '31d' });
    expect(advanced.status).toBe(200);
    const fired = (advanced.body.fired as { kind: string }[]).filter((f) => f.kind.startsWith('review'));
    expect(fired).toEqual([
      { kind: 'review_session.expire', due_at: '2026-10-05T09:15:00.000Z', review_session_id: s.id, onboarding_id: EMPLOYER_FIXTURE, opened: true },
      { kind: 'reviewer_link.expire', due_at: '2026-11-04T09:00:00.000Z', reviewer_link_id: JSON.stringify(['test', 'org_acme', 'org_acme', 'user-42']) },
    ]);
    expect(ws.store.reviewerLinks.size).toBe(0);
  });
});

describe('frameAncestors', () => {
  const org = (allowed_origins: string[]) => ({ allowed_origins }) as Organization;

  it('keeps host names, drops scheme, port and path, and leaves out anything else', () => {
    expect(frameAncestors([org(['https://ok.test:8443/path', 'OK.test', '*.wild.test', "bad; script-src 'unsafe-inline'", 'a b', '']), undefined]))
      .toBe("'self' ok.test:* *.wild.test:*");
    expect(frameAncestors([org([])])).toBe("'self'");
  });
});
