import { afterEach, describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/delivery/address-policy.js';
import { httpTransport, type Transport } from '../../src/delivery/transport.js';
import { createBody, harness as baseHarness, KEYS, expectError, type Harness } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';

/**
 * Webhook addresses (spec: WebhookEndpoint, POST/GET/DELETE /v1/webhooks; docs/decisions.md,
 * Webhooks): registration rules, what is shown, limits, deletion, scopes, partners and
 * environments. Deliveries themselves are in webhooks.message, .retries, .actions and .routing.test.ts.
 */
/**
 * Some addresses here name hosts that are not loopback (registration rules only). A safety net:
 * the transport delivers to loopback alone, and any attempt to go elsewhere fails the test.
 */
const offLoopback: string[] = [];
const loopbackOnly: Transport = {
  send: (req) => {
    const host = new URL(req.url).hostname;
    if (host === '127.0.0.1' || host === '[::1]' || host === 'localhost') return real.send(req);
    offLoopback.push(req.url);
    return Promise.resolve({ ok: false, status: null, error: 'not sent: not loopback', durationMs: 0 });
  },
};
const real = httpTransport();
afterEach(() => {
  expect(offLoopback.splice(0)).toEqual([]);
});
const harness = () => baseHarness({ webhooks: { transport: loopbackOnly } });

const receivers = useReceivers();
const API_VERSION = '2026-10-01';

/** The URLs registered here are never delivered to unless a test sends something. */
const QUIET_URL = 'http://127.0.0.1:9/hook';

const del = (h: Harness, key: string, path: string) => h.http().delete(path).set('Authorization', `Bearer ${key}`);

async function register(h: Harness, body: object, key: string = KEYS.owner) {
  const res = await h.as(key).post('/v1/webhooks', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; [field: string]: unknown };
}

const settle = (h: Harness) => h.emulator.defaultWorkspace.scheduler.advanceBy(0);

describe('POST /v1/webhooks', () => {
  it('registers an address: 201 with a whsec_ secret, all events as ["*"], the api_version of the key', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'https://hooks.acme.test/onboarding', description: 'main receiver' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_/),
      object: 'webhook_endpoint',
      url: 'https://hooks.acme.test/onboarding',
      description: 'main receiver',
      events: ['*'],
      status: 'enabled',
      api_version: API_VERSION,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{16,}$/),
      recent_deliveries: [],
      created_at: '2026-10-05T09:00:00.000Z',
    });
  });

  it('shows an empty events list as ["*"] and keeps a filter as given', async () => {
    const h = harness();
    expect((await register(h, { url: QUIET_URL, events: [] })).events).toEqual(['*']);
    const filtered = await register(h, { url: QUIET_URL, events: ['onboarding.submitted', 'contract.sent'] });
    expect(filtered.events).toEqual(['onboarding.submitted', 'contract.sent']);
    expect((await h.as(KEYS.owner).get(`/v1/webhooks/${filtered.id}`)).body.events).toEqual(['onboarding.submitted', 'contract.sent']);
  });

  it('gives every address its own secret', async () => {
    const h = harness();
    const a = await register(h, { url: QUIET_URL });
    const b = await register(h, { url: QUIET_URL });
    expect(a.id).not.toBe(b.id);
    expect(a.secret).not.toBe(b.secret);
  });

  it('refuses unknown event names and ping with 422 events_invalid, and stores nothing', async () => {
    const h = harness();
    const before = h.storeJson();
    for (const events of [['onboarding.exploded'], ['onboarding.created', 'nope'], ['ping'], ['*'], ['ONBOARDING.CREATED']]) {
      const err = expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url: QUIET_URL, events }), 422, 'invalid_request', 'events_invalid');
      expect(err.message, JSON.stringify(events)).toContain(events.at(-1)!);
    }
    expect(h.storeJson()).toBe(before);
  });

  it('accepts every event type but ping, the older names included', async () => {
    const h = harness();
    const all = [
      'onboarding.created', 'onboarding.invitation_sent', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted',
      'onboarding.approval_required', 'onboarding.returned', 'onboarding.approval_given', 'onboarding.approved', 'onboarding.terms_changed',
      'contract.sent', 'contract.signed_by_employee', 'onboarding.contract_signed', 'contract.signed', 'integration.sync_succeeded',
      'payroll.completed', 'integration.sync_failed', 'onboarding.failed', 'onboarding.completed', 'onboarding.cancelled',
    ];
    expect((await register(h, { url: QUIET_URL, events: all })).events).toEqual(all);
  });

  it('refuses credentials in the URL under the default local policy (422 parameter_invalid)', async () => {
    const h = harness();
    const before = h.storeJson();
    for (const url of ['http://user:pass@127.0.0.1:9/hook', 'https://token@hooks.acme.test/x', 'https://:@hooks.acme.test/x']) {
      const err = expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url }), 422, 'invalid_request', 'parameter_invalid', 'url');
      expect(err.message).toMatch(/user name or password/);
    }
    expect(h.storeJson()).toBe(before);
  });

  it('accepts http and loopback or private hosts under the local policy, refuses what is no http(s) URL', async () => {
    const h = harness();
    for (const url of ['http://127.0.0.1:8080/hook', 'http://localhost/x', 'http://10.1.2.3/x', 'https://[::1]:9443/x']) {
      expect((await register(h, { url })).url).toBe(url);
    }
    for (const url of ['ftp://hooks.acme.test/x', 'hooks.acme.test/x', 'javascript:alert(1)', 'https://hooks.acme.test/x#frag']) {
      expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url }), 422, 'invalid_request', 'parameter_invalid', 'url');
    }
  });

  it('refuses the 21st address of an organization with 422 webhook_limit_reached', async () => {
    const h = harness();
    for (let i = 0; i < 20; i++) await register(h, { url: `${QUIET_URL}/${i}` });
    const before = h.storeJson();
    expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url: QUIET_URL }), 422, 'invalid_request', 'webhook_limit_reached');
    expect(h.storeJson()).toBe(before);
    // Another key of the same organization counts against the same 20.
    expectError(await h.as(KEYS.manager).post('/v1/webhooks', { url: QUIET_URL }), 422, 'invalid_request', 'webhook_limit_reached');
    // Another organization has its own 20.
    await register(h, { url: QUIET_URL }, KEYS.bakker);
    // Deleting one makes room again.
    const list = await h.as(KEYS.owner).get('/v1/webhooks?limit=100');
    expect(list.body.data).toHaveLength(20);
    expect((await del(h, KEYS.owner, `/v1/webhooks/${list.body.data[0].id}`)).status).toBe(200);
    await register(h, { url: QUIET_URL });
  });

  it('refuses unknown fields and a missing url', async () => {
    const h = harness();
    expectError(await h.as(KEYS.owner).post('/v1/webhooks', {}), 422, 'invalid_request', 'parameter_missing');
    expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url: QUIET_URL, secret: 'whsec_mine' }), 422, 'invalid_request', 'parameter_unknown');
  });
});

describe('POST /v1/webhooks: internal address literals under the strict URL policy', () => {
  /** Records every name asked for and answers a public address: registration must ask nothing. */
  function strictHarness() {
    const asked: string[] = [];
    const resolver: Resolver = async (host) => {
      asked.push(host);
      return ['93.184.216.34'];
    };
    return { h: baseHarness({ webhooks: { urlPolicy: 'strict', resolver, transport: loopbackOnly } }), asked };
  }
  const INTERNAL = [
    ['https://10.0.0.1/hook', '10.0.0.1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://2852039166/', '2852039166 (169.254.169.254)'],
    ['https://0251.0376.0251.0376/', '0251.0376.0251.0376 (169.254.169.254)'],
    ['https://0xa9fea9fe/', '0xa9fea9fe (169.254.169.254)'],
    ['https://100.64.0.1/', '100.64.0.1'],
    ['https://[::ffff:10.0.0.1]/', '[::ffff:10.0.0.1] ([::ffff:a00:1])'],
    ['https://[fd00::1]/', '[fd00::1]'],
    ['https://[fe80::1]:8443/hook', '[fe80::1]'],
  ];

  it('refuses each with 422 parameter_invalid on url, stores nothing and resolves nothing', async () => {
    const { h, asked } = strictHarness();
    const before = h.storeJson();
    for (const [url, shown] of INTERNAL) {
      const err = expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url }), 422, 'invalid_request', 'parameter_invalid', 'url');
      expect(err.message, url).toBe(`url: ${shown} is an internal address, refused by the strict URL policy.`);
    }
    expect(h.storeJson()).toBe(before);
    expect(asked).toEqual([]);
  });

  it('accepts public literals and host names without resolving them at registration', async () => {
    const { h, asked } = strictHarness();
    for (const url of ['https://93.184.216.34/hook', 'https://[2606:4700::1]/hook', 'https://hooks.acme.test/hook', 'https://private.acme.test/hook']) {
      expect((await register(h, { url })).url).toBe(url);
    }
    expect(asked).toEqual([]);
  });

  it('accepts the same literals under the default local policy', async () => {
    const h = harness();
    for (const [url] of INTERNAL) expect((await register(h, { url: url! })).url).toBe(url);
  });
});

describe('GET /v1/webhooks and GET /v1/webhooks/{id}', () => {
  it('never shows the secret, on one address or in the list', async () => {
    const h = harness();
    const created = await register(h, { url: QUIET_URL });
    const one = await h.as(KEYS.owner).get(`/v1/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(JSON.stringify(one.body)).not.toContain(created.secret);
    const { secret: _secret, ...shown } = created;
    expect(one.body).toEqual(shown);

    const list = await h.as(KEYS.owner).get('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.body.data).toEqual([shown]);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
  });

  it('lists newest first with paging', async () => {
    const h = harness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await register(h, { url: `${QUIET_URL}/${i}` })).id);
    const first = await h.as(KEYS.owner).get('/v1/webhooks?limit=2');
    expect(first.body.data.map((w: { id: string }) => w.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.has_more).toBe(true);
    const second = await h.as(KEYS.owner).get(`/v1/webhooks?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const third = await h.as(KEYS.owner).get(`/v1/webhooks?limit=2&starting_after=${second.body.next_cursor}`);
    expect(third.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(third.body).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('shows recent_deliveries on GET, newest first', async () => {
    const h = harness();
    const r = await receivers.start(answer(204));
    const w = await register(h, { url: r.url(), events: ['onboarding.created'] });
    const ping = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/test`, {});
    expect(ping.status, JSON.stringify(ping.body)).toBe(200);
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(created.status).toBe(201);
    await settle(h);
    expect(r.requests).toHaveLength(2);

    const res = await h.as(KEYS.owner).get(`/v1/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    const recent = res.body.recent_deliveries as Record<string, unknown>[];
    expect(recent.map((d) => d.event_type)).toEqual(['onboarding.created', 'ping']);
    expect(recent[1]).toEqual({
      id: ping.body.delivery_id,
      object: 'webhook_delivery',
      event_id: ping.body.event_id,
      event_type: 'ping',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
      created_at: '2026-10-05T09:00:00.000Z',
      delivered_at: '2026-10-05T09:00:00.000Z',
      next_attempt_at: null,
    });
    // The list shows them too.
    const list = await h.as(KEYS.owner).get('/v1/webhooks');
    expect(list.body.data[0].recent_deliveries).toEqual(recent);
  });

  it('answers 404 for an unknown id and for another organization\'s address', async () => {
    const h = harness();
    expectError(await h.as(KEYS.owner).get('/v1/webhooks/wh_nope'), 404, 'not_found', 'resource_not_found');
    const bakkers = await register(h, { url: QUIET_URL }, KEYS.bakker);
    expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${bakkers.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await del(h, KEYS.owner, `/v1/webhooks/${bakkers.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${bakkers.id}/rotate-secret`, {}), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.owner).post(`/v1/webhooks/${bakkers.id}/test`, {}), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${bakkers.id}/deliveries`), 404, 'not_found', 'resource_not_found');
    expect((await h.as(KEYS.owner).get('/v1/webhooks')).body.data).toEqual([]);
  });
});

describe('DELETE /v1/webhooks/{id}', () => {
  it('answers {id, object, deleted: true, stopped_deliveries} and the address is gone', async () => {
    const h = harness();
    const w = await register(h, { url: QUIET_URL });
    const res = await del(h, KEYS.owner, `/v1/webhooks/${w.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: w.id, object: 'webhook_endpoint', deleted: true, stopped_deliveries: 0 });
    expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${w.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await del(h, KEYS.owner, `/v1/webhooks/${w.id}`), 404, 'not_found', 'resource_not_found');
    expect((await h.as(KEYS.owner).get('/v1/webhooks')).body.data).toEqual([]);
  });

  it('stops pending retries: the delivery ends dead with last_error naming the deletion, and nothing more is sent', async () => {
    const h = harness();
    const r = await receivers.start(answer(500, 'down'));
    const w = await register(h, { url: r.url() });
    const ping = await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/test`, {});
    await settle(h);
    expect(r.requests).toHaveLength(1);
    const failed = await h.as(KEYS.owner).get(`/v1/webhooks/${w.id}/deliveries`);
    expect(failed.body.data[0]).toMatchObject({ id: ping.body.delivery_id, status: 'failed', attempts: 1, next_attempt_at: '2026-10-05T09:01:00.000Z' });
    const ws = h.emulator.defaultWorkspace;
    const res = await del(h, KEYS.owner, `/v1/webhooks/${w.id}`);
    expect(res.body).toEqual({ id: w.id, object: 'webhook_endpoint', deleted: true, stopped_deliveries: 1 });

    const record = ws.store.deliveries.get(ping.body.delivery_id)!;
    expect(record).toMatchObject({ status: 'dead', attempts: 1, next_attempt_at: null, last_error: 'the address was deleted' });
    await ws.scheduler.advanceBy(3 * 86_400_000);
    expect(r.requests).toHaveLength(1);
    expect(ws.store.deliveries.get(ping.body.delivery_id)).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('counts every waiting delivery as stopped and ends each dead', async () => {
    const h = harness();
    const r = await receivers.start(answer(503));
    const w = await register(h, { url: r.url() });
    const pings = [];
    for (let i = 0; i < 3; i++) pings.push((await h.as(KEYS.owner).post(`/v1/webhooks/${w.id}/test`, {})).body.delivery_id as string);
    await settle(h);
    const ws = h.emulator.defaultWorkspace;
    await ws.scheduler.advanceBy(60_000); // each one's second attempt
    expect(r.requests).toHaveLength(6);
    const res = await del(h, KEYS.owner, `/v1/webhooks/${w.id}`);
    expect(res.body).toEqual({ id: w.id, object: 'webhook_endpoint', deleted: true, stopped_deliveries: 3 });
    for (const id of pings) {
      expect(ws.store.deliveries.get(id)).toMatchObject({ status: 'dead', attempts: 2, last_error: 'the address was deleted', next_attempt_at: null });
    }
    await ws.scheduler.advanceBy(3 * 86_400_000);
    expect(r.requests).toHaveLength(6);
  });
});

describe('scope webhooks:manage', () => {
  it('is needed for every webhook endpoint (403 scope_missing)', async () => {
    const h = harness();
    const w = await register(h, { url: QUIET_URL });
    for (const key of [KEYS.readonly, KEYS.recruiter, KEYS.noscopes]) {
      const calls = [
        h.as(key).get('/v1/webhooks'),
        h.as(key).post('/v1/webhooks', { url: QUIET_URL }),
        h.as(key).get(`/v1/webhooks/${w.id}`),
        del(h, key, `/v1/webhooks/${w.id}`),
        h.as(key).post(`/v1/webhooks/${w.id}/test`, {}),
        h.as(key).post(`/v1/webhooks/${w.id}/rotate-secret`, {}),
        h.as(key).get(`/v1/webhooks/${w.id}/deliveries`),
        h.as(key).post(`/v1/webhooks/${w.id}/deliveries/whd_x/retry`, {}),
      ];
      for (const res of await Promise.all(calls)) expectError(res, 403, 'permission_error', 'scope_missing');
    }
    // Nothing changed: still one address, still enabled.
    const list = await h.as(KEYS.owner).get('/v1/webhooks');
    expect(list.body.data.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([[w.id, 'enabled']]);
  });

  it('is not enough without a key: 401', async () => {
    const h = harness();
    const res = await h.http().get('/v1/webhooks');
    expectError(res, 401, 'authentication_error', res.body.error.code);
  });
});

describe('partners and environments', () => {
  it('a partner key manages its own addresses without Service-Organization; the employer does not see them', async () => {
    const h = harness();
    const created = await h.as(KEYS.hrsoft).post('/v1/webhooks', { url: 'https://hooks.hrsoft.test/in' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id as string;

    const list = await h.as(KEYS.hrsoft).get('/v1/webhooks');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([id]);
    expect((await h.as(KEYS.hrsoft).get(`/v1/webhooks/${id}`)).status).toBe(200);
    const rotated = await h.as(KEYS.hrsoft).post(`/v1/webhooks/${id}/rotate-secret`, { overlap_hours: 0 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);

    // The employer's keys see neither the list entry nor the address.
    expect((await h.as(KEYS.owner).get('/v1/webhooks')).body.data).toEqual([]);
    expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${id}`), 404, 'not_found', 'resource_not_found');
    expectError(await del(h, KEYS.owner, `/v1/webhooks/${id}`), 404, 'not_found', 'resource_not_found');

    // The addresses belong to the partner itself: the same with a Service-Organization header.
    const viaHeader = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get('/v1/webhooks');
    expect(viaHeader.status, JSON.stringify(viaHeader.body)).toBe(200);
    expect(viaHeader.body.data.map((w: { id: string }) => w.id)).toEqual([id]);

    const gone = await del(h, KEYS.hrsoft, `/v1/webhooks/${id}`);
    expect(gone.body).toEqual({ id, object: 'webhook_endpoint', deleted: true, stopped_deliveries: 0 });
  });

  it('test and live keys each see only their own environment\'s addresses', async () => {
    const h = harness();
    const test = await register(h, { url: 'https://hooks.acme.test/sandbox' }, KEYS.owner);
    const live = await register(h, { url: 'https://hooks.acme.test/production' }, KEYS.live);

    expect((await h.as(KEYS.owner).get('/v1/webhooks')).body.data.map((w: { id: string }) => w.id)).toEqual([test.id]);
    expect((await h.as(KEYS.live).get('/v1/webhooks')).body.data.map((w: { id: string }) => w.id)).toEqual([live.id]);
    expectError(await h.as(KEYS.owner).get(`/v1/webhooks/${live.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await h.as(KEYS.live).get(`/v1/webhooks/${test.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await del(h, KEYS.owner, `/v1/webhooks/${live.id}`), 404, 'not_found', 'resource_not_found');
    expect((await h.as(KEYS.live).get(`/v1/webhooks/${live.id}`)).status).toBe(200);
  });

  it('a test address receives only sandbox events, a live address only live events', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/test') }, KEYS.owner);
    await register(h, { url: r.url('/live') }, KEYS.live);
    const sandbox = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'in-sandbox' }));
    const production = await h.as(KEYS.live).post('/v1/onboardings', createBody({ reference: 'in-production' }));
    expect([sandbox.status, production.status]).toEqual([201, 201]);
    await settle(h);
    const seen = (path: string) => r.to(path).map((q) => JSON.parse(q.body.toString('utf8')).data.onboarding_id as string);
    expect(seen('/test')).toEqual([sandbox.body.id]);
    expect(seen('/live')).toEqual([production.body.id]);
  });
});
