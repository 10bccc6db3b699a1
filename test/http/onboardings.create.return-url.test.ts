import { describe, expect, it } from 'vitest';
import { envelope, harness, KEYS } from '../support/harness.js';
import { withOptions, expectRefused, expectCreated } from '../support/onboarding-create.js';

/** POST /v1/onboardings: options.return_url, the address the employee is sent back to. */

describe('POST /v1/onboardings: options.return_url', () => {
  it.each([
    'https://app.acme.test/done',
    'https://app.acme.test/onboarding/done?x=1',
    'https://careers.acme.test/back',
    'https://a.b.acme.test/',
  ])('accepts %s (https on an allowed origin of org_acme)', async (url) => {
    await expectCreated(withOptions({ return_url: url }));
  });

  it.each([
    ['http://app.acme.test/done', /https/],
    ['http://careers.acme.test/done', /https/],
    ['https://evil.test/done', /evil\.test/],
    ['https://acme.test.evil.test/done', /not in allowed_origins/],
    ['https://evilacme.test/done', /not in allowed_origins/],
    ['https://app.hrsoft.test/done', /not in allowed_origins/],
  ] as const)('refuses %s with 422 return_url_not_allowed', async (url, message) => {
    await expectRefused(withOptions({ return_url: url }), { code: 'return_url_not_allowed', param: 'options.return_url', message });
  });

  it("accepts the partner's own origin with the partner key (Service-Organization: org_acme)", async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://app.hrsoft.test/onboarding/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe('pending_employee');
  });

  it("accepts the employer's origin with the partner key", async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://app.acme.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses http on the partner origin with the partner key', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'http://app.hrsoft.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status).toBe(422);
    const err = envelope(res);
    expect(err.code).toBe('return_url_not_allowed');
    expect(err.param).toBe('options.return_url');
    expect(h.storeJson()).toBe(before);
  });

  it('refuses a domain neither the employer nor the partner allows, with the partner key', async () => {
    const h = harness();
    const res = await h
      .as(KEYS.hrsoft)
      .post('/v1/onboardings', withOptions({ return_url: 'https://payflow.test/done' }))
      .set('Service-Organization', 'org_acme');
    expect(res.status).toBe(422);
    expect(envelope(res).code).toBe('return_url_not_allowed');
  });
});
