import { describe, expect, it } from 'vitest';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';
import { submitted } from '../support/journey.js';

/**
 * One rule for allowed_origins: what the settings PATCH stores is what return_url and the
 * review frame (frame-ancestors, the parent origin) admit, and an entry that reached the
 * store another way (fixtures, a snapshot) means the same to both. An entry with a leading
 * space used to admit the frame while return_url refused it.
 */
const ONB = 'onb_demo_jansen';
const SHOP = 'https://shop.example.com';

const returnUrl = (h: Harness, url: string) => h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { return_url: url } }));

/** Opens a review page of ONB announcing `origin`: its frame-ancestors and the origin it keeps. */
async function reviewFramedBy(h: Harness, origin: string) {
  submitted(h.emulator.defaultWorkspace, ONB);
  const s = await h.as(KEYS.manager).post(`/v1/onboardings/${ONB}/review-sessions`, { reviewer: { email: 'mark.manager@acme.test', external_id: 'user-42' } });
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const page = await h.http().get(new URL(s.body.review_url as string).pathname).query({ origin });
  expect(page.status, page.text).toBe(200);
  return {
    ancestors: /frame-ancestors ([^;]*)/.exec(page.headers['content-security-policy'] as string)![1]!.split(' '),
    parentOrigin: h.emulator.defaultWorkspace.store.reviewSessions.values()[0]!.page!.parent_origin,
  };
}

describe('allowed_origins: one rule for the settings, return_url and the review frame', () => {
  it('PATCH keeps " shop.example.com" as shop.example.com, and both return_url and the review frame admit it', async () => {
    const h = harness();
    const res = await h.http().patch('/_emulator/organizations/org_acme').send({ allowed_origins: [' shop.example.com', 'HTTPS://Portal.Example.com:8443/x', '*.acme.test'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.allowed_origins).toEqual(['shop.example.com', 'portal.example.com', '*.acme.test']);

    const created = await returnUrl(h, `${SHOP}/done`);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const frame = await reviewFramedBy(h, SHOP);
    expect(frame.ancestors).toContain('shop.example.com:*');
    expect(frame.parentOrigin).toBe(SHOP);
  });

  it('an entry with a leading space put in the store directly (as fixtures or a snapshot may) is admitted by both alike', async () => {
    const h = harness();
    const { store } = h.emulator.defaultWorkspace;
    store.organizations.put({ ...store.organizations.get('org_acme')!, allowed_origins: [' shop.example.com'] });

    expect((await returnUrl(h, `${SHOP}/done`)).status).toBe(201);
    const frame = await reviewFramedBy(h, SHOP);
    expect(frame.ancestors).toEqual(["'self'", 'shop.example.com:*']);
    expect(frame.parentOrigin).toBe(SHOP);
  });

  it('refuses an entry that names no host with 422 at its index, changing nothing; such an entry admits neither', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.http().patch('/_emulator/organizations/org_acme').send({ allowed_origins: ['shop.example.com', "x; script-src 'unsafe-inline'"] });
    expect(res.status).toBe(422);
    expect(envelope(res)).toMatchObject({ code: 'parameter_invalid', param: 'allowed_origins[1]' });
    expect(h.storeJson()).toBe(before);

    const { store } = h.emulator.defaultWorkspace;
    store.organizations.put({ ...store.organizations.get('org_acme')!, allowed_origins: ['shop example.com'] });
    expect(envelope(await returnUrl(h, 'https://shop/done')).code).toBe('return_url_not_allowed');
    const frame = await reviewFramedBy(h, 'https://shop');
    expect(frame.ancestors).toEqual(["'self'"]);
    expect(frame.parentOrigin).toBeNull();
  });
});
