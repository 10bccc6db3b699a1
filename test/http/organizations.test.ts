import { describe, expect, it } from 'vitest';
import { envelope, harness, KEYS } from '../support/harness.js';

const FULL_SCOPES = [
  'approvals:read', 'approvals:write', 'contracts:write', 'documents:read', 'employees:read', 'integrations:read',
  'onboardings:read', 'onboardings:write', 'organization:read', 'reviews:embed', 'webhooks:manage',
];
const READONLY_SCOPES = ['approvals:read', 'documents:read', 'employees:read', 'integrations:read', 'onboardings:read', 'organization:read'];
const HRSOFT_ACME_GRANT = [
  'organization:read', 'onboardings:read', 'onboardings:write', 'employees:read', 'documents:read', 'integrations:read',
  'reviews:embed', 'webhooks:manage', 'approvals:read',
];
const HRSOFT_BAKKER_GRANT = ['organization:read', 'onboardings:read', 'onboardings:write', 'employees:read'];

const ACME = {
  id: 'org_acme',
  name: 'Acme Retail B.V.',
  locations: [
    { id: 'loc_acme_amsterdam', name: 'Store Amsterdam Centraal', city: 'Amsterdam' },
    { id: 'loc_acme_utrecht', name: 'Distribution centre', city: 'Utrecht' },
  ],
  templates: [
    { id: 'tpl_acme_standard', name: 'Store staff', contract_type: 'fixed_term', cao: 'Retail non-food' },
    { id: 'tpl_acme_flex', name: 'Flex pool', contract_type: 'on_call', cao: 'Retail non-food' },
  ],
  branding: { color: '#0B6E4F', logo_url: null },
  allowed_origins: ['app.acme.test', '*.acme.test'],
};

const BAKKER = {
  id: 'org_bakker',
  name: 'Bakkerij Bakker',
  locations: [{ id: 'loc_bakker_haarlem', name: 'Bakery', city: 'Haarlem' }],
  templates: [{ id: 'tpl_bakker_baker', name: 'Baker', contract_type: 'permanent', cao: 'Bakery' }],
  branding: { color: null, logo_url: null },
  allowed_origins: ['bakker.test'],
};

describe('GET /v1/organizations', () => {
  it('an employer key sees its own organization, with the key scopes as permissions', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      object: 'list',
      data: [{ id: 'org_acme', object: 'organization', name: 'Acme Retail B.V.', permissions: FULL_SCOPES }],
      has_more: false,
      next_cursor: null,
    });
  });

  it('permissions are the scopes of the key, not of the organization (read-only key)', async () => {
    const h = harness();
    const res = await h.as(KEYS.readonly).get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].id).toBe('org_acme');
    expect([...res.body.data[0].permissions].sort()).toEqual([...READONLY_SCOPES].sort());
  });

  it('another employer key sees only its own organization', async () => {
    const h = harness();
    const res = await h.as(KEYS.bakker).get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { id: string }) => o.id)).toEqual(['org_bakker']);
    expect(res.body.data[0]).toMatchObject({ object: 'organization', name: 'Bakkerij Bakker' });
  });

  it('the hrsoft partner sees both employers that admitted it, with the scopes each granted, without a header', async () => {
    const h = harness();
    const res = await h.as(KEYS.hrsoft).get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    const byId = new Map<string, { object: string; name: string; permissions: string[] }>(
      res.body.data.map((o: { id: string }) => [o.id, o]),
    );
    expect([...byId.keys()].sort()).toEqual(['org_acme', 'org_bakker']);
    expect(byId.get('org_acme')).toMatchObject({ object: 'organization', name: 'Acme Retail B.V.' });
    expect(byId.get('org_bakker')).toMatchObject({ object: 'organization', name: 'Bakkerij Bakker' });
    expect([...byId.get('org_acme')!.permissions].sort()).toEqual([...HRSOFT_ACME_GRANT].sort());
    expect([...byId.get('org_bakker')!.permissions].sort()).toEqual([...HRSOFT_BAKKER_GRANT].sort());
    // The partner itself and the employer that did not admit it are not listed.
    expect(byId.has('org_hrsoft')).toBe(false);
    expect(byId.has('org_corner')).toBe(false);
  });

  it('the hrsoft partner gets the same list when it sends a Service-Organization header', async () => {
    const h = harness();
    const res = await h.as(KEYS.hrsoft).get('/v1/organizations').set('Service-Organization', 'org_bakker');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { id: string }) => o.id).sort()).toEqual(['org_acme', 'org_bakker']);
  });

  it('the payflow partner sees its one employer with the scopes granted (no onboardings:write)', async () => {
    const h = harness();
    const res = await h.as(KEYS.payflow).get('/v1/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ id: 'org_acme', object: 'organization', name: 'Acme Retail B.V.' });
    expect([...res.body.data[0].permissions].sort()).toEqual(['employees:read', 'onboardings:read', 'organization:read']);
  });

  it('every item has exactly the OrganizationListItem fields', async () => {
    const h = harness();
    for (const key of [KEYS.owner, KEYS.hrsoft, KEYS.payflow, KEYS.live]) {
      const res = await h.as(key).get('/v1/organizations');
      expect(res.status).toBe(200);
      for (const item of res.body.data) {
        expect(Object.keys(item).sort()).toEqual(['id', 'name', 'object', 'permissions']);
        expect(item.id).toMatch(/^org_/);
      }
    }
  });

  it('refuses query parameters it does not know with 422', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organizations?limit=5');
    expect(res.status).toBe(422);
    expect(envelope(res).type).toBe('invalid_request');
  });
});

describe('GET /v1/organization', () => {
  it('returns the organization of an employer key in exactly the spec shape', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ACME);
  });

  it('leaves out the internals of templates (approval roles, version) and of the organization', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/organization');
    expect(Object.keys(res.body).sort()).toEqual(['allowed_origins', 'branding', 'id', 'locations', 'name', 'templates']);
    for (const t of res.body.templates) {
      expect(Object.keys(t).sort()).toEqual(['cao', 'contract_type', 'id', 'name']);
      for (const v of Object.values(t)) expect(typeof v).toBe('string');
    }
    for (const l of res.body.locations) expect(Object.keys(l).sort()).toEqual(['city', 'id', 'name']);
    expect(Object.keys(res.body.branding).sort()).toEqual(['color', 'logo_url']);
    const text = JSON.stringify(res.body);
    for (const hidden of ['approval_roles', 'subscription', 'api_approvals', 'payroll_connector', 'admitted_by', 'users', 'kind']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('fills branding with nulls when the organization has none', async () => {
    const h = harness();
    const res = await h.as(KEYS.bakker).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(BAKKER);
  });

  it('a partner gets the employer named in Service-Organization', async () => {
    const h = harness();
    const acme = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_acme');
    expect(acme.status).toBe(200);
    expect(acme.body).toEqual(ACME);
    const bakker = await h.as(KEYS.hrsoft).get('/v1/organization').set('Service-Organization', 'org_bakker');
    expect(bakker.status).toBe(200);
    expect(bakker.body).toEqual(BAKKER);
  });

  it('a partner with one employer gets that employer without the header', async () => {
    const h = harness();
    const res = await h.as(KEYS.payflow).get('/v1/organization');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ACME);
  });

  it('a read-only key may read it; a key without organization:read may not', async () => {
    const h = harness();
    expect((await h.as(KEYS.readonly).get('/v1/organization')).status).toBe(200);
    const res = await h.as(KEYS.noscopes).get('/v1/organization');
    expect(res.status).toBe(403);
    expect(envelope(res).code).toBe('scope_missing');
  });

  it('reflects a changed organization record', async () => {
    const h = harness();
    const store = h.emulator.defaultWorkspace.store;
    const org = store.organizations.get('org_acme')!;
    store.organizations.put({ ...org, allowed_origins: ['new.acme.test'], branding: { color: null, logo_url: 'https://acme.test/logo.png' } });
    const res = await h.as(KEYS.owner).get('/v1/organization');
    expect(res.body.allowed_origins).toEqual(['new.acme.test']);
    expect(res.body.branding).toEqual({ color: null, logo_url: 'https://acme.test/logo.png' });
  });

  it('cannot be changed through the API (allowed_origins is dashboard-only)', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).patch('/v1/organization', { allowed_origins: ['evil.test'] });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain('GET');
    const after = await h.as(KEYS.owner).get('/v1/organization');
    expect(after.body.allowed_origins).toEqual(ACME.allowed_origins);
  });
});
