import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { FixturesError, parseFixtures, readFixturesFile, type FixtureMistake } from '../../src/fixtures/fixtures.load.js';
import type { FixturesDocument } from '../../src/fixtures/fixtures.schemas.js';

const DEFAULT_PATH = new URL('../../fixtures/default.json', import.meta.url);
const DEFAULT_TEXT = readFileSync(DEFAULT_PATH, 'utf8');

const ALL_SCOPES = [
  'approvals:read', 'approvals:write', 'contracts:write', 'documents:read', 'employees:read', 'integrations:read',
  'onboardings:read', 'onboardings:write', 'organization:read', 'reviews:embed', 'webhooks:manage',
];
const REVIEW_ROLES = ['manager', 'payroll_reviewer', 'owner'];

/** A small valid document, as plain data; tests break one thing at a time. */
function base() {
  return {
    organizations: [
      {
        id: 'org_one',
        name: 'One B.V.',
        locations: [{ id: 'loc_one', name: 'HQ', city: 'Zwolle' }],
        templates: [{ id: 'tpl_one', name: 'Staff', contract_type: 'permanent', cao: 'None', approval_roles: ['manager', 'owner'] }],
        users: [
          { id: 'usr_one_owner', name: 'Owner', email: 'owner@one.test', roles: ['owner'] },
          { id: 'usr_one_manager', name: 'Manager', email: 'manager@one.test', roles: ['manager'] },
        ],
      },
      {
        id: 'org_two',
        name: 'Two B.V.',
        locations: [{ id: 'loc_two', name: 'Shop', city: 'Assen' }],
        templates: [{ id: 'tpl_two', name: 'Staff', contract_type: 'on_call', cao: 'None', approval_roles: ['owner'] }],
        users: [{ id: 'usr_two_owner', name: 'Owner Two', email: 'owner@two.test', roles: ['owner'] }],
      },
    ],
    partners: [
      {
        id: 'org_partner',
        name: 'Partner',
        admitted_by: [{ organization_id: 'org_one', scopes: ['organization:read', 'onboardings:read'] }],
      },
    ],
    keys: [
      { key: 'hrs_test_one_owner', name: 'One owner', organization_id: 'org_one', user_id: 'usr_one_owner', scopes: ['organization:read', 'onboardings:write'] },
      { key: 'hrs_test_partner', name: 'Partner key', organization_id: 'org_partner', scopes: ['organization:read'] },
    ],
    onboardings: [
      {
        id: 'onb_one_a', key: 'hrs_test_one_owner', employee_id: 'emp_one_a', completed: true,
        request: {
          employee: { first_name: 'A', last_name: 'B', email: 'a.b@one.test' },
          employment: { position: 'Clerk', start_date: '2024-01-01', location_id: 'loc_one', template_id: 'tpl_one', hours_per_week: 20, hourly_wage_cents: 1500 },
        } as unknown,
      },
    ],
  };
}

type Doc = ReturnType<typeof base>;

const parse = (doc: unknown) => parseFixtures(JSON.stringify(doc), 'test.json');

/** The mistakes a text is refused with; fails the test when it is accepted. */
function mistakesOf(text: string): FixtureMistake[] {
  try {
    parseFixtures(text, 'test-source');
  } catch (err) {
    expect(err).toBeInstanceOf(FixturesError);
    const e = err as FixturesError;
    expect(e.mistakes.length).toBeGreaterThan(0);
    return e.mistakes;
  }
  throw new Error('the document was accepted');
}

const mistakesOfDoc = (doc: unknown) => mistakesOf(JSON.stringify(doc));
const pathsOf = (mistakes: FixtureMistake[]) => mistakes.map((m) => m.path).sort();

function edit(fn: (d: Doc) => void): Doc {
  const d = base();
  fn(d);
  return d;
}

describe('parseFixtures: accepting documents', () => {
  it('accepts the base document used by these tests', () => {
    const doc = parse(base());
    expect(doc.organizations.map((o) => o.id)).toEqual(['org_one', 'org_two']);
  });

  it('accepts fixtures/default.json as it ships', () => {
    const doc = parseFixtures(DEFAULT_TEXT, 'default.json');
    expect(doc).toEqual(JSON.parse(DEFAULT_TEXT));
    expect(doc.organizations.length).toBeGreaterThanOrEqual(3);
    expect(doc.keys.length).toBeGreaterThanOrEqual(10);
  });

  it('accepts default.json read from its file', () => {
    const doc = readFixturesFile(DEFAULT_PATH.pathname);
    expect(doc).toEqual(JSON.parse(DEFAULT_TEXT));
  });

  it('accepts a hand-written YAML document', () => {
    const yaml = [
      '# a YAML fixtures document',
      'organizations:',
      '  - id: org_yaml',
      '    name: "YAML B.V."',
      '    subscription: trial',
      '    trial_ends_at: 2027-01-01T00:00:00Z',
      '    api_approvals: true',
      '    locations:',
      '      - { id: loc_yaml, name: Office, city: Gouda }',
      '    templates:',
      '      - id: tpl_yaml',
      '        name: Staff',
      '        contract_type: fixed_term',
      '        cao: Cheese',
      '        approval_roles: [manager, owner]',
      '    users:',
      '      - id: usr_yaml',
      '        name: Yara',
      '        email: yara@yaml.test',
      '        roles: [owner, manager]',
      'keys:',
      '  - key: hrs_test_yaml_owner',
      '    name: YAML owner',
      '    organization_id: org_yaml',
      '    user_id: usr_yaml',
      '    scopes:',
      '      - organization:read',
      '      - onboardings:write',
      '',
    ].join('\n');
    const doc = parseFixtures(yaml, 'fixtures.yaml');
    expect(doc).toEqual({
      organizations: [
        {
          id: 'org_yaml',
          name: 'YAML B.V.',
          subscription: 'trial',
          trial_ends_at: '2027-01-01T00:00:00Z',
          api_approvals: true,
          locations: [{ id: 'loc_yaml', name: 'Office', city: 'Gouda' }],
          templates: [{ id: 'tpl_yaml', name: 'Staff', contract_type: 'fixed_term', cao: 'Cheese', approval_roles: ['manager', 'owner'] }],
          users: [{ id: 'usr_yaml', name: 'Yara', email: 'yara@yaml.test', roles: ['owner', 'manager'] }],
        },
      ],
      keys: [{ key: 'hrs_test_yaml_owner', name: 'YAML owner', organization_id: 'org_yaml', user_id: 'usr_yaml', scopes: ['organization:read', 'onboardings:write'] }],
    });
  });

  it('accepts default.json converted to YAML, with the same content', () => {
    const yaml = toYaml(JSON.parse(DEFAULT_TEXT));
    expect(yaml).not.toContain('{"');
    expect(parseFixtures(yaml, 'default.yaml')).toEqual(JSON.parse(DEFAULT_TEXT));
  });

  it('reports mistakes in a YAML document with the same paths as in JSON', () => {
    const doc = edit((d) => {
      (d.organizations[0] as { name?: string }).name = undefined;
    });
    const fromYaml = mistakesOf(toYaml(JSON.parse(JSON.stringify(doc))));
    const fromJson = mistakesOfDoc(doc);
    expect(pathsOf(fromYaml)).toEqual(['organizations[0].name']);
    expect(pathsOf(fromYaml)).toEqual(pathsOf(fromJson));
  });
});

describe('parseFixtures: schema mistakes, each with its path', () => {
  it('a missing name', () => {
    const m = mistakesOfDoc(edit((d) => {
      delete (d.organizations[1] as { name?: string }).name;
    }));
    expect(m).toHaveLength(1);
    expect(m[0]!.path).toBe('organizations[1].name');
    expect(m[0]!.message).toMatch(/required/);
  });

  it('a key with a bad prefix', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.key = 'sk_live_one_owner';
    }));
    expect(pathsOf(m)).toEqual(['keys[0].key']);
  });

  it.each(['hrs_prod_one_owner', 'hrs_test_', 'hrs_test_x', 'hrs_test_has space', 'HRS_TEST_one_owner'])('a bad key %j', (key) => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.key = key;
    }));
    expect(pathsOf(m)).toEqual(['keys[0].key']);
  });

  it('an unknown scope on a key and in a partner admission', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[1]!.scopes = ['organization:read', 'onboardings:delete'];
      d.partners[0]!.admitted_by[0]!.scopes = ['everything'];
    }));
    expect(pathsOf(m)).toEqual(['keys[1].scopes[1]', 'partners[0].admitted_by[0].scopes[0]']);
    for (const x of m) expect(x.message).toContain('organization:read');
  });

  it('every mistake of the document at once', () => {
    const m = mistakesOfDoc(edit((d) => {
      delete (d.organizations[0] as { name?: string }).name;
      d.keys[0]!.key = 'bad_key_value';
      d.keys[1]!.scopes = ['nope'];
      (d.organizations[1]!.templates[0] as { contract_type: string }).contract_type = 'freelance';
      (d.organizations[1]!.users[0] as { roles: string[] }).roles = ['ceo'];
      (d.onboardings[0] as { employee_id: string }).employee_id = 'staff_1';
    }));
    expect(pathsOf(m)).toEqual([
      'keys[0].key',
      'keys[1].scopes[0]',
      'onboardings[0].employee_id',
      'organizations[0].name',
      'organizations[1].templates[0].contract_type',
      'organizations[1].users[0].roles[0]',
    ]);
    for (const x of m) expect(x.message.length).toBeGreaterThan(0);
  });

  it('the FixturesError message names the source and lists every mistake', () => {
    try {
      parseFixtures(JSON.stringify(edit((d) => {
        delete (d.organizations[0] as { name?: string }).name;
        d.keys[0]!.key = 'nope';
      })), 'my-fixtures.json');
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(FixturesError);
      const text = (err as Error).message;
      expect(text).toContain('my-fixtures.json');
      expect(text).toContain('organizations[0].name');
      expect(text).toContain('keys[0].key');
    }
  });

  it('unknown fields, wrong id prefixes, an e-mail that is not one, empty lists', () => {
    const m = mistakesOfDoc(edit((d) => {
      (d.organizations[0] as Record<string, unknown>).colour = 'red';
      d.organizations[1]!.locations[0]!.id = 'location_two';
      d.organizations[0]!.users[0]!.email = 'not-an-email';
      (d.organizations[1] as { templates: unknown[] }).templates = [];
    }));
    expect(pathsOf(m)).toEqual([
      'organizations[0].colour',
      'organizations[0].users[0].email',
      'organizations[1].locations[0].id',
      'organizations[1].templates',
    ]);
  });

  it('a document without organizations or keys', () => {
    const m = mistakesOfDoc({});
    expect(pathsOf(m)).toEqual(['keys', 'organizations']);
  });

  it('a document that is not an object', () => {
    for (const text of ['[]', '42', '"text"', 'null', '']) {
      const m = mistakesOf(text);
      expect(m.length, text).toBeGreaterThan(0);
      expect(m[0]!.path, text).toBe('');
    }
  });
});

describe('parseFixtures: cross references', () => {
  it('duplicate ids of organizations, users, keys, locations, employees', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.organizations[1]!.id = 'org_one';
      d.organizations[1]!.users[0]!.id = 'usr_one_owner';
      d.keys[1]!.key = 'hrs_test_one_owner';
      d.keys[1]!.organization_id = 'org_one';
      d.organizations[0]!.locations.push({ id: 'loc_one', name: 'Again', city: 'Zwolle' });
      d.onboardings.push({ ...d.onboardings[0]! });
    }));
    const paths = pathsOf(m);
    expect(paths).toContain('organizations[1].id');
    expect(paths).toContain('organizations[1].users[0].id');
    expect(paths).toContain('keys[1].key');
    expect(paths).toContain('organizations[0].locations[1].id');
    expect(paths).toContain('onboardings[1].id');
    expect(paths).toContain('onboardings[1].employee_id');
    for (const x of m.filter((y) => y.path.endsWith('.id') || y.path.endsWith('.key'))) expect(x.message).toMatch(/duplicate/);
  });

  it('a partner id that repeats an employer id', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.partners[0]!.id = 'org_two';
      d.keys[1]!.organization_id = 'org_two';
    }));
    expect(pathsOf(m)).toContain('partners[0].id');
  });

  it('a key pointing to an unknown organization', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.organization_id = 'org_ghost';
    }));
    expect(pathsOf(m)).toEqual(['keys[0].organization_id']);
    expect(m[0]!.message).toContain('org_ghost');
  });

  it('a key acting as a user of another organization', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.user_id = 'usr_two_owner';
    }));
    expect(pathsOf(m)).toEqual(['keys[0].user_id']);
    expect(m[0]!.message).toContain('usr_two_owner');
  });

  it('a key acting as a user that does not exist', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.user_id = 'usr_nobody';
    }));
    expect(pathsOf(m)).toEqual(['keys[0].user_id']);
  });

  it('allowed_origins entries that name no host, on an employer and on a partner (a padded one is kept)', () => {
    const m = mistakesOfDoc(edit((d) => {
      (d.organizations[0] as { allowed_origins?: string[] }).allowed_origins = [' shop.example.com', 'a b'];
      (d.partners[0] as { allowed_origins?: string[] }).allowed_origins = ["x; script-src 'unsafe-inline'"];
    }));
    expect(pathsOf(m)).toEqual(['organizations[0].allowed_origins[1]', 'partners[0].allowed_origins[0]']);
    expect(m[0]!.message).toContain('names no host');
  });

  it('a partner admitted by an unknown organization', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.partners[0]!.admitted_by.push({ organization_id: 'org_ghost', scopes: [] });
    }));
    expect(pathsOf(m)).toEqual(['partners[0].admitted_by[1].organization_id']);
    expect(m[0]!.message).toContain('org_ghost');
  });

  it('a partner admitted by a partner instead of an employer', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.partners.push({ id: 'org_partner_two', name: 'P2', admitted_by: [{ organization_id: 'org_partner', scopes: [] }] });
    }));
    expect(pathsOf(m)).toEqual(['partners[1].admitted_by[0].organization_id']);
  });

  it('an employee listed apart from an onboarding: every employee has the onboarding it came from', () => {
    const doc = {
      ...base(),
      employees: [{ id: 'emp_one_b', organization_id: 'org_one', first_name: 'A', last_name: 'B', position: 'Clerk', location_id: 'loc_one', start_date: '2024-01-01' }],
    };
    const m = mistakesOfDoc(doc);
    expect(pathsOf(m)).toEqual(['employees']);
    expect(m[0]!.message).toMatch(/exists only through its onboarding.*employee_id.*completed: true/);
  });

  it('a fixture onboarding made with a key the document does not have', () => {
    const doc = { ...base(), onboardings: [{ id: 'onb_x', key: 'hrs_test_missing', request: {} }] };
    const m = mistakesOfDoc(doc);
    expect(pathsOf(m)).toEqual(['onboardings[0].key']);
  });

  it('every cross-reference mistake at once', () => {
    const m = mistakesOfDoc(edit((d) => {
      d.keys[0]!.organization_id = 'org_ghost';
      d.keys[1]!.user_id = 'usr_one_owner';
      d.partners[0]!.admitted_by[0]!.organization_id = 'org_ghost';
      d.organizations[1]!.users[0]!.id = 'usr_one_manager';
    }));
    expect(pathsOf(m)).toEqual([
      'keys[0].organization_id',
      'keys[1].user_id',
      'organizations[1].users[0].id',
      'partners[0].admitted_by[0].organization_id',
    ]);
  });
});

describe('parseFixtures: text that is neither JSON nor YAML', () => {
  it.each([
    ['unterminated JSON', '{"organizations": ['],
    ['JSON with a trailing brace', '{"organizations": []}}'],
    ['YAML with broken indentation', 'organizations:\n  - id: org_a\n   name: x\n'],
    ['YAML with an unclosed quote', 'organizations:\n  - id: "org_a\n'],
    ['YAML with a duplicate key', 'keys: []\nkeys: []\norganizations: []\n'],
    ['a tab-indented YAML block', 'organizations:\n\t- id: org_a\n'],
  ])('%s is reported as one mistake of the document', (_label, text) => {
    const m = mistakesOf(text);
    expect(m).toHaveLength(1);
    expect(m[0]!.path).toBe('');
    expect(m[0]!.message).toMatch(/JSON or YAML/);
    // The message stays on one line: no parser dump or stack.
    expect(m[0]!.message).not.toContain('\n');
  });

  it('a file that cannot be read is a FixturesError naming the file', () => {
    expect(() => readFixturesFile('/nonexistent/fixtures.json')).toThrow(FixturesError);
    expect(() => readFixturesFile('/nonexistent/fixtures.json')).toThrow(/nonexistent\/fixtures\.json/);
  });
});

describe("fixtures/default.json holds the personas the tests and the README's well-known keys rely on", () => {
  const doc: FixturesDocument = parseFixtures(DEFAULT_TEXT, 'default.json');
  const employers = new Map(doc.organizations.map((o) => [o.id, o]));
  const partners = new Map((doc.partners ?? []).map((p) => [p.id, p]));
  const users = new Map(
    [...doc.organizations, ...(doc.partners ?? [])].flatMap((o) => (o.users ?? []).map((u) => [u.id, { ...u, organization_id: o.id }] as const)),
  );
  const testKey = (k: { key: string }) => k.key.startsWith('hrs_test_');
  const fullScope = (k: { scopes: readonly string[] }) => ALL_SCOPES.every((s) => k.scopes.includes(s));
  const employerKeys = doc.keys.filter((k) => employers.has(k.organization_id));

  it('an employer with a subscription and API approvals on, whose owner, manager and payroll reviewer are three people, each with a full-scope test key', () => {
    const found = doc.organizations.filter((o) => {
      if ((o.subscription ?? 'active') !== 'active' || o.api_approvals !== true) return false;
      const keyed = (role: string) =>
        doc.keys.filter(
          (k) => k.organization_id === o.id && testKey(k) && fullScope(k) && k.user_id &&
            users.get(k.user_id)!.roles.length === 1 && users.get(k.user_id)!.roles[0] === role,
        ).map((k) => k.user_id);
      const [owner, manager, payroll] = [keyed('owner'), keyed('manager'), keyed('payroll_reviewer')];
      return owner.length > 0 && manager.length > 0 && payroll.length > 0 && new Set([owner[0], manager[0], payroll[0]]).size === 3;
    });
    expect(found.map((o) => o.id)).toContain('org_acme');
  });

  it('the well-known owner, manager and payroll keys are those three people', () => {
    const roleOf = (key: string) => {
      const k = doc.keys.find((x) => x.key === key)!;
      expect(fullScope(k)).toBe(true);
      return users.get(k.user_id!)!;
    };
    const owner = roleOf('hrs_test_acme_owner');
    const manager = roleOf('hrs_test_acme_manager');
    const payroll = roleOf('hrs_test_acme_payroll');
    expect(owner.roles).toEqual(['owner']);
    expect(manager.roles).toEqual(['manager']);
    expect(payroll.roles).toEqual(['payroll_reviewer']);
    expect(new Set([owner.id, manager.id, payroll.id]).size).toBe(3);
  });

  it('a key with only read scopes', () => {
    const readonly = doc.keys.filter((k) => k.scopes.length > 0 && k.scopes.every((s) => s.endsWith(':read')));
    expect(readonly.map((k) => k.key)).toContain('hrs_test_acme_readonly');
    const k = readonly.find((x) => x.key === 'hrs_test_acme_readonly')!;
    expect(k.scopes).toContain('onboardings:read');
    expect(k.scopes).toContain('organization:read');
  });

  it('a key with no scopes', () => {
    const none = doc.keys.filter((k) => k.scopes.length === 0 && testKey(k));
    expect(none.map((k) => k.key)).toContain('hrs_test_acme_noscopes');
  });

  it('an API partner admitted by two employers, with a key (that needs Service-Organization)', () => {
    const two = [...partners.values()].filter(
      (p) => p.admitted_by.filter((a) => a.active !== false && employers.has(a.organization_id)).length >= 2,
    );
    expect(two.length).toBeGreaterThan(0);
    const keyed = two.filter((p) => doc.keys.some((k) => k.organization_id === p.id && testKey(k)));
    expect(keyed.map((p) => p.id)).toContain('org_hrsoft');
    expect(doc.keys.find((k) => k.key === 'hrs_test_hrsoft')!.organization_id).toBe('org_hrsoft');
  });

  it('an employer without a running trial or subscription, with a key that may create onboardings', () => {
    const none = doc.organizations.filter((o) => o.subscription === 'none');
    expect(none.length).toBeGreaterThan(0);
    const keyed = none.filter((o) => doc.keys.some((k) => k.organization_id === o.id && testKey(k) && k.scopes.includes('onboardings:write')));
    expect(keyed.map((o) => o.id)).toContain('org_corner');
  });

  it('an employer with API approvals off, with a key that holds approvals:write', () => {
    const off = doc.organizations.filter((o) => o.api_approvals !== true);
    const keyed = off.filter((o) => doc.keys.some((k) => k.organization_id === o.id && testKey(k) && k.scopes.includes('approvals:write')));
    expect(keyed.map((o) => o.id)).toContain('org_bakker');
  });

  it('a live key', () => {
    const live = doc.keys.filter((k) => k.key.startsWith('hrs_live_'));
    expect(live.length).toBeGreaterThan(0);
    expect(live.some((k) => employers.has(k.organization_id) && k.scopes.includes('onboardings:write'))).toBe(true);
  });

  it('an employer key without dossier access (its user holds no reviewing role)', () => {
    const noDossier = employerKeys.filter(
      (k) => testKey(k) && k.scopes.includes('onboardings:read') &&
        (!k.user_id || !users.get(k.user_id)!.roles.some((r) => REVIEW_ROLES.includes(r))),
    );
    expect(noDossier.map((k) => k.key)).toContain('hrs_test_acme_recruiter');
  });

  it('one user who is both manager and owner, with a key that may approve', () => {
    const dual = [...users.values()].filter((u) => u.roles.includes('manager') && u.roles.includes('owner'));
    const keyed = dual.filter((u) => doc.keys.some((k) => k.user_id === u.id && testKey(k) && k.scopes.includes('approvals:write')));
    expect(keyed.length).toBeGreaterThan(0);
    const acmeDual = doc.keys.find((k) => k.key === 'hrs_test_acme_dual')!;
    expect(users.get(acmeDual.user_id!)!.roles.sort()).toEqual(['manager', 'owner']);
    expect(employers.get(acmeDual.organization_id)!.api_approvals).toBe(true);
  });

  it('every key and user id is unique, and every key belongs to an organization of the document', () => {
    const keys = doc.keys.map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of doc.keys) expect(employers.has(k.organization_id) || partners.has(k.organization_id)).toBe(true);
  });
});
