import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { pathOf, ws, outbox, created, contractSent, signedIn, details } from '../support/hosted-flow.js';

/** Links behind hosted_url: the pages of links that cannot be used, and the base URL links are made with. */

describe('links that cannot be used', () => {
  it('an unknown link is 404 with a page that names nothing', async () => {
    const h = harness();
    for (const path of ['/hosted/nope', '/hosted/nope/contract.pdf']) {
      const res = await h.http().get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('This link does not exist');
      expect(res.text).not.toContain('Acme');
    }
    const post = await h.http().post('/hosted/nope/code').type('form').send({ code: '123456' });
    expect(post.status).toBe(404);
  });

  it('an expired link is 410, and so is a post to it', async () => {
    const h = harness();
    const s = await signedIn(h, { options: { expires_in_hours: 1 } });
    ws(h).clock.advance(2 * 60 * 60 * 1000);
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This link has expired');
    expect(res.text).not.toContain('Lotte');
    const before = h.storeJson();
    expect((await details(h, s)).status).toBe(410);
    expect(h.storeJson()).toBe(before);
  });

  it('a cancelled onboarding is 410 with its own page', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${s.id}/cancel`)).status).toBe(200);
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This onboarding was cancelled');
  });

  it('a finished onboarding is 410 with its own page', async () => {
    const h = harness();
    const s = await signedIn(h);
    await details(h, s);
    contractSent(h, s.id);
    for (const step of ['employee/sign', 'employer-sign', 'payroll/complete']) {
      expect((await h.http().post(`/_emulator/onboardings/${s.id}/${step}`).send({})).status).toBe(200);
    }
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('Your onboarding is finished');
  });

  it('a replaced link is 410 and sends no code', async () => {
    const h = harness();
    const o = await created(h);
    await h.as(KEYS.owner).post(`/v1/onboardings/${o.id}/hosted-link`, {});
    const res = await h.http().get(o.path);
    expect(res.status).toBe(410);
    expect(outbox(h, o.id)).toHaveLength(0);
  });

  it('another method on a page path is a 405 page with Allow, not the envelope', async () => {
    const h = harness();
    const o = await created(h);
    const res = await h.http().delete(o.path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    // Names no organization: any product may show it in its frame.
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(res.text).toContain('This page cannot be used this way');
    expect(res.text).not.toContain('method_not_allowed');
  });
});

describe('the base URL of links', () => {
  it('uses --public-url for hosted_url and the links in mails, and marks the cookie Secure on https', async () => {
    const h = harness({}, { publicUrl: 'https://onboarding.example.test/' });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } }));
    expect(res.body.hosted_url).toMatch(/^https:\/\/onboarding\.example\.test\/hosted\/[A-Za-z0-9]{32}$/);
    const path = pathOf(res.body.hosted_url);
    await h.http().get(path);
    const mails = outbox(h, res.body.id);
    expect(mails.map((m) => m.link)).toEqual([res.body.hosted_url, res.body.hosted_url]);
    const confirm = await h.http().post(`${path}/code`).type('form').send({ code: mails[1]!.code! });
    expect(confirm.headers['set-cookie']![0]).toMatch(/; Secure$/);
    // A new link sent by mail uses it too.
    const renewed = await h.as(KEYS.owner).post(`/v1/onboardings/${res.body.id}/hosted-link`, { send_invitation: true });
    expect(renewed.body.hosted_url).toMatch(/^https:\/\/onboarding\.example\.test\/hosted\//);
    expect(outbox(h, res.body.id).at(-1)).toMatchObject({ kind: 'new_link', link: renewed.body.hosted_url });
  });

  it('without it, uses the scheme and Host of the request', async () => {
    const h = harness({}, { allowedHosts: 'emulator.local' });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Host', 'emulator.local:8080');
    expect(res.body.hosted_url).toMatch(/^http:\/\/emulator\.local:8080\/hosted\//);
    await h.http().get(pathOf(res.body.hosted_url)).set('Host', 'localhost:9999');
    expect(outbox(h, res.body.id)[0]!.link).toMatch(/^http:\/\/localhost:9999\/hosted\//);
  });
});
