import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envelope, harness, KEYS } from '../support/harness.js';
import { type KeyInfo, DEFAULT, FIXTURE_KEYS, ISO, newWorkspace, expectKeyInfo } from '../support/workspaces.js';

/** The control API's health check and its list of the default workspace's keys. */

describe('GET /_emulator/health', () => {
  it('answers ok with the version, start time and number of workspaces', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', workspaces: 1 });
    // The package's own version, written in package.json only.
    expect(res.body.version).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
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
