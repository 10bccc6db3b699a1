import { describe, expect, it } from 'vitest';
import type { Organization } from '../../src/resources/organizations/organizations.model.js';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';

type Method = 'GET' | 'POST' | 'PATCH';

/** The fixture onboarding of hrs_test_acme_owner, present in every fresh emulator. */
const ONB = 'onb_demo_jansen';

/**
 * Every /v1 route built so far, with the scope the spec's overview table names for it, and a
 * body that would be accepted if the key had the scope (so a refusal can only be the scope).
 */
const ROUTES: { method: Method; path: string; scope: string; write: boolean; body?: object }[] = [
  { method: 'GET', path: '/v1/organizations', scope: 'organization:read', write: false },
  { method: 'GET', path: '/v1/organization', scope: 'organization:read', write: false },
  { method: 'GET', path: '/v1/onboardings', scope: 'onboardings:read', write: false },
  { method: 'POST', path: '/v1/onboardings', scope: 'onboardings:write', write: true, body: createBody() },
  { method: 'GET', path: `/v1/onboardings/${ONB}`, scope: 'onboardings:read', write: false },
  { method: 'PATCH', path: `/v1/onboardings/${ONB}`, scope: 'onboardings:write', write: true, body: { reference: 'changed' } },
  { method: 'POST', path: `/v1/onboardings/${ONB}/hosted-link`, scope: 'onboardings:write', write: true, body: {} },
  { method: 'POST', path: `/v1/onboardings/${ONB}/cancel`, scope: 'onboardings:write', write: true },
  { method: 'GET', path: '/v1/employees', scope: 'employees:read', write: false },
];

function call(h: Harness, key: string, method: Method, path: string, body?: object) {
  const a = h.as(key);
  if (method === 'GET') return a.get(path);
  if (method === 'PATCH') return a.patch(path, body ?? {});
  return a.post(path, body);
}

/** Records are replaced whole: a partner with one admission switched on or off. */
function setAdmission(h: Harness, partnerId: string, employerId: string, active: boolean) {
  const store = h.emulator.defaultWorkspace.store;
  const partner = store.organizations.get(partnerId) as Organization;
  store.organizations.put({
    ...partner,
    admitted_by: partner.admitted_by.map((a) => (a.organization_id === employerId ? { ...a, active } : a)),
  });
}

describe('authentication (401)', () => {
  it('refuses a request without Authorization with api_key_missing and a WWW-Authenticate challenge', async () => {
    const h = harness();
    const res = await h.http().get('/v1/onboardings');
    expect(res.status).toBe(401);
    const e = envelope(res);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('api_key_missing');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it.each(ROUTES)('refuses $method $path without a key', async ({ method, path, body }) => {
    const h = harness();
    const before = h.storeJson();
    const http = h.http();
    const req = method === 'GET' ? http.get(path) : method === 'PATCH' ? http.patch(path).send(body ?? {}) : body ? http.post(path).send(body) : http.post(path);
    const res = await req;
    expect(res.status).toBe(401);
    const e = envelope(res);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('api_key_missing');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
    expect(h.storeJson()).toBe(before);
  });

  it.each([
    ['a Basic scheme', 'Basic aHJzX3Rlc3RfYWNtZV9vd25lcjo='],
    ['a Basic scheme carrying a valid key', `Basic ${KEYS.owner}`],
    ['a token without a scheme', KEYS.owner],
    ['an empty Bearer', 'Bearer '],
    ['two tokens', `Bearer ${KEYS.owner} extra`],
  ])('refuses %s with api_key_invalid', async (_label, header) => {
    const h = harness();
    const res = await h.http().get('/v1/onboardings').set('Authorization', header);
    expect(res.status).toBe(401);
    const e = envelope(res);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('api_key_invalid');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it.each([
    ['an unknown test key', 'hrs_test_nobody_here'],
    ['an unknown live key', 'hrs_live_nobody_here'],
    ['a key with another prefix', 'sk_test_acme_owner'],
    ['a well-known key in another case', KEYS.owner.toUpperCase()],
    ['a well-known key with a suffix', `${KEYS.owner}x`],
  ])('refuses %s with api_key_invalid', async (_label, key) => {
    const h = harness();
    const res = await h.as(key).get('/v1/organization');
    expect(res.status).toBe(401);
    const e = envelope(res);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('api_key_invalid');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
  });

  it('accepts the scheme name case-insensitively (RFC 7235)', async () => {
    const h = harness();
    const res = await h.http().get('/v1/organization').set('Authorization', `bearer ${KEYS.owner}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('org_acme');
  });

  it('refuses an unknown key on a write without writing anything', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as('hrs_test_unknown_key').post('/v1/onboardings', createBody());
    expect(res.status).toBe(401);
    expect(envelope(res).code).toBe('api_key_invalid');
    expect(h.storeJson()).toBe(before);
  });
});

describe('scopes (403)', () => {
  it.each(ROUTES)('hrs_test_acme_noscopes: $method $path needs $scope', async ({ method, path, scope, body }) => {
    const h = harness();
    const before = h.storeJson();
    const res = await call(h, KEYS.noscopes, method, path, body);
    expect(res.status).toBe(403);
    const e = envelope(res);
    expect(e.type).toBe('permission_error');
    expect(e.code).toBe('scope_missing');
    expect(e.message).toContain(scope);
    expect(h.storeJson()).toBe(before);
  });

  it.each(ROUTES.filter((r) => r.write))('hrs_test_acme_readonly: $method $path needs $scope', async ({ method, path, scope, body }) => {
    const h = harness();
    const before = h.storeJson();
    const res = await call(h, KEYS.readonly, method, path, body);
    expect(res.status).toBe(403);
    const e = envelope(res);
    expect(e.type).toBe('permission_error');
    expect(e.code).toBe('scope_missing');
    expect(e.message).toContain(scope);
    expect(h.storeJson()).toBe(before);
  });

  it.each(ROUTES.filter((r) => !r.write))('hrs_test_acme_readonly may read: $method $path', async ({ path }) => {
    const h = harness();
    const res = await h.as(KEYS.readonly).get(path);
    expect(res.status).toBe(200);
  });

  it.each(ROUTES)('a full-scope key passes the scope check: $method $path', async ({ method, path, body }) => {
    const h = harness();
    const res = await call(h, KEYS.owner, method, path, body);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
  });

  it('checks the scope before validating the body', async () => {
    const h = harness();
    const res = await h.as(KEYS.readonly).post('/v1/onboardings', { nonsense: true });
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('scope_missing');
  });
});

describe('API partners and Service-Organization', () => {
  it.each(['/v1/organization', '/v1/onboardings'])(
    'hrs_test_hrsoft (two employers) without Service-Organization on %s: 400 service_organization_required',
    async (path) => {
      const h = harness();
      const res = await h.as(KEYS.hrsoft).get(path);
      expect(res.status).toBe(400);
      const e = envelope(res);
      expect(e.type).toBe('invalid_request');
      expect(e.code).toBe('service_organization_required');
    },
  );

  it('hrs_test_hrsoft without Service-Organization on a write: 400 and nothing written', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody());
    expect(res.status).toBe(400);
    expect(envelope(res).code).toBe('service_organization_required');
    expect(h.storeJson()).toBe(before);
  });

  it('hrs_test_hrsoft with Service-Organization org_acme: 200 for that employer', async () => {
    const h = harness();
    const org = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_acme');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_acme');
    const list = await h.as(KEYS.hrsoft).get('/v1/onboardings').set('Service-Organization', 'org_acme');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    // Only the onboarding made through the partner's own key is visible.
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(['onb_demo_partner']);
  });

  it('hrs_test_hrsoft with Service-Organization org_bakker acts for Bakker', async () => {
    const h = harness();
    const org = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_bakker');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_bakker');
  });

  it.each(['/v1/organization', '/v1/onboardings', '/v1/employees'])(
    'hrs_test_hrsoft with Service-Organization org_corner (not admitting) on %s: 403 partner_not_admitted',
    async (path) => {
      const h = harness();
      const res = await h.as(KEYS.hrsoft).get(path).set('Service-Organization', 'org_corner');
      expect(res.status).toBe(403);
      const e = envelope(res);
      expect(e.type).toBe('permission_error');
      expect(e.code).toBe('partner_not_admitted');
    },
  );

  it('hrs_test_hrsoft with Service-Organization of an organization that does not exist: 403 partner_not_admitted', async () => {
    const h = harness();
    const res = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_nowhere');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('partner_not_admitted');
  });

  it('hrs_test_hrsoft may not name itself as the employer', async () => {
    const h = harness();
    const res = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_hrsoft');
    expect(res.status).toBe(403);
    expect(envelope(res).type).toBe('permission_error');
  });

  it('hrs_test_payflow (one employer) works without the header', async () => {
    const h = harness();
    const org = await h.as(KEYS.payflow).get('/v1/organization');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_acme');
    const list = await h.as(KEYS.payflow).get('/v1/onboardings');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  it('hrs_test_payflow also works with its one employer named', async () => {
    const h = harness();
    const org = await h.as(KEYS.payflow).get('/v1/organization').set('Service-Organization', 'org_acme');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_acme');
  });

  it('hrs_test_payflow: onboardings:write on the key but not granted by org_acme -> 403 scope_not_granted', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.payflow).post('/v1/onboardings', createBody());
    expect(res.status).toBe(403);
    const e = envelope(res);
    expect(e.type).toBe('permission_error');
    expect(e.code).toBe('scope_not_granted');
    expect(h.storeJson()).toBe(before);
  });

  it('hrs_test_payflow: scope_not_granted also with the header naming org_acme', async () => {
    const h = harness();
    const res = await h.as(KEYS.payflow).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('scope_not_granted');
  });

  it('hrs_test_hrsoft may create for org_bakker, which granted it onboardings:write', async () => {
    const h = harness();
    const body = createBody({
      employment: {
        position: 'Baker', start_date: '2026-12-01', location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker',
        hours_per_week: 38, hourly_wage_cents: 1600,
      },
    });
    const res = await h.as(KEYS.hrsoft).post('/v1/onboardings', body).set('Service-Organization', 'org_bakker');
    expect(res.status).toBe(201);
  });

  it('an employer key with Service-Organization of another organization: 403 organization_forbidden', async () => {
    const h = harness();
    for (const other of ['org_bakker', 'org_hrsoft', 'org_nowhere']) {
      const res = await h.as(KEYS.owner).get('/v1/organization').set('Service-Organization', other);
      expect(res.status).toBe(403);
      const e = envelope(res);
      expect(e.type).toBe('permission_error');
      expect(e.code).toBe('organization_forbidden');
    }
  });

  it('an employer key with Service-Organization of another organization on a write: 403 and nothing written', async () => {
    const h = harness();
    const before = h.storeJson();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_bakker');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('organization_forbidden');
    expect(h.storeJson()).toBe(before);
  });

  it('an employer key with its own organization id in Service-Organization: 200', async () => {
    const h = harness();
    const org = await h.as(KEYS.owner).get('/v1/organization').set('Service-Organization', 'org_acme');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_acme');
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(created.status).toBe(201);
  });

  it('admission ended: hrs_test_hrsoft acting for org_acme gets 403', async () => {
    const h = harness();
    const ok = await h.as(KEYS.hrsoft).get('/v1/onboardings').set('Service-Organization', 'org_acme');
    expect(ok.status).toBe(200);
    setAdmission(h, 'org_hrsoft', 'org_acme', false);
    for (const path of ['/v1/organization', '/v1/onboardings', '/v1/onboardings/onb_demo_partner', '/v1/employees']) {
      const res = await h.as(KEYS.hrsoft).get(path).set('Service-Organization', 'org_acme');
      expect(res.status, path).toBe(403);
      const e = envelope(res);
      expect(e.type).toBe('permission_error');
      expect(e.code).toBe('partner_not_admitted');
    }
    const before = h.storeJson();
    const write = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody()).set('Service-Organization', 'org_acme');
    expect(write.status).toBe(403);
    expect(h.storeJson()).toBe(before);
    // Bakker still admits it.
    const bakker = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_bakker');
    expect(bakker.status).toBe(200);
  });

  it('admission ended: the partner with one employer left needs no header any more', async () => {
    const h = harness();
    setAdmission(h, 'org_hrsoft', 'org_acme', false);
    const res = await h.as(KEYS.hrsoft).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('org_bakker');
    const orgs = await h.as(KEYS.hrsoft).get('/v1/organizations');
    expect(orgs.body.data.map((o: { id: string }) => o.id)).toEqual(['org_bakker']);
  });

  it('admission ended: hrs_test_payflow (no employer left) gets 403 with and without the header', async () => {
    const h = harness();
    setAdmission(h, 'org_payflow', 'org_acme', false);
    const without = await h.as(KEYS.payflow).get('/v1/organization');
    expect(without.status).toBe(403);
    expect(envelope(without).type).toBe('permission_error');
    expect(envelope(without).code).toBe('partner_not_admitted');
    const withHeader = await h.as(KEYS.payflow).get('/v1/onboardings').set('Service-Organization', 'org_acme');
    expect(withHeader.status).toBe(403);
    expect(envelope(withHeader).code).toBe('partner_not_admitted');
    const orgs = await h.as(KEYS.payflow).get('/v1/organizations');
    expect(orgs.status).toBe(200);
    expect(orgs.body.data).toEqual([]);
  });

  it('admission restored: access comes back', async () => {
    const h = harness();
    setAdmission(h, 'org_payflow', 'org_acme', false);
    expect((await h.as(KEYS.payflow).get('/v1/organization')).status).toBe(403);
    setAdmission(h, 'org_payflow', 'org_acme', true);
    expect((await h.as(KEYS.payflow).get('/v1/organization')).status).toBe(200);
  });

  it('a partner acting for an employer is limited to the scopes that employer granted', async () => {
    const h = harness();
    // org_bakker granted hrsoft organization:read, onboardings:read/write and employees:read only.
    const store = h.emulator.defaultWorkspace.store;
    const partner = store.organizations.get('org_hrsoft') as Organization;
    store.organizations.put({
      ...partner,
      admitted_by: partner.admitted_by.map((a) => (a.organization_id === 'org_bakker' ? { ...a, scopes: a.scopes.filter((s) => s !== 'employees:read') } : a)),
    });
    const res = await h.as(KEYS.hrsoft).get('/v1/employees').set('Service-Organization', 'org_bakker');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('scope_not_granted');
    const acme = await h.as(KEYS.hrsoft).get('/v1/employees').set('Service-Organization', 'org_acme');
    expect(acme.status).toBe(200);
  });
});
