import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { createBody, type Harness } from './harness.js';

/**
 * Shared by the control API tests of keys and workspaces (test/http/control.*.test.ts): the
 * default fixtures as shipped, the key shape, a minimal fixtures document, and a new workspace.
 */

export interface FixtureKey {
  key: string;
  name: string;
  organization_id: string;
  user_id?: string | null;
  scopes: string[];
}
export interface FixtureUser {
  id: string;
  name: string;
  email: string;
  roles: string[];
}
export interface KeyInfo {
  key: string;
  name: string;
  environment: string;
  organization_id: string;
  partner_id: string | null;
  user: { id: string; email: string; name: string; roles: string[] } | null;
  scopes: string[];
  api_version: string;
}

export const DEFAULT = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as {
  organizations: { id: string; users?: FixtureUser[] }[];
  partners: { id: string; users?: FixtureUser[] }[];
  keys: FixtureKey[];
};
export const FIXTURE_KEYS = DEFAULT.keys.map((k) => k.key);
const PARTNER_IDS = new Set(DEFAULT.partners.map((p) => p.id));
const USERS = new Map<string, FixtureUser>(
  [...DEFAULT.organizations, ...DEFAULT.partners].flatMap((o) => (o.users ?? []).map((u) => [u.id, u] as const)),
);

/** GET /v1/onboardings of Acme's owner key on the default fixtures, newest first (two staff onboardings, completed at load, then the two open ones). */
export const FIXTURE_ONBOARDINGS = ['onb_demo_partner', 'onb_demo_jansen', 'onb_acme_daan', 'onb_acme_sanne'];

const KEY_FIELDS = ['api_version', 'environment', 'key', 'name', 'organization_id', 'partner_id', 'scopes', 'user'];
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A minimal valid fixtures document: one employer, one user, one key. */
export const MINI = {
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

export const MINI_BODY = createBody({
  employment: {
    position: 'Clerk', start_date: '2027-02-01', location_id: 'loc_mini_1', template_id: 'tpl_mini_1', hours_per_week: 8, hourly_wage_cents: 1500,
  },
});

export async function newWorkspace(h: Harness, body?: object) {
  const req = h.http().post('/_emulator/workspaces');
  const res = await (body === undefined ? req : req.send(body));
  expect(res.status).toBe(201);
  return res.body as { id: string; keys: KeyInfo[]; clock: { now: string; mode: string } };
}

/** The workspace key that stands for a fixture key. */
export function keyFor(ws: { keys: KeyInfo[] }, fixtureKey: string): string {
  const k = ws.keys.find((x) => x.key.startsWith(fixtureKey) && x.name === DEFAULT.keys.find((f) => f.key === fixtureKey)!.name);
  expect(k, fixtureKey).toBeDefined();
  return k!.key;
}

export function expectKeyInfo(info: KeyInfo, fixture: FixtureKey) {
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
