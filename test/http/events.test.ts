import { describe, expect, it } from 'vitest';
import { employeeOpen, employeeSubmit } from '../../src/resources/onboardings/onboardings.lifecycle.js';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';

type Ev = { id: string; object: string; type: string; api_version: string; created_at: string; organization_id: string; data: Record<string, unknown> };

const DAY = 86_400_000;

async function events(h: Harness, key: string = KEYS.owner, query = '') {
  const res = await h.as(key).get(`/v1/events?limit=100${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Ev[];
}

/** Drives an onboarding to in_review with the life-cycle functions, as the employee would. */
function submitted(h: Harness, id: string) {
  const ws = h.emulator.defaultWorkspace;
  employeeSubmit(ws, employeeOpen(ws, ws.store.onboardings.get(id)!));
}

describe('GET /v1/events', () => {
  it('lists the fixture onboardings\' creation events, oldest first, as objects of type event', async () => {
    const h = harness();
    const list = await events(h);
    expect(list.map((e) => [e.type, e.data.onboarding_id])).toEqual([
      ['onboarding.created', 'onb_demo_jansen'],
      ['onboarding.created', 'onb_demo_partner'],
    ]);
    expect(list[0]).toMatchObject({ object: 'event', organization_id: 'org_acme', api_version: '2026-10-01' });
    expect(list[0]!.id).toMatch(/^evt_/);
  });

  it('emits created and invitation_sent (kind invitation) for a create with send_invitation', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } }));
    const mine = (await events(h)).filter((e) => e.data.onboarding_id === res.body.id);
    expect(mine.map((e) => e.type)).toEqual(['onboarding.created', 'onboarding.invitation_sent']);
    expect(mine[1]!.data.kind).toBe('invitation');
  });

  it('carries the metadata as given at creation, also after a PATCH changed it', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ metadata: { crm: 'A-1' } }));
    const id = res.body.id as string;
    const patched = await h.as(KEYS.owner).patch(`/v1/onboardings/${id}`, { metadata: { crm: 'B-2', extra: true } });
    expect(patched.body.metadata).toEqual({ crm: 'B-2', extra: true });
    expect((await h.as(KEYS.owner).post(`/v1/sandbox/onboardings/${id}/advance`)).body.step).toBe('employee_opened');
    const list = (await h.as(KEYS.owner).get('/v1/events?limit=100')).body.data as { type: string; data: { onboarding_id: string; metadata: object } }[];
    const mine = list.filter((e) => e.data.onboarding_id === id);
    expect(mine.map((e) => e.type)).toEqual(['onboarding.created', 'onboarding.started']);
    for (const e of mine) expect(e.data.metadata).toEqual({ crm: 'A-1' });
  });

  it('carries reference, metadata and data_version but no personal data', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'r-1', metadata: { team: 'x' } }));
    const e = (await events(h)).find((x) => x.data.onboarding_id === res.body.id)!;
    expect(e.data).toEqual({ onboarding_id: res.body.id, reference: 'r-1', metadata: { team: 'x' }, data_version: 1 });
    expect(JSON.stringify(e)).not.toMatch(/lotte|Boer|example\.test/i);
  });

  it('sends the older names as separate events with their own ids, right after the current name', async () => {
    const h = harness();
    submitted(h, 'onb_demo_jansen');
    const list = (await events(h)).filter((e) => e.data.onboarding_id === 'onb_demo_jansen');
    expect(list.map((e) => e.type)).toEqual([
      'onboarding.created', 'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required',
    ]);
    expect(new Set(list.map((e) => e.id)).size).toBe(list.length);
    expect(list[4]!.data.data_version).toBe(2);
  });

  it('filters by type, the older names included, and refuses ping and unknown names', async () => {
    const h = harness();
    submitted(h, 'onb_demo_jansen');
    expect((await events(h, KEYS.owner, '&type=onboarding.submitted')).map((e) => e.type)).toEqual(['onboarding.submitted']);
    for (const type of ['ping', 'onboarding.nope']) {
      const res = await h.as(KEYS.owner).get(`/v1/events?type=${type}`);
      expect(envelope(res)).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    }
  });

  it('starts at `since` and continues after the last processed event id', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    ws.clock.advance(DAY);
    const since = ws.now();
    await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: 'later' }));
    const after = await events(h, KEYS.owner, `&since=${encodeURIComponent(since)}`);
    expect(after.map((e) => e.data.reference)).toEqual(['later']);
    const all = await events(h);
    const next = await events(h, KEYS.owner, `&starting_after=${all[0]!.id}`);
    expect(next.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
  });

  it('pages with limit (default 50, 1 to 100) and refuses an unknown cursor', async () => {
    const h = harness();
    for (let i = 0; i < 55; i++) await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: `r${i}` }));
    const first = await h.as(KEYS.owner).get('/v1/events');
    expect(first.body.data).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    const rest = await h.as(KEYS.owner).get(`/v1/events?starting_after=${first.body.next_cursor}`);
    expect(rest.body.data).toHaveLength(7);
    expect(rest.body.has_more).toBe(false);
    for (const q of ['limit=0', 'limit=101', 'starting_after=evt_unknown']) {
      expect((await h.as(KEYS.owner).get(`/v1/events?${q}`)).status).toBe(422);
    }
  });

  it('names the version of the request in api_version', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).get('/v1/events').set('Service-Version', '2026-10-01');
    expect(res.body.data[0].api_version).toBe('2026-10-01');
    expect(res.headers['service-version']).toBe('2026-10-01');
  });

  it('purges events after 30 days on the workspace clock', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    await ws.scheduler.advanceBy(30 * DAY - 1);
    expect(await events(h)).toHaveLength(2);
    const fired = await ws.scheduler.advanceBy(1);
    expect(fired.filter((f) => f.kind === 'event.purge')).toHaveLength(2);
    expect(await events(h)).toHaveLength(0);
  });

  it('shows a partner only the events of onboardings made through its keys, naming the employer', async () => {
    const h = harness();
    const without = await h.as(KEYS.hrsoft).get('/v1/events');
    expect(envelope(without).code).toBe('service_organization_required');
    const res = await h.as(KEYS.hrsoft).get('/v1/events').set('Service-Organization', 'org_acme');
    expect(res.body.data.map((e: Ev) => e.data.onboarding_id)).toEqual(['onb_demo_partner']);
    expect(res.body.data[0].organization_id).toBe('org_acme');
    const employer = await events(h);
    expect(employer.map((e) => e.data.onboarding_id)).toContain('onb_demo_partner');
    const org = h.emulator.defaultWorkspace.store.organizations.get('org_hrsoft')!;
    h.emulator.defaultWorkspace.store.organizations.put({ ...org, admitted_by: org.admitted_by.map((a) => ({ ...a, active: a.organization_id !== 'org_acme' })) });
    const ended = await h.as(KEYS.hrsoft).get('/v1/events').set('Service-Organization', 'org_acme');
    expect(envelope(ended).code).toBe('partner_not_admitted');
  });

  it('keeps test and live events apart', async () => {
    const h = harness();
    await h.as(KEYS.live).post('/v1/onboardings', createBody({ reference: 'live-one' }));
    expect((await events(h, KEYS.live)).map((e) => e.data.reference)).toEqual(['live-one']);
    expect((await events(h)).map((e) => e.data.reference)).not.toContain('live-one');
  });
});
