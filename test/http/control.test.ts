import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBody, envelope, FROZEN_START, harness, KEYS } from '../support/harness.js';

type H = ReturnType<typeof harness>;

interface FixtureKey {
  key: string;
  name: string;
  organization_id: string;
  user_id?: string | null;
  scopes: string[];
}
interface FixtureUser {
  id: string;
  name: string;
  email: string;
  roles: string[];
}
interface KeyInfo {
  key: string;
  name: string;
  environment: string;
  organization_id: string;
  partner_id: string | null;
  user: { id: string; email: string; name: string; roles: string[] } | null;
  scopes: string[];
  api_version: string;
}

const DEFAULT = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
  organizations: { id: string; users?: FixtureUser[] }[];
  partners: { id: string; users?: FixtureUser[] }[];
  keys: FixtureKey[];
};
const FIXTURE_KEYS = DEFAULT.keys.map((k) => k.key);
const PARTNER_IDS = new Set(DEFAULT.partners.map((p) => p.id));
const USERS = new Map<string, FixtureUser>(
  [...DEFAULT.organizations, ...DEFAULT.partners].flatMap((o) => (o.users ?? []).map((u) => [u.id, u] as const)),
);

/** GET /v1/onboardings of Acme's owner key on the default fixtures, newest first (two staff onboardings, completed at load, then the two open ones). */
const FIXTURE_ONBOARDINGS = ['onb_demo_partner', 'onb_demo_jansen', 'onb_acme_daan', 'onb_acme_sanne'];

const KEY_FIELDS = ['api_version', 'environment', 'key', 'name', 'organization_id', 'partner_id', 'scopes', 'user'];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A minimal valid fixtures document: one employer, one user, one key. */
const MINI = {
  organizations: [
    {
      id: 'org_mini',
      name: 'Mini B.V.',
      locations: [{ id: 'loc_mini_1', name: 'Office', city: 'Leiden' }],
      templates: [{ id: 'tpl_mini_1', name: 'Staff', contract_type: 'permanent', cao: 'None', approval_roles: ['owner'] }],
      users: [{ id: 'usr_mini_owner', name: 'Mini Owner', email: 'owner@mini.test', roles: ['owner'] }],
    },
  ],
  keys: [
    {
      key: 'hrs_test_mini_owner',
      name: 'Mini owner',
      organization_id: 'org_mini',
      user_id: 'usr_mini_owner',
      scopes: ['organization:read', 'onboardings:read', 'onboardings:write', 'employees:read'],
    },
  ],
};

const MINI_BODY = createBody({
  employment: {
    position: 'Clerk', start_date: '2027-02-01', location_id: 'loc_mini_1', template_id: 'tpl_mini_1', hours_per_week: 8, hourly_wage_cents: 1500,
  },
});

async function newWorkspace(h: H, body?: object) {
  const req = h.http().post('/_emulator/workspaces');
  const res = await (body === undefined ? req : req.send(body));
  expect(res.status).toBe(201);
  return res.body as { id: string; keys: KeyInfo[]; clock: { now: string; mode: string } };
}

/** The workspace key that stands for a fixture key. */
function keyFor(ws: { keys: KeyInfo[] }, fixtureKey: string): string {
  const k = ws.keys.find((x) => x.key.startsWith(fixtureKey) && x.name === DEFAULT.keys.find((f) => f.key === fixtureKey)!.name);
  expect(k, fixtureKey).toBeDefined();
  return k!.key;
}

function expectKeyInfo(info: KeyInfo, fixture: FixtureKey) {
  expect(Object.keys(info).sort()).toEqual(KEY_FIELDS);
  expect(info.name).toBe(fixture.name);
  expect(info.environment).toBe(fixture.key.startsWith('hrs_live_') ? 'live' : 'test');
  expect(info.organization_id).toBe(fixture.organization_id);
  expect(info.partner_id).toBe(PARTNER_IDS.has(fixture.organization_id) ? fixture.organization_id : null);
  expect(info.scopes).toEqual(fixture.scopes);
  expect(info.api_version).toBe('2026-10-01');
  if (fixture.user_id) {
    const u = USERS.get(fixture.user_id)!;
    expect(info.user).toEqual({ id: u.id, email: u.email, name: u.name, roles: u.roles });
  } else {
    expect(info.user).toBeNull();
  }
}

describe('GET /_emulator/health', () => {
  it('answers ok with the version, start time and number of workspaces', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', workspaces: 1 });
    expect(typeof res.body.version).toBe('string');
    expect(res.body.started_at).toMatch(ISO);
    await newWorkspace(h);
    expect((await h.http().get('/_emulator/health')).body.workspaces).toBe(2);
  });

  it('needs no key, and ignores a key from any workspace', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});

describe('GET /_emulator/keys', () => {
  it('lists every fixture key of the default workspace in the agreed shape', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/keys');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const data = res.body.data as KeyInfo[];
    expect(data.map((k) => k.key).sort()).toEqual([...FIXTURE_KEYS].sort());
    for (const fixture of DEFAULT.keys) expectKeyInfo(data.find((k) => k.key === fixture.key)!, fixture);
  });

  it('marks partner keys with partner_id and employer keys with null', async () => {
    const h = harness();
    const data = (await h.http().get('/_emulator/keys')).body.data as KeyInfo[];
    const byKey = new Map(data.map((k) => [k.key, k]));
    expect(byKey.get(KEYS.hrsoft)!.partner_id).toBe('org_hrsoft');
    expect(byKey.get(KEYS.payflow)!.partner_id).toBe('org_payflow');
    expect(byKey.get(KEYS.payflow)!.user).toBeNull();
    expect(byKey.get(KEYS.owner)).toMatchObject({
      organization_id: 'org_acme', partner_id: null, environment: 'test',
      user: { id: 'usr_acme_olivia', email: 'olivia.owner@acme.test', name: 'Olivia Owner', roles: ['owner'] },
    });
    expect(byKey.get(KEYS.live)!.environment).toBe('live');
    expect(byKey.get(KEYS.noscopes)!.scopes).toEqual([]);
    expect(byKey.get(KEYS.dual)!.user!.roles.sort()).toEqual(['manager', 'owner']);
  });

  it('selects the workspace of the bearer key', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const res = await h.as(ws.keys[0]!.key).get('/_emulator/keys');
    expect(res.status).toBe(200);
    expect((res.body.data as KeyInfo[]).map((k) => k.key).sort()).toEqual(ws.keys.map((k) => k.key).sort());
    const viaDefaultKey = await h.as(KEYS.noscopes).get('/_emulator/keys');
    expect((viaDefaultKey.body.data as KeyInfo[]).map((k) => k.key).sort()).toEqual([...FIXTURE_KEYS].sort());
  });

  it('refuses a bearer key that belongs to no workspace with 401', async () => {
    const h = harness();
    const res = await h.as('hrs_test_belongs_nowhere').get('/_emulator/keys');
    expect(res.status).toBe(401);
    expect(envelope(res).type).toBe('authentication_error');
  });

  it('is served per workspace under /_emulator/workspaces/:id/keys', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const res = await h.http().get(`/_emulator/workspaces/${ws.id}/keys`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(ws.keys);
    const def = await h.http().get('/_emulator/workspaces/default/keys');
    expect(def.status).toBe(200);
    expect((def.body.data as KeyInfo[]).map((k) => k.key).sort()).toEqual([...FIXTURE_KEYS].sort());
    const unknown = await h.http().get('/_emulator/workspaces/ws_nope/keys');
    expect(unknown.status).toBe(404);
    expect(envelope(unknown).type).toBe('not_found');
  });
});

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

describe('POST /_emulator/reset', () => {
  it('restores the fixtures of the default workspace', async () => {
    const h = harness();
    const made = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(made.status).toBe(201);
    const cancelled = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel');
    expect(cancelled.body.status).toBe('cancelled');
    await h.as(KEYS.owner).patch('/v1/onboardings/onb_demo_partner', { reference: 'changed' });

    const res = await h.http().post('/_emulator/reset');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'default', reset: true, counts: { keys: FIXTURE_KEYS.length, onboardings: 4, employees: 4 } });

    const gone = await h.as(KEYS.owner).get(`/v1/onboardings/${made.body.id}`);
    expect(gone.status).toBe(404);
    const jansen = await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_jansen');
    expect(jansen.status).toBe(200);
    expect(jansen.body.status).toBe('pending_employee');
    expect(jansen.body.hosted_link.status).toBe('open');
    const partner = await h.as(KEYS.owner).get('/v1/onboardings/onb_demo_partner');
    expect(partner.body.reference).toBe('hrsoft-1001');
    const list = await h.as(KEYS.owner).get('/v1/onboardings');
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(FIXTURE_ONBOARDINGS);
    expect(list.body.data.map((o: { status: string }) => o.status)).toEqual(['pending_employee', 'pending_employee', 'completed', 'completed']);
    expect((await h.as(KEYS.owner).get('/v1/employees')).body.data).toHaveLength(4);
  });

  it('puts the clock back where it was at creation', async () => {
    const h = harness();
    h.emulator.defaultWorkspace.clock.advance(3 * 60 * 60 * 1000);
    expect((await h.http().get('/_emulator/workspaces/default')).body.clock.now).toBe('2026-10-05T12:00:00.000Z');
    const res = await h.http().post('/_emulator/reset');
    expect(res.body.clock).toEqual({ now: FROZEN_START, mode: 'frozen' });
    const made = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${made.body.id}`)).body.created_at).toBe(FROZEN_START);
  });

  it('restores changed organization records too', async () => {
    const h = harness();
    const store = h.emulator.defaultWorkspace.store;
    const partner = store.organizations.get('org_payflow')!;
    store.organizations.put({ ...partner, admitted_by: partner.admitted_by.map((a) => ({ ...a, active: false })) });
    expect((await h.as(KEYS.payflow).get('/v1/organization')).status).toBe(403);
    expect((await h.http().post('/_emulator/reset')).status).toBe(200);
    expect((await h.as(KEYS.payflow).get('/v1/organization')).status).toBe(200);
  });

  it('accepts an empty JSON object and refuses unknown fields', async () => {
    const h = harness();
    expect((await h.http().post('/_emulator/reset').send({})).status).toBe(200);
    const res = await h.http().post('/_emulator/reset').send({ everything: true });
    expect(res.status).toBe(422);
    expect(envelope(res).type).toBe('invalid_request');
  });

  it('resets only the selected workspace (by path or by bearer key)', async () => {
    const h = harness();
    const ws = await newWorkspace(h);
    const wsOwner = keyFor(ws, KEYS.owner);
    const inNew = await h.as(wsOwner).post('/v1/onboardings', createBody());
    const inDefault = await h.as(KEYS.owner).post('/v1/onboardings', createBody());

    const byPath = await h.http().post(`/_emulator/workspaces/${ws.id}/reset`);
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(ws.id);
    expect((await h.as(wsOwner).get(`/v1/onboardings/${inNew.body.id}`)).status).toBe(404);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${inDefault.body.id}`)).status).toBe(200);
    // The workspace keeps its keys after a reset.
    expect((await h.as(wsOwner).get('/v1/organization')).status).toBe(200);

    const again = await h.as(wsOwner).post('/v1/onboardings', createBody());
    const byKey = await h.as(wsOwner).post('/_emulator/reset');
    expect(byKey.status).toBe(200);
    expect(byKey.body.id).toBe(ws.id);
    expect((await h.as(wsOwner).get(`/v1/onboardings/${again.body.id}`)).status).toBe(404);
    expect((await h.as(KEYS.owner).get(`/v1/onboardings/${inDefault.body.id}`)).status).toBe(200);
  });

  it('resets a workspace made from a posted fixtures document back to that document', async () => {
    const h = harness();
    const ws = await newWorkspace(h, { fixtures: MINI });
    const key = ws.keys[0]!.key;
    expect((await h.as(key).post('/v1/onboardings', MINI_BODY)).status).toBe(201);
    expect((await h.as(key).get('/v1/onboardings')).body.data).toHaveLength(1);
    const res = await h.http().post(`/_emulator/workspaces/${ws.id}/reset`);
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ keys: 1, onboardings: 0, employees: 0 });
    expect((await h.as(key).get('/v1/onboardings')).body.data).toEqual([]);
    expect((await h.as(key).get('/v1/organization')).body.id).toBe('org_mini');
  });

  it('a reset of an unknown workspace is 404', async () => {
    const h = harness();
    const res = await h.http().post('/_emulator/workspaces/ws_nope/reset');
    expect(res.status).toBe(404);
    expect(envelope(res).type).toBe('not_found');
  });
});
