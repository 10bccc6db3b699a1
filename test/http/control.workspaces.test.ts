import { describe, expect, it } from 'vitest';
import { createBody, envelope, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { type KeyInfo, DEFAULT, FIXTURE_KEYS, FIXTURE_ONBOARDINGS, ISO, MINI, MINI_BODY, newWorkspace, keyFor, expectKeyInfo } from '../support/workspaces.js';

/** Workspaces on the control API: creating one (fixtures, seed, clock), listing and deleting them. */

describe('POST /_emulator/workspaces', () => {
  it('without a body: 201 with id, the fixture keys with a suffix, and the clock', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/workspaces');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['clock', 'id', 'keys']);
    const { id, keys, clock } = res.body as { id: string; keys: KeyInfo[]; clock: { now: string; mode: string } };
    expect(typeof id).toBe('string');
    expect(id).not.toBe('default');
    expect(clock.now).toMatch(ISO);
    expect(['realtime', 'frozen']).toContain(clock.mode);
    expect(keys).toHaveLength(FIXTURE_KEYS.length);
    const suffixes = new Set<string>();
    for (const fixture of DEFAULT.keys) {
      const info = keys.find((k) => k.name === fixture.name)!;
      expect(info, fixture.key).toBeDefined();
      expect(info.key.startsWith(fixture.key)).toBe(true);
      const suffix = info.key.slice(fixture.key.length);
      expect(suffix.length).toBeGreaterThan(0);
      suffixes.add(suffix);
      expectKeyInfo({ ...info }, fixture);
    }
    // One suffix for the whole workspace: `_` and 12 characters of its id (docs/decisions.md).
    expect(suffixes.size).toBe(1);
    const [suffix] = [...suffixes];
    expect(suffix).toMatch(/^_[A-Za-z0-9]{12}$/);
    expect(id.endsWith(suffix!.slice(1))).toBe(true);
    expect(new Set(keys.map((k) => k.key)).size).toBe(keys.length);
    for (const k of keys) expect(FIXTURE_KEYS).not.toContain(k.key);
  });

  it('gives every workspace its own keys', async () => {
    const h = harness();
    const a = await newWorkspace(h);
    const b = await newWorkspace(h);
    expect(a.id).not.toBe(b.id);
    const all = [...a.keys, ...b.keys].map((k) => k.key);
    expect(new Set(all).size).toBe(all.length);
  });

  it('a key of the new workspace works on /v1', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const org = await h.as(keyFor(ws, KEYS.owner)).get('/v1/organization');
    expect(org.status).toBe(200);
    expect(org.body.id).toBe('org_acme');
    const list = await h.as(keyFor(ws, KEYS.owner)).get('/v1/onboardings');
    expect(list.status).toBe(200);
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(FIXTURE_ONBOARDINGS);
    // The personas keep their behaviour in the new workspace.
    const noScopes = await h.as(keyFor(ws, KEYS.noscopes)).get('/v1/onboardings');
    expect(noScopes.status).toBe(403);
    const partner = await h.as(keyFor(ws, KEYS.hrsoft)).get('/v1/organization');
    expect(partner.status).toBe(400);
    expect(envelope(partner).code).toBe('service_organization_required');
  });

  it('isolates data: an onboarding made in one workspace is invisible in the other', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const wsOwner = keyFor(ws, KEYS.owner);

    const inNew = await h.as(wsOwner).post('/v1/onboardings', createBody({ reference: 'only-in-new' }));
    expect(inNew.status).toBe(201);
    const inDefault = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'only-in-default' }));
    expect(inDefault.status).toBe(201);

    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${inNew.body.id}`)).status).toBe(404);
    expect((await h.as(wsOwner).get(`/v1/onboardings/${inDefault.body.id}`)).status).toBe(404);
    expect((await h.as(wsOwner).get(`/v1/onboardings/${inNew.body.id}`)).status).toBe(200);

    const refsNew = (await h.as(wsOwner).get('/v1/onboardings')).body.data.map((o: { reference: string }) => o.reference);
    const refsDefault = (await h.as(KEYS.owner).get('/v1/onboardings')).body.data.map((o: { reference: string }) => o.reference);
    expect(refsNew).toContain('only-in-new');
    expect(refsNew).not.toContain('only-in-default');
    expect(refsDefault).toContain('only-in-default');
    expect(refsDefault).not.toContain('only-in-new');

    // The same fixture onboarding id lives in both; cancelling one leaves the other alone.
    expect((await h.as(wsOwner).post('/v1/onboardings/onb_demo_jansen/cancel')).status).toBe(200);
    expect((await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen')).body.status).toBe('pending_employee');

    const employeesNew = (await h.as(wsOwner).get('/v1/employees')).body.data;
    const employeesDefault = (await h.as(KEYS.owner).get('/v1/employees')).body.data;
    expect(employeesNew).toHaveLength(5);
    expect(employeesDefault).toHaveLength(5);
    expect(employeesNew[0].onboarding.id).toBe(inNew.body.id);
    expect(employeesDefault[0].onboarding.id).toBe(inDefault.body.id);
  });

  it('inherits the emulator clock options when the request gives none (docs/decisions.md)', async () => {
    const h = harness(); // the emulator runs frozen at FROZEN_START
    const ws = await newWorkspace(h);
    expect(ws.clock).toEqual({ now: FROZEN_START, mode: 'frozen' });
  });

  it('honours clock options', async () => {
    const h = harness();
    const ws = await newWorkspace(h, { clock: { mode: 'frozen', start: '2030-01-02T03:04:05.000Z' } });
    expect(ws.clock).toEqual({ now: '2030-01-02T03:04:05.000Z', mode: 'frozen' });
    const made = await h.as(keyFor(ws, KEYS.owner)).post('/v1/onboardings', createBody());
    expect(made.status).toBe(201);
    const read = await h.as(keyFor(ws, KEYS.owner)).get(`/v1/onboardings/${made.body.id}`);
    expect(read.body.created_at).toBe('2030-01-02T03:04:05.000Z');
  });

  it('with a posted fixtures document: only its keys and its data', async () => {
    const h = harness();
    const ws = await newWorkspace(h, { fixtures: MINI });
    expect(ws.keys).toHaveLength(1);
    const [info] = ws.keys;
    expect(info!.key.startsWith('hrs_test_mini_owner')).toBe(true);
    expect(info).toMatchObject({
      name: 'Mini owner', environment: 'test', organization_id: 'org_mini', partner_id: null,
      user: { id: 'usr_mini_owner', email: 'owner@mini.test', name: 'Mini Owner', roles: ['owner'] },
      scopes: MINI.keys[0]!.scopes, api_version: '2026-10-01',
    });
    const keys = await h.http().get(`/_emulator/workspaces/${ws.id}/keys`);
    expect(keys.body.data).toEqual(ws.keys);

    const org = await h.as(info!.key).get('/v1/organization');
    expect(org.status).toBe(200);
    expect(org.body).toEqual({
      id: 'org_mini', name: 'Mini B.V.',
      locations: [{ id: 'loc_mini_1', name: 'Office', city: 'Leiden' }],
      templates: [{ id: 'tpl_mini_1', name: 'Staff', contract_type: 'permanent', cao: 'None' }],
      branding: { color: null, logo_url: null },
      allowed_origins: [],
    });
    expect((await h.as(info!.key).get('/v1/onboardings')).body.data).toEqual([]);
    expect((await h.as(info!.key).get('/v1/employees')).body.data).toEqual([]);
    expect((await h.as(info!.key).post('/v1/onboardings', MINI_BODY)).status).toBe(201);
    // The default workspace is untouched and its keys still point there.
    expect((await h.as(KEYS.owner).get('/v1/organization')).body.id).toBe('org_acme');
  });

  it('with a posted fixtures document, none of the default personas exist in it', async () => {
    const h = harness();
    const ws = await newWorkspace(h, { fixtures: MINI });
    const suffix = ws.keys[0]!.key.slice('hrs_test_mini_owner'.length);
    const res = await h.as(`${KEYS.owner}${suffix}`).get('/v1/organization');
    expect(res.status).toBe(401);
  });

  it('refuses an invalid fixtures document with 422 fixtures_invalid, one detail per mistake, and creates nothing', async () => {
    const h = harness();
    const bad = {
      organizations: [{ ...MINI.organizations[0], name: undefined }],
      keys: [{ ...MINI.keys[0], scopes: ['organization:read', 'everything:write'] }],
    };
    const res = await h.http().post('/_emulator/workspaces').send({ fixtures: bad });
    expect(res.status).toBe(422);
    const e = envelope(res) as ReturnType<typeof envelope> & { details?: { path: string; message: string }[] };
    expect(e.type).toBe('invalid_request');
    expect(e.code).toBe('fixtures_invalid');
    expect(e.details).toHaveLength(2);
    const paths = e.details!.map((d) => d.path).sort();
    expect(paths).toEqual(['fixtures.keys[0].scopes[1]', 'fixtures.organizations[0].name']);
    for (const d of e.details!) {
      expect(Object.keys(d).sort()).toEqual(['message', 'path']);
      expect(d.message.length).toBeGreaterThan(0);
    }
    expect((await h.http().get('/_emulator/workspaces')).body.data).toHaveLength(1);
  });

  it('lists three schema mistakes as three details', async () => {
    const h = harness();
    const bad = {
      organizations: [{ ...MINI.organizations[0], name: undefined }],
      keys: [{ ...MINI.keys[0], key: 'sk_test_mini_owner', scopes: ['nope:read'] }],
    };
    const res = await h.http().post('/_emulator/workspaces').send({ fixtures: bad });
    expect(res.status).toBe(422);
    const details = (res.body.error.details as { path: string }[]).map((d) => d.path).sort();
    expect(details).toEqual(['fixtures.keys[0].key', 'fixtures.keys[0].scopes[0]', 'fixtures.organizations[0].name']);
  });

  it('reports cross-reference mistakes with their paths', async () => {
    const h = harness();
    const bad = {
      organizations: MINI.organizations,
      keys: [
        { ...MINI.keys[0], organization_id: 'org_missing' },
        { ...MINI.keys[0], key: 'hrs_test_mini_second', user_id: 'usr_nobody' },
      ],
    };
    const res = await h.http().post('/_emulator/workspaces').send({ fixtures: bad });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('fixtures_invalid');
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(['fixtures.keys[0].organization_id', 'fixtures.keys[1].user_id']);
  });

  it('reports a fixture onboarding whose request is invalid', async () => {
    const h = harness();
    const bad = {
      ...MINI,
      onboardings: [{ id: 'onb_mini_1', key: 'hrs_test_mini_owner', request: { ...MINI_BODY, employee: { first_name: 'A' } } }],
    };
    const res = await h.http().post('/_emulator/workspaces').send({ fixtures: bad });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('fixtures_invalid');
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths.some((p) => p.startsWith('fixtures.onboardings[0].request.employee'))).toBe(true);
    expect((await h.http().get('/_emulator/workspaces')).body.data).toHaveLength(1);
  });

  it('refuses unknown fields of the request itself with 422', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/workspaces').send({ fixture: MINI });
    expect(res.status).toBe(422);
    expect(envelope(res).type).toBe('invalid_request');
    expect((await h.http().get('/_emulator/workspaces')).body.data).toHaveLength(1);
  });
});

describe('GET and DELETE /_emulator/workspaces', () => {
  it('lists the default workspace and created ones', async () => {
    const h = harness();
    const first = await h.http().get('/_emulator/workspaces');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0]).toMatchObject({
      id: 'default',
      clock: { now: '2026-10-05T09:00:00.000Z', mode: 'frozen' },
      counts: { keys: FIXTURE_KEYS.length, onboardings: 4, employees: 4 },
    });
    const a = await newWorkspace(h);
    const b = await newWorkspace(h, { fixtures: MINI });
    const after = await h.http().get('/_emulator/workspaces');
    expect(after.body.data.map((w: { id: string }) => w.id)).toEqual(['default', a.id, b.id]);
    expect(after.body.data[2].counts).toEqual({ keys: 1, onboardings: 0, employees: 0 });
  });

  it('a workspace created_at is read from the workspace clock (docs/decisions.md)', async () => {
    const h = harness();
    const def = await h.http().get('/_emulator/workspaces/default');
    expect(def.body.created_at).toBe(FROZEN_START);
    const ws = await newWorkspace(h, { clock: { mode: 'frozen', start: '2031-05-06T07:08:09.000Z' } });
    const res = await h.http().get(`/_emulator/workspaces/${ws.id}`);
    expect(res.body.created_at).toBe('2031-05-06T07:08:09.000Z');
  });

  it('GET /_emulator/workspaces/:id describes one workspace; an unknown id is 404', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const res = await h.http().get(`/_emulator/workspaces/${ws.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.id, counts: { keys: FIXTURE_KEYS.length, onboardings: 4, employees: 4 } });
    expect(res.body.created_at).toMatch(ISO);
    expect(res.body.clock.mode).toBe(ws.clock.mode);
    const def = await h.http().get('/_emulator/workspaces/default');
    expect(def.status).toBe(200);
    expect(def.body.id).toBe('default');
    const unknown = await h.http().get('/_emulator/workspaces/ws_does_not_exist');
    expect(unknown.status).toBe(404);
    const e = envelope(unknown);
    expect(e.type).toBe('not_found');
    expect(e.code).toBe('workspace_not_found');
  });

  it('DELETE drops the workspace; its keys then get 401', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const key = keyFor(ws, KEYS.owner);
    expect((await h.as(key).get('/v1/organization')).status).toBe(200);
    const del = await h.http().delete(`/_emulator/workspaces/${ws.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: ws.id, deleted: true });
    for (const k of ws.keys) {
      const res = await h.as(k.key).get('/v1/organizations');
      expect(res.status, k.key).toBe(401);
      const e = envelope(res);
      expect(e.type).toBe('authentication_error');
      expect(e.code).toBe('api_key_invalid');
    }
    expect((await h.http().get(`/_emulator/workspaces/${ws.id}`)).status).toBe(404);
    const controlWithOldKey = await h.as(key).get('/_emulator/keys');
    expect(controlWithOldKey.status).toBe(401);
    expect(envelope(controlWithOldKey).code).toBe('api_key_invalid');
    const again = await h.http().delete(`/_emulator/workspaces/${ws.id}`);
    expect(again.status).toBe(404);
    expect(envelope(again).code).toBe('workspace_not_found');
    expect((await h.http().get('/_emulator/workspaces')).body.data.map((w: { id: string }) => w.id)).toEqual(['default']);
    // The default workspace is unaffected.
    expect((await h.as(KEYS.owner).get('/v1/organization')).status).toBe(200);
  });

  it('DELETE of an unknown workspace is 404', async () => {
    const h = harness();
    const res = await h.http().delete('/_emulator/workspaces/ws_nope');
    expect(res.status).toBe(404);
    const e = envelope(res);
    expect(e.type).toBe('not_found');
    expect(e.code).toBe('workspace_not_found');
  });

  it('DELETE of the default workspace is refused with 409 workspace_protected', async () => {
    const h = harness();
    const res = await h.http().delete('/_emulator/workspaces/default');
    expect(res.status).toBe(409);
    const e = envelope(res);
    expect(e.type).toBe('conflict');
    expect(e.code).toBe('workspace_protected');
    expect((await h.as(KEYS.owner).get('/v1/organization')).status).toBe(200);
    expect((await h.http().get('/_emulator/workspaces/default')).status).toBe(200);
  });
});
