import { describe, expect, it } from 'vitest';
import { createBody, envelope, expectError, harness, KEYS, type Harness } from '../support/harness.js';

interface Employee {
  id: string;
  first_name: string;
  last_name: string;
  position: string;
  location_id: string;
  start_date: string;
  /** Every employee comes from an onboarding: never null. */
  onboarding: { id: string; status: string };
}

/** Staff of the fixtures: each from its own onboarding, played to completed at load. */
const SANNE: Employee = {
  id: 'emp_acme_sanne', first_name: 'Sanne', last_name: 'de Vries', position: 'Store manager',
  location_id: 'loc_acme_amsterdam', start_date: '2024-03-01', onboarding: { id: 'onb_acme_sanne', status: 'completed' },
};
const DAAN: Employee = {
  id: 'emp_acme_daan', first_name: 'Daan', last_name: 'Visser', position: 'Warehouse lead',
  location_id: 'loc_acme_utrecht', start_date: '2025-01-15', onboarding: { id: 'onb_acme_daan', status: 'completed' },
};

const BAKKER_BODY = createBody({
  reference: 'bakker-1',
  employee: { first_name: 'Bo', last_name: 'Brood', email: 'bo@example.test' },
  employment: {
    position: 'Baker', start_date: '2027-01-04', location_id: 'loc_bakker_haarlem', template_id: 'tpl_bakker_baker',
    hours_per_week: 38, hourly_wage_cents: 1600,
  },
});

/** The employee id behind an onboarding, read through the API as the given key. */
async function employeeIdOf(h: Harness, key: string, onboardingId: string, org?: string): Promise<string> {
  const req = h.as(key).get(`/v1/onboardings/${onboardingId}`);
  const res = await (org ? req.set('Service-Organization', org) : req);
  expect(res.status).toBe(200);
  return res.body.employee.id as string;
}

async function create(h: Harness, n: number, key: string = KEYS.owner): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await h.as(key).post('/v1/onboardings', createBody({
      reference: `emp-${i}`,
      employee: { first_name: `First${i}`, last_name: `Last${i}`, email: `person${i}@example.test` },
    }));
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

async function list(h: Harness, key: string, query = '', org?: string) {
  const req = h.as(key).get(`/v1/employees${query}`);
  return org ? req.set('Service-Organization', org) : req;
}

describe('GET /v1/employees', () => {
  it('lists one employee per fixture onboarding, the completed staff ones included, newest first', async () => {
    const h = harness();
    const jansen = await employeeIdOf(h, KEYS.owner, 'onb_demo_jansen');
    const partner = await employeeIdOf(h, KEYS.owner, 'onb_demo_partner');
    const res = await list(h, KEYS.owner);
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data).toEqual([
      {
        id: partner, first_name: 'Noah', last_name: 'Bakker', position: 'Stock clerk', location_id: 'loc_acme_utrecht',
        start_date: '2026-12-15', onboarding: { id: 'onb_demo_partner', status: 'pending_employee' },
      },
      {
        id: jansen, first_name: 'Eva', last_name: 'Jansen', position: 'Sales associate', location_id: 'loc_acme_amsterdam',
        start_date: '2026-12-01', onboarding: { id: 'onb_demo_jansen', status: 'pending_employee' },
      },
      DAAN,
      SANNE,
    ]);
    // Every employee carries the onboarding it came from; the staff ones are completed.
    for (const e of res.body.data as Employee[]) {
      expect(e.onboarding, e.id).not.toBeNull();
      expect(e.onboarding, e.id).toEqual({ id: expect.stringMatching(/^onb_/), status: expect.any(String) });
    }
    const byId = new Map((res.body.data as Employee[]).map((e) => [e.id, e]));
    expect(byId.get('emp_acme_sanne')!.onboarding).toEqual({ id: 'onb_acme_sanne', status: 'completed' });
    expect(byId.get('emp_acme_daan')!.onboarding).toEqual({ id: 'onb_acme_daan', status: 'completed' });
    // The staff employee ids are the ones their onboardings name.
    expect(await employeeIdOf(h, KEYS.owner, 'onb_acme_sanne')).toBe('emp_acme_sanne');
    expect(await employeeIdOf(h, KEYS.owner, 'onb_acme_daan')).toBe('emp_acme_daan');
  });

  it('each employee has exactly the spec fields, with an emp_ id', async () => {
    const h = harness();
    const res = await list(h, KEYS.owner);
    for (const e of res.body.data as Employee[]) {
      expect(Object.keys(e).sort()).toEqual(['first_name', 'id', 'last_name', 'location_id', 'onboarding', 'position', 'start_date']);
      expect(e.id).toMatch(/^emp_/);
      expect(e.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.onboarding).not.toBeNull();
      expect(Object.keys(e.onboarding).sort()).toEqual(['id', 'status']);
    }
    // No personal contact data in the employee list.
    expect(JSON.stringify(res.body)).not.toContain('@example.test');
  });

  it('adds one employee per created onboarding, from the request, newest first', async () => {
    const h = harness();
    const [first, second] = await create(h, 2);
    const res = await list(h, KEYS.owner);
    expect(res.body.data).toHaveLength(6);
    const [a, b] = res.body.data as Employee[];
    expect(a).toMatchObject({
      first_name: 'First1', last_name: 'Last1', position: 'Cashier', location_id: 'loc_acme_amsterdam', start_date: '2026-12-01',
      onboarding: { id: second, status: 'pending_employee' },
    });
    expect(b).toMatchObject({ first_name: 'First0', last_name: 'Last0', onboarding: { id: first, status: 'pending_employee' } });
    expect(a!.id).toBe(await employeeIdOf(h, KEYS.owner, second!));
    expect(b!.id).toBe(await employeeIdOf(h, KEYS.owner, first!));
    expect(a!.id).not.toBe(b!.id);
  });

  it('shows the current status of the onboarding (cancelled)', async () => {
    const h = harness();
    const cancel = await h.as(KEYS.owner).post('/v1/onboardings/onb_demo_jansen/cancel');
    expect(cancel.status).toBe(200);
    const res = await list(h, KEYS.owner);
    const jansen = (res.body.data as Employee[]).find((e) => e.onboarding?.id === 'onb_demo_jansen');
    expect(jansen?.onboarding).toEqual({ id: 'onb_demo_jansen', status: 'cancelled' });
  });

  it('keeps employees of cancelled onboardings in the list', async () => {
    const h = harness();
    const [id] = await create(h, 1);
    await h.as(KEYS.owner).post(`/v1/onboardings/${id}/cancel`);
    const res = await list(h, KEYS.owner);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data[0].onboarding).toEqual({ id, status: 'cancelled' });
  });

  describe('paging', () => {
    it('limit and starting_after walk the whole list once, in order', async () => {
      const h = harness();
      await create(h, 3);
      const all = (await list(h, KEYS.owner)).body.data as Employee[];
      expect(all).toHaveLength(7);
      const seen: Employee[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(h, KEYS.owner, `?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        pages++;
        const data = res.body.data as Employee[];
        expect(data.length).toBeLessThanOrEqual(2);
        seen.push(...data);
        if (res.body.has_more) {
          expect(res.body.next_cursor).toBe(data[data.length - 1]!.id);
        } else {
          expect(res.body.next_cursor).toBeNull();
        }
        cursor = res.body.next_cursor;
      } while (cursor && pages < 10);
      expect(pages).toBe(4);
      expect(seen).toEqual(all);
    });

    it('limit=1 gives one item and a cursor; the last page has no cursor', async () => {
      const h = harness();
      const first = await list(h, KEYS.owner, '?limit=1');
      expect(first.body.data).toHaveLength(1);
      expect(first.body.has_more).toBe(true);
      expect(first.body.next_cursor).toBe(first.body.data[0].id);
      const last = await list(h, KEYS.owner, '?limit=1&starting_after=emp_acme_daan');
      expect(last.body.data).toEqual([SANNE]);
      expect(last.body.has_more).toBe(false);
      expect(last.body.next_cursor).toBeNull();
    });

    it('a cursor on the last item gives an empty last page', async () => {
      const h = harness();
      const res = await list(h, KEYS.owner, '?starting_after=emp_acme_sanne');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    });

    it('a page of exactly the remaining items has no more', async () => {
      const h = harness();
      const res = await list(h, KEYS.owner, '?limit=4');
      expect(res.body.data).toHaveLength(4);
      expect(res.body.has_more).toBe(false);
      expect(res.body.next_cursor).toBeNull();
    });

    it('defaults to 25 items per page and allows up to 100', async () => {
      const h = harness();
      await create(h, 26);
      const page = await list(h, KEYS.owner);
      expect(page.body.data).toHaveLength(25);
      expect(page.body.has_more).toBe(true);
      expect(page.body.next_cursor).toBe(page.body.data[24].id);
      const rest = await list(h, KEYS.owner, `?starting_after=${page.body.next_cursor}`);
      expect(rest.body.data).toHaveLength(5);
      expect(rest.body.has_more).toBe(false);
      const max = await list(h, KEYS.owner, '?limit=100');
      expect(max.status).toBe(200);
      expect(max.body.data).toHaveLength(30);
      expect(max.body.has_more).toBe(false);
    });

    it('a cursor stays valid while new employees are added before it', async () => {
      const h = harness();
      const first = await list(h, KEYS.owner, '?limit=2');
      await create(h, 2);
      const second = await list(h, KEYS.owner, `?limit=2&starting_after=${first.body.next_cursor}`);
      expect(second.status).toBe(200);
      expect(second.body.data.map((e: Employee) => e.id)).toEqual(['emp_acme_daan', 'emp_acme_sanne']);
    });

    it.each([
      ['limit=0', '?limit=0'],
      ['limit=101', '?limit=101'],
      ['limit=-1', '?limit=-1'],
      ['limit=abc', '?limit=abc'],
      ['limit=1.5', '?limit=1.5'],
      ['limit empty', '?limit='],
    ])('refuses %s with 422', async (_label, query) => {
      const h = harness();
      const res = await list(h, KEYS.owner, query);
      expect(res.status).toBe(422);
      const e = envelope(res);
      expect(e.type).toBe('invalid_request');
      expect(e.param).toBe('limit');
    });

    it('refuses an unknown cursor with 422', async () => {
      const h = harness();
      const res = await list(h, KEYS.owner, '?starting_after=emp_does_not_exist');
      expect(res.status).toBe(422);
      const e = envelope(res);
      expect(e.type).toBe('invalid_request');
      expect(e.param).toBe('starting_after');
    });

    it('refuses a cursor of an employee the key may not see', async () => {
      const h = harness();
      const created = await h.as(KEYS.bakker).post('/v1/onboardings', BAKKER_BODY);
      const bakkerEmp = await employeeIdOf(h, KEYS.bakker, created.body.id);
      const res = await list(h, KEYS.owner, `?starting_after=${bakkerEmp}`);
      expect(res.status).toBe(422);
      expect(envelope(res).param).toBe('starting_after');
    });

    it('refuses an unknown query parameter with 422', async () => {
      const h = harness();
      const res = await list(h, KEYS.owner, '?status=pending_employee');
      expect(res.status).toBe(422);
      expect(envelope(res).type).toBe('invalid_request');
    });
  });

  describe('visibility', () => {
    it('a partner sees only employees of onboardings made through its own keys', async () => {
      const h = harness();
      const partnerEmp = await employeeIdOf(h, KEYS.hrsoft, 'onb_demo_partner', 'org_acme');
      const res = await list(h, KEYS.hrsoft, '', 'org_acme');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        {
          id: partnerEmp, first_name: 'Noah', last_name: 'Bakker', position: 'Stock clerk', location_id: 'loc_acme_utrecht',
          start_date: '2026-12-15', onboarding: { id: 'onb_demo_partner', status: 'pending_employee' },
        },
      ]);
    });

    it('employer onboardings made after the partner started stay invisible to it; its own new ones appear', async () => {
      const h = harness();
      await create(h, 2, KEYS.owner);
      const made = await h.as(KEYS.hrsoft).post('/v1/onboardings', createBody({ reference: 'hrsoft-2' })).set('Service-Organization', 'org_acme');
      expect(made.status).toBe(201);
      const res = await list(h, KEYS.hrsoft, '', 'org_acme');
      expect(res.body.data.map((e: Employee) => e.onboarding?.id)).toEqual([made.body.id, 'onb_demo_partner']);
    });

    it('a partner sees nothing at an employer where it made no onboardings, until it makes one', async () => {
      const h = harness();
      const empty = await list(h, KEYS.hrsoft, '', 'org_bakker');
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
      const made = await h.as(KEYS.hrsoft).post('/v1/onboardings', BAKKER_BODY).set('Service-Organization', 'org_bakker');
      expect(made.status).toBe(201);
      const res = await list(h, KEYS.hrsoft, '', 'org_bakker');
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({ first_name: 'Bo', last_name: 'Brood', onboarding: { id: made.body.id } });
      // The Bakker onboarding of the partner does not leak into its Acme view.
      const acme = await list(h, KEYS.hrsoft, '', 'org_acme');
      expect(acme.body.data.map((e: Employee) => e.onboarding?.id)).toEqual(['onb_demo_partner']);
    });

    it('another partner at the same employer does not see the first partner\u2019s employees', async () => {
      const h = harness();
      const res = await list(h, KEYS.payflow);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });

    it('the employer sees employees of onboardings its partners made', async () => {
      const h = harness();
      const made = await h.as(KEYS.hrsoft).post('/v1/onboardings', BAKKER_BODY).set('Service-Organization', 'org_bakker');
      const res = await list(h, KEYS.bakker);
      expect(res.body.data.map((e: Employee) => e.onboarding?.id)).toEqual([made.body.id]);
    });

    it('an employer never sees employees of another employer', async () => {
      const h = harness();
      const bakker = await list(h, KEYS.bakker);
      expect(bakker.body.data).toEqual([]);
      await h.as(KEYS.bakker).post('/v1/onboardings', BAKKER_BODY);
      const acme = await list(h, KEYS.owner);
      expect(acme.body.data).toHaveLength(4);
      expect(JSON.stringify(acme.body)).not.toContain('Brood');
    });

    it('a live key sees none of the test employees, and test keys none of the live ones', async () => {
      const h = harness();
      const live = await list(h, KEYS.live);
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
      const made = await h.as(KEYS.live).post('/v1/onboardings', createBody({ employee: { first_name: 'Liv', last_name: 'Live', email: 'liv@example.test' } }));
      expect(made.status).toBe(201);
      const liveAfter = await list(h, KEYS.live);
      expect(liveAfter.body.data).toHaveLength(1);
      expect(liveAfter.body.data[0]).toMatchObject({ first_name: 'Liv', onboarding: { id: made.body.id, status: 'pending_employee' } });
      const test = await list(h, KEYS.owner);
      expect(test.body.data).toHaveLength(4);
      expect(JSON.stringify(test.body)).not.toContain('Liv');
    });

    it('a test-environment cursor is refused on the live list', async () => {
      const h = harness();
      const res = await list(h, KEYS.live, '?starting_after=emp_acme_sanne');
      expectError(res, 422, 'invalid_request', 'cursor_invalid', 'starting_after');
    });
  });
});
