import { describe, expect, it } from 'vitest';
import { createBody, envelope, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { createOnboarding, toReview, types } from '../support/control.js';

const patch = (h: Harness, id: string, body: object) => h.http().patch(`/_emulator/organizations/${id}`).send(body);

describe('GET and PATCH /_emulator/organizations/{id}', () => {
  it('reads the settings of an employer and of a partner', async () => {
    const h = harness();
    const acme = await h.http().get('/_emulator/organizations/org_acme');
    expect(acme.status).toBe(200);
    expect(acme.body).toEqual({
      id: 'org_acme', kind: 'employer', name: 'Acme Retail B.V.', subscription: 'active', trial_ends_at: null, api_approvals: true,
      allowed_origins: ['app.acme.test', '*.acme.test'], branding: { color: '#0B6E4F', logo_url: null }, payroll_connector: 'nmbrs',
      payroll_failure: { enabled: false, error_code: 'connector_unavailable' }, admissions: [],
    });
    const hrsoft = await h.http().get('/_emulator/organizations/org_hrsoft');
    expect(hrsoft.body.kind).toBe('partner');
    expect(hrsoft.body.admissions.map((a: { organization_id: string; active: boolean }) => [a.organization_id, a.active])).toEqual([
      ['org_acme', true], ['org_bakker', true],
    ]);
  });

  it('changes what is sent, keeps the rest, and answers with the settings', async () => {
    const h = harness();
    const res = await patch(h, 'org_acme', {
      api_approvals: false, allowed_origins: ['portal.acme.test'], branding: { logo_url: 'https://acme.test/logo.png' },
      payroll_failure: { enabled: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      api_approvals: false, subscription: 'active', allowed_origins: ['portal.acme.test'],
      branding: { color: '#0B6E4F', logo_url: 'https://acme.test/logo.png' }, payroll_failure: { enabled: true, error_code: 'connector_unavailable' },
    });
    expect((await h.http().get('/_emulator/organizations/org_acme')).body).toEqual(res.body);
    const org = await h.as(KEYS.owner).get('/v1/organization');
    expect(org.body.allowed_origins).toEqual(['portal.acme.test']);
    expect(org.body.branding.logo_url).toBe('https://acme.test/logo.png');
  });

  it('API approvals off refuses POST .../identity-verification with 403 api_approvals_disabled; on again, it works', async () => {
    const h = harness();
    const id = await createOnboarding(h);
    await toReview(h, id);
    expect((await patch(h, 'org_acme', { api_approvals: false })).body.api_approvals).toBe(false);
    const refused = await h.as(KEYS.manager).post(`/v1/onboardings/${id}/identity-verification`);
    expect(refused.status).toBe(403);
    expect(envelope(refused).code).toBe('api_approvals_disabled');
    await patch(h, 'org_acme', { api_approvals: true });
    expect((await h.as(KEYS.manager).post(`/v1/onboardings/${id}/identity-verification`)).status).toBe(200);
  });

  it('subscription none refuses POST /v1/onboardings with 403 subscription_required; a running trial allows it again', async () => {
    const h = harness();
    expect((await patch(h, 'org_acme', { subscription: 'none' })).status).toBe(200);
    const refused = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expect(refused.status).toBe(403);
    expect(envelope(refused).code).toBe('subscription_required');
    await patch(h, 'org_acme', { subscription: 'trial', trial_ends_at: '2026-10-01T00:00:00Z' });
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(403);
    await patch(h, 'org_acme', { trial_ends_at: '2026-11-01T00:00:00Z' });
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
    const cleared = await patch(h, 'org_acme', { trial_ends_at: null });
    expect(cleared.body).toMatchObject({ subscription: 'trial', trial_ends_at: null });
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
  });

  it('an ended relationship refuses the partner with 403 partner_not_admitted; admitting again restores it', async () => {
    const h = harness();
    const ended = await patch(h, 'org_hrsoft', { admissions: [{ organization_id: 'org_acme', active: false }] });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.admissions[0]).toMatchObject({ organization_id: 'org_acme', active: false });
    const refused = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get('/v1/onboardings');
    expect(refused.status).toBe(403);
    expect(envelope(refused).code).toBe('partner_not_admitted');
    const orgs = await h.as(KEYS.hrsoft).get('/v1/organizations');
    expect(orgs.body.data.map((o: { id: string }) => o.id)).toEqual(['org_bakker']);
    // One employer left: no Service-Organization needed any more.
    expect((await h.as(KEYS.hrsoft).get('/v1/onboardings')).status).toBe(200);

    await patch(h, 'org_hrsoft', { admissions: [{ organization_id: 'org_acme', scopes: ['onboardings:read'] }] });
    expect((await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get('/v1/onboardings')).status).toBe(200);
    const narrowed = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post('/v1/onboardings', createBody());
    expect(envelope(narrowed).code).toBe('scope_not_granted');
  });

  it('admits a partner by a new employer, which then needs scopes', async () => {
    const h = harness();
    const missing = await patch(h, 'org_payflow', { admissions: [{ organization_id: 'org_bakker' }] });
    expect(missing.status).toBe(422);
    expect(envelope(missing)).toMatchObject({ code: 'parameter_missing', param: 'admissions[0].scopes' });
    const ok = await patch(h, 'org_payflow', { admissions: [{ organization_id: 'org_bakker', scopes: ['organization:read', 'onboardings:read'] }] });
    expect(ok.status).toBe(200);
    const orgs = await h.as(KEYS.payflow).get('/v1/organizations');
    expect(orgs.body.data.map((o: { id: string }) => o.id).sort()).toEqual(['org_acme', 'org_bakker']);
    expect(envelope(await h.as(KEYS.payflow).get('/v1/onboardings')).code).toBe('service_organization_required');
  });

  it.each([
    ['an unknown field', 'org_acme', { name: 'Renamed' }, 422, 'parameter_unknown', 'name'],
    ['a wrong subscription', 'org_acme', { subscription: 'paid' }, 422, 'parameter_invalid', 'subscription'],
    ['a bad trial end', 'org_acme', { trial_ends_at: 'tomorrow' }, 422, 'parameter_invalid', 'trial_ends_at'],
    ['api_approvals not a boolean', 'org_acme', { api_approvals: 'yes' }, 422, 'parameter_invalid', 'api_approvals'],
    ['origins not strings', 'org_acme', { allowed_origins: [1] }, 422, 'parameter_invalid', 'allowed_origins[0]'],
    ['payroll_failure without enabled', 'org_acme', { payroll_failure: { error_code: 'x' } }, 422, 'parameter_missing', 'payroll_failure.enabled'],
    ['admissions of an employer', 'org_acme', { admissions: [{ organization_id: 'org_bakker', scopes: [] }] }, 422, 'parameter_invalid', 'admissions'],
    ['admission by an unknown employer', 'org_hrsoft', { admissions: [{ organization_id: 'org_nope', scopes: [] }] }, 422, 'organization_unknown', 'admissions[0].organization_id'],
    ['admission by a partner', 'org_hrsoft', { admissions: [{ organization_id: 'org_payflow', scopes: [] }] }, 422, 'organization_unknown', 'admissions[0].organization_id'],
    ['ending what never began', 'org_payflow', { admissions: [{ organization_id: 'org_bakker', active: false }] }, 422, 'parameter_invalid', 'admissions[0].active'],
    ['an unknown scope', 'org_hrsoft', { admissions: [{ organization_id: 'org_acme', scopes: ['everything'] }] }, 422, 'parameter_invalid', undefined],
    ['an unknown organization', 'org_nope', { api_approvals: true }, 404, 'resource_not_found', 'id'],
  ])('refuses %s, changing nothing', async (_name, id, body, status, code, param) => {
    const h = harness();
    const before = h.storeJson();
    const res = await patch(h, id, { api_approvals: false, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const err = envelope(res);
    expect(err.code).toBe(code);
    if (param !== undefined) expect(err.param).toBe(param);
    expect(h.storeJson()).toBe(before);
  });

  it('GET of an unknown organization is 404', async () => {
    const res = await harness().http().get('/_emulator/organizations/org_nope');
    expect(res.status).toBe(404);
    expect(envelope(res).code).toBe('resource_not_found');
  });
});

describe('the clock control endpoints', () => {
  it('GET /_emulator/clock: now, mode, pending timers, next due time', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/clock');
    expect(res.status).toBe(200);
    // The fixture onboardings' events are already waiting for their purge, 30 days on.
    expect(res.body).toEqual({
      now: FROZEN_START,
      mode: 'frozen',
      pending_timers: 2,
      next_due_at: '2026-11-04T09:00:00.000Z',
      next_timer: { kind: 'event.purge', due_at: '2026-11-04T09:00:00.000Z', event_id: expect.stringMatching(/^evt_/) },
    });
    await h.http().post('/_emulator/clock/advance').send({ by: '1h' });
    await createOnboarding(h);
    const after = await h.http().get('/_emulator/clock');
    expect(after.body.pending_timers).toBe(3);
    expect(after.body.next_due_at).toBe('2026-11-04T09:00:00.000Z');
    await h.http().post('/_emulator/clock/advance').send({ by: '31d' });
    expect((await h.http().get('/_emulator/clock')).body).toMatchObject({ pending_timers: 0, next_due_at: null });
  });

  it.each([
    ['90m', '2026-10-05T10:30:00.000Z'],
    ['PT1H', '2026-10-05T10:00:00.000Z'],
    [60, '2026-10-05T09:01:00.000Z'],
    [0, FROZEN_START],
    ['1h30m', '2026-10-05T10:30:00.000Z'],
  ])('POST /_emulator/clock/advance {"by": %j}', async (by, now) => {
    const h = harness();
    const res = await h.http().post('/_emulator/clock/advance').send({ by });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ now, mode: 'frozen', fired: [] });
    expect((await h.http().get('/_emulator/clock')).body.now).toBe(now);
  });

  it.each([['abc'], [-1], [''], [true], ['-5m'], ['P'], [null]])('refuses {"by": %j} with 422', async (by) => {
    const h = harness();
    const res = await h.http().post('/_emulator/clock/advance').send({ by });
    expect(res.status).toBe(422);
    expect(envelope(res).type).toBe('invalid_request');
    expect((await h.http().get('/_emulator/clock')).body.now).toBe(FROZEN_START);
  });

  it('refuses an advance without by, or with unknown fields', async () => {
    const h = harness();
    expect(envelope(await h.http().post('/_emulator/clock/advance').send({})).code).toBe('parameter_missing');
    expect(envelope(await h.http().post('/_emulator/clock/advance').send({ by: 1, to: 2 })).code).toBe('parameter_unknown');
  });

  it('POST /_emulator/clock jumps forward, never backwards (409 clock_backwards)', async () => {
    const h = harness();
    const forward = await h.http().post('/_emulator/clock').send({ now: '2026-10-06T00:00:00Z' });
    expect(forward.status).toBe(200);
    expect(forward.body.now).toBe('2026-10-06T00:00:00.000Z');
    const back = await h.http().post('/_emulator/clock').send({ now: '2026-10-05T23:59:59Z' });
    expect(back.status).toBe(409);
    expect(envelope(back)).toMatchObject({ type: 'conflict', code: 'clock_backwards' });
    expect((await h.http().post('/_emulator/clock').send({ now: 'soon' })).status).toBe(422);
    expect((await h.http().get('/_emulator/clock')).body.now).toBe('2026-10-06T00:00:00.000Z');
  });

  it('events are purged after 30 days: the advance lists the event.purge timers it fired', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner, { options: { send_invitation: true } });
    const listed = await h.as(KEYS.owner).get('/v1/events');
    const ids = (listed.body.data as { id: string }[]).map((e) => e.id);
    expect(await types(h, id)).toEqual(['onboarding.created', 'onboarding.invitation_sent']);

    const early = await h.http().post('/_emulator/clock/advance').send({ by: '29d' });
    expect(early.body.fired).toEqual([]);
    expect(await types(h, id)).toHaveLength(2);

    const res = await h.http().post('/_emulator/clock/advance').send({ by: '2d' });
    expect(res.status).toBe(200);
    const fired = res.body.fired as { kind: string; due_at: string; event_id: string }[];
    // Mine and the fixture onboardings' events (the employer key sees them all), each by its own timer.
    expect(ids.length).toBe(4);
    expect(fired.length).toBe(ids.length);
    expect(fired.every((f) => f.kind === 'event.purge')).toBe(true);
    expect(fired.map((f) => f.event_id)).toEqual(ids);
    expect(fired.every((f) => f.due_at === '2026-11-04T09:00:00.000Z')).toBe(true);
    const after = await h.as(KEYS.owner).get('/v1/events');
    expect(after.body.data).toEqual([]);
    expect((await h.http().get('/_emulator/clock')).body.pending_timers).toBe(0);
  });
});

describe('GET /_emulator/audit-log', () => {
  it('lists the document downloads of the workspace (none yet)', async () => {
    const res = await harness().http().get('/_emulator/audit-log');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });
});

describe('the control actions in the OpenAPI document', () => {
  it('documents every action with a summary, in both forms of the path', async () => {
    const doc = (await harness().http().get('/openapi.json')).body as { paths: Record<string, Record<string, { summary?: string }>> };
    const expected: [string, string][] = [
      ['post', '/_emulator/onboardings'],
      ...['employee/open', 'employee/submit', 'employee/sign', 'manager/correct', 'change-terms', 'return', 'verify-identity', 'approve',
        'send-contract', 'employer-sign', 'payroll/complete', 'payroll/fail', 'resolve', 'send-reminder', 'cancel']
        .map((a): [string, string] => ['post', `/_emulator/onboardings/{id}/${a}`]),
      ['get', '/_emulator/organizations/{id}'],
      ['patch', '/_emulator/organizations/{id}'],
      ['get', '/_emulator/outbox'],
      ['get', '/_emulator/audit-log'],
    ];
    for (const [method, path] of expected) {
      for (const p of [path, path.replace('/_emulator/', '/_emulator/workspaces/{workspaceId}/')]) {
        expect(doc.paths[p]?.[method]?.summary, `${method} ${p}`).toBeTruthy();
      }
    }
  });
});
