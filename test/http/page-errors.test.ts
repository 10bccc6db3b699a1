import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';
import { submitted } from '../support/journey.js';

/**
 * The pages a person opens (hosted_url, review_url, embed.js and the review's files) answer
 * every error as a page: HTML in the page shell with its Content-Security-Policy and a message
 * in plain words, never the /v1 error envelope and never a stack trace. /v1 and /_emulator keep
 * the envelope. The files carry a policy too.
 */
const RESOURCE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

type Res = { status: number; text: string; headers: Record<string, string> };

/** A person's error page: HTML, the shell's strict policy, a heading and an alert, nothing of the envelope or a stack. */
function expectPage(res: Res, status: number, message: string | RegExp, framing = "'none'") {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = res.headers['content-security-policy']!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain(`frame-ancestors ${framing}`);
  expect(csp).not.toContain('script-src');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.text).toMatch(/^<!doctype html>/);
  expect(res.text).toContain('role="alert"');
  expect(res.text).toMatch(message);
  expect(res.text).not.toContain('"error"');
  expect(res.text).not.toMatch(/\bat .+\.(?:js|ts):\d+/); // no stack frame
}

async function hostedPath(h: Harness) {
  const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
  expect(res.status).toBe(201);
  return new URL(res.body.hosted_url as string).pathname;
}

/** Eva Jansen's onboarding in review, a review session opened once: its path and the form's action token. */
async function openedReview(h: Harness) {
  submitted(h.emulator.defaultWorkspace, 'onb_demo_jansen');
  const res = await h.as(KEYS.manager).post('/v1/onboardings/onb_demo_jansen/review-sessions', { reviewer: { email: 'mark.manager@acme.test', external_id: 'u1' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const path = new URL(res.body.review_url as string).pathname;
  const page = await h.http().get(path);
  const actionToken = /name="action_token" value="([^"]+)"/.exec(page.text)![1]!;
  return { path, actionToken };
}

describe('a Content-Security-Policy on every answer of the page paths', () => {
  it.each(['/embed.js', '/embed/review-page.js', '/embed/review-page.css'])('%s carries the restrictive policy of files', async (path) => {
    const res = await harness().http().get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(RESOURCE_POLICY);
  });

  it('OPTIONS and the redirect after a form carry it too', async () => {
    const h = harness();
    const path = await hostedPath(h);
    const options = await h.http().options(path);
    expect(options.status).toBe(204);
    expect(options.headers['content-security-policy']).toBe(RESOURCE_POLICY);
    const renew = await h.http().post(`${path}/code/new`);
    expect(renew.status).toBe(303);
    expect(renew.headers['content-security-policy']).toBe(RESOURCE_POLICY);
  });
});

describe('a wrong method or an unknown path under the page paths', () => {
  it('is a 405 page with Allow on the hosted pages, the review form routes and embed.js', async () => {
    const h = harness();
    const path = await hostedPath(h);
    const hosted = await h.http().delete(path);
    expectPage(hosted, 405, 'This page cannot be used this way', '*');
    expect(hosted.headers.allow).toBe('GET, HEAD, OPTIONS');
    const review = await h.http().get('/review/abc/approvals');
    expectPage(review, 405, 'This page cannot be used this way', '*');
    expect(review.headers.allow).toBe('POST, OPTIONS');
    const embed = await h.http().post('/embed.js');
    expectPage(embed, 405, 'This page cannot be used this way');
    expect(embed.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it.each(['/hosted/abc/nope', '/review/abc/nope/deeper', '/embed/nope.js'])('%s is a 404 page', async (path) => {
    expectPage(await harness().http().get(path), 404, 'There is no page at this address', path.startsWith('/embed/') ? "'none'" : '*');
  });

  it('leaves /v1 and /_emulator in the envelope', async () => {
    const h = harness();
    const v1 = await h.as(KEYS.owner).get('/v1/nope');
    expect(v1.status).toBe(404);
    expect(envelope(v1).code).toBe('route_not_found');
    const control = await h.http().delete('/_emulator/clock');
    expect(control.status).toBe(405);
    expect(envelope(control).code).toBe('method_not_allowed');
  });
});

describe('a request Express cannot read', () => {
  it('a path with broken percent-encoding is a 400 page; /v1 keeps request_malformed in the envelope', async () => {
    const h = harness();
    expectPage(await h.http().get('/hosted/%E0%A4%A'), 400, 'This address could not be read', '*');
    expectPage(await h.http().post('/review/%ZZ/sign-in').type('form').send({ user_id: 'usr_acme_mark' }), 400, 'This address could not be read', '*');
    const v1 = await h.as(KEYS.owner).get('/v1/onboardings/%E0%A4%A');
    expect(v1.status).toBe(400);
    expect(envelope(v1)).toMatchObject({ code: 'request_malformed', message: 'The request could not be read: check the URL encoding of the path.' });
  });

  it('a review form over 16 kB is a 413 page in the review frame (not "check the URL encoding"), and changes nothing', async () => {
    const h = harness();
    await h.http().patch('/_emulator/organizations/org_acme').send({ allowed_origins: ['app.acme.test'] });
    const { path, actionToken } = await openedReview(h);
    const before = h.storeJson();
    const res = await h.http().post(`${path}/return`).type('form').send({ action_token: actionToken, to: 'employee', reason: 'x'.repeat(17 * 1024) });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self' app.acme.test:*");
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('The form is larger than 16 kB and was not read');
    expect(res.text).toContain('keep the reason to 1000 characters');
    expect(res.text).not.toContain('URL encoding');
    expect(h.storeJson()).toBe(before);
    // The same page still works afterwards.
    expect((await h.http().post(`${path}/sign-in`).type('form').send({ action_token: actionToken, user_id: 'usr_acme_mark' })).status).toBe(200);
  });

  it('a review form with too many fields is a 413 page; an unknown link is still the 404 page', async () => {
    const h = harness();
    const { path, actionToken } = await openedReview(h);
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x']));
    const res = await h.http().post(`${path}/sign-in`).type('form').send({ action_token: actionToken, ...fields });
    expect(res.status).toBe(413);
    expect(res.text).toContain('more fields than the review page sends');
    const unknown = await h.http().post('/review/nope/return').type('form').send({ reason: 'x'.repeat(17 * 1024) });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Review link not found');
  });
});

describe('a form the one form reader cannot read', () => {
  it('a broken multipart body is a 400 page that says the form could not be read, not that the address is wrong', async () => {
    const h = harness();
    const path = await hostedPath(h);
    const before = h.storeJson();
    const res = await h.http().post(`${path}/code`).set('Content-Type', 'multipart/form-data; boundary=xyz').send('--xyz\r\nnot a part header\r\n');
    // On the link's page, framed where the employer's allowed_origins admit.
    expectPage(res, 400, /The form could not be read/, "'self' app.acme.test:* *.acme.test:*");
    expect(res.text).not.toContain('address');
    expect(h.storeJson()).toBe(before);
  });

  it('a review form sent as JSON is a 415 page in the session\'s frame', async () => {
    const h = harness();
    const { path, actionToken } = await openedReview(h);
    const res = await h.http().post(`${path}/sign-in`).send({ action_token: actionToken, user_id: 'usr_acme_mark' });
    expect(res.status).toBe(415);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.text).toContain('The form was not sent');
    expect(res.text).toContain('Nothing was changed.');
  });
});

describe('an unexpected error on a page', () => {
  it('is a 500 page without the error or a stack trace, and is logged', async () => {
    const logger = { isLevelEnabled: () => false, error: vi.fn() } as unknown as Logger;
    const h = harness({}, { logger });
    const path = await hostedPath(h);
    vi.spyOn(h.emulator, 'workspaces').mockImplementation(() => {
      throw new Error('boom <secret>');
    });
    for (const res of [await h.http().get(path), await h.http().post('/review/abc/sign-in').type('form').send({})]) {
      expect(res.text).not.toContain('boom');
      expect(res.text).not.toContain('secret');
    }
    expectPage(await h.http().get(path), 500, 'because of an error in the emulator', '*');
    expectPage(await h.http().post('/review/abc/return').type('form').send({}), 500, 'because of an error in the emulator', '*');
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'unexpected error');
  });
});
