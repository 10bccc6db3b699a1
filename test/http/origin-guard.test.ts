import { describe, expect, it } from 'vitest';
import { createBody, expectError, harness, KEYS } from '../support/harness.js';

/**
 * The Host allow-list (against DNS rebinding) on every kind of route, and the refusal of
 * control changes a browser marks as coming from another origin.
 */
describe('the Host header', () => {
  it('is refused when it names another host, on the API, the control API, the pages and health, with the option that admits it', async () => {
    const h = harness();
    for (const path of ['/_emulator/health', '/_emulator/keys', '/v1/onboardings', '/_emulator/ui', '/openapi.json']) {
      const res = await h.as(KEYS.owner).get(path).set('Host', 'evil.example:4010');
      expectError(res, 403, 'permission_error', 'host_not_allowed');
      expect(res.body.error.message).toContain('--allowed-hosts evil.example');
    }
    const reset = await h.http().post('/_emulator/reset').set('Host', 'evil.example');
    expect(reset.status).toBe(403);
  });

  it('is answered for IP addresses, localhost and names under it, single-label names and the public URL host', async () => {
    const h = harness({}, { publicUrl: 'https://onboarding.example.test/base/' });
    for (const host of ['127.0.0.1:4010', '10.1.2.3', '[::1]:4010', 'localhost:4010', 'api.localhost', 'onboarding:4010', 'docker', 'onboarding.example.test']) {
      expect((await h.http().get('/_emulator/health').set('Host', host)).status, host).toBe(200);
    }
    expect((await h.http().get('/_emulator/health').set('Host', 'example.test')).status).toBe(403);
  });

  it('admits more names with allowedHosts: exact, a domain with its names, or any', async () => {
    const listed = harness({}, { allowedHosts: 'emulator.test, .corp.example' });
    for (const host of ['emulator.test', 'EMULATOR.test:8080', 'corp.example', 'a.b.corp.example']) {
      expect((await listed.http().get('/_emulator/health').set('Host', host)).status, host).toBe(200);
    }
    for (const host of ['other.test', 'xcorp.example']) expect((await listed.http().get('/_emulator/health').set('Host', host)).status, host).toBe(403);
    const stars = harness({}, { allowedHosts: ['*.corp.example'] });
    expect((await stars.http().get('/_emulator/health').set('Host', 'x.corp.example')).status).toBe(200);
    const any = harness({}, { allowedHosts: '*' });
    expect((await any.http().get('/_emulator/health').set('Host', 'evil.example')).status).toBe(200);
  });

  it('answers any single-label name until allowedHosts lists some: then only those, besides localhost, IPs and the other entries', async () => {
    const open = harness({}, { allowedHosts: 'emulator.test' });
    for (const host of ['onboarding:4010', 'wpad', 'intranet']) expect((await open.http().get('/_emulator/health').set('Host', host)).status, host).toBe(200);
    const narrowed = harness({}, { allowedHosts: 'onboarding, emulator.test' });
    for (const host of ['onboarding:4010', 'ONBOARDING', 'localhost:4010', '127.0.0.1', '[::1]:4010', 'emulator.test']) {
      expect((await narrowed.http().get('/_emulator/health').set('Host', host)).status, host).toBe(200);
    }
    for (const host of ['wpad', 'intranet:4010', 'docker']) {
      const res = await narrowed.http().get('/_emulator/health').set('Host', host);
      expectError(res, 403, 'permission_error', 'host_not_allowed');
      expect(res.body.error.message).toContain(`--allowed-hosts ${host.split(':')[0]}`);
    }
  });
});

describe('control changes from another origin', () => {
  it('are refused when a browser marks them cross-site or same-site, or sends another Origin, and change nothing', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(created.status).toBe(201);
    const refusals = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'http://localhost:3000' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
    ];
    for (const headers of refusals) {
      const res = await h.http().post('/_emulator/reset').set(headers);
      expectError(res, 403, 'permission_error', 'cross_origin_refused');
      const cancel = await h.http().post(`/_emulator/onboardings/${created.body.id as string}/cancel`).set(headers).send({});
      expect(cancel.status).toBe(403);
      expect((await h.http().delete('/_emulator/faults').set(headers)).status).toBe(403);
    }
    const still = await h.as(KEYS.owner).get(`/v1/onboardings/${created.body.id as string}`);
    expect(still.status).toBe(200);
    expect(still.body.status).not.toBe('cancelled');
  });

  it('are answered from the same origin, and from clients that are no browser', async () => {
    const h = harness();
    expect((await h.http().post('/_emulator/reset').set({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://127.0.0.1:4010' }).set('Host', '127.0.0.1:4010')).status).toBe(200);
    expect((await h.http().post('/_emulator/reset').set({ Origin: 'http://127.0.0.1:4010' }).set('Host', '127.0.0.1:4010')).status).toBe(200);
    expect((await h.http().post('/_emulator/reset').set('Sec-Fetch-Site', 'none')).status).toBe(200);
    expect((await h.http().post('/_emulator/reset')).status).toBe(200);
  });

  it('leave reads and the /v1 API (which needs a key) as they were', async () => {
    const h = harness();
    const cross = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' };
    expect((await h.http().get('/_emulator/keys').set(cross)).status).toBe(200);
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set(cross)).status).toBe(201);
  });
});
