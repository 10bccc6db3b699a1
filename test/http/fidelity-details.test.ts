import { describe, expect, it } from 'vitest';
import { createBody, expectError, harness, KEYS } from '../support/harness.js';

/** Small places where the emulator once answered what the real service would not. */

describe('return_url with a wildcard in its host', () => {
  it.each(['https://*.acme.test/x', 'https://*/x', 'https://app.*.acme.test/done'])('refuses %s with 422 return_url_not_allowed and writes nothing', async (url) => {
    const h = harness();
    const before = h.storeJson();
    const err = expectError(await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { return_url: url } })), 422, 'invalid_request', 'return_url_not_allowed', 'options.return_url');
    expect(err.message).toMatch(/not a host name/);
    expect(h.storeJson()).toBe(before);
  });

  it('still accepts a subdomain the wildcard rule of allowed_origins covers', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { return_url: 'https://shop.acme.test/done' } }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('routing is case-sensitive and strict', () => {
  it.each([
    ['GET', '/v1/ONBOARDINGS'],
    ['GET', '/V1/onboardings'],
    ['GET', '/v1/onboardings/'],
    ['GET', '/v1/Onboardings/onb_demo_jansen'],
    ['POST', '/v1/onboardings/onb_demo_jansen/Cancel'],
    ['GET', '/_emulator/CLOCK'],
    ['GET', '/_emulator/clock/'],
  ])('%s %s is 404 route_not_found in the envelope, with or without a key', async (method, path) => {
    const h = harness();
    const withKey = method === 'GET' ? h.as(KEYS.owner).get(path) : h.as(KEYS.owner).post(path);
    const err = expectError(await withKey, 404, 'not_found', 'route_not_found');
    expect(err.message).toContain(path);
    const bare = method === 'GET' ? h.http().get(path) : h.http().post(path);
    expectError(await bare, 404, 'not_found', 'route_not_found');
  });

  it('the exact paths still answer', async () => {
    const h = harness();
    expect((await h.as(KEYS.owner).get('/v1/onboardings')).status).toBe(200);
    expect((await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen')).status).toBe(200);
    expect((await h.http().get('/_emulator/clock')).status).toBe(200);
  });
});

describe('integer query parameters take decimal digits only', () => {
  it.each(['0x10', '1e1', ' 16', '16 ', '+16', '16.0', '0b101', '', '١٦'])('limit=%j is 422 parameter_invalid on limit', async (limit) => {
    const h = harness();
    for (const path of ['/v1/onboardings', '/v1/events', '/v1/employees']) {
      const err = expectError(await h.as(KEYS.owner).get(`${path}?limit=${encodeURIComponent(limit)}`), 422, 'invalid_request', 'parameter_invalid', 'limit');
      expect(err.message).toMatch(/limit/);
    }
  });

  it('limit=16 and limit=016 are read as sixteen', async () => {
    const h = harness();
    for (const limit of ['16', '016']) {
      const res = await h.as(KEYS.owner).get(`/v1/onboardings?limit=${limit}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('on the control API too (GET /_emulator/events?limit=0x10)', async () => {
    const h = harness();
    expectError(await h.http().get('/_emulator/events?limit=0x10'), 422, 'invalid_request', 'parameter_invalid', 'limit');
    expect((await h.http().get('/_emulator/events?limit=16')).status).toBe(200);
  });
});
