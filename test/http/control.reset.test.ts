import { describe, expect, it } from 'vitest';
import { createBody, envelope, FROZEN_START, harness, KEYS } from '../support/harness.js';
import { FIXTURE_KEYS, FIXTURE_ONBOARDINGS, MINI, MINI_BODY, newWorkspace, keyFor } from '../support/workspaces.js';

/** POST /_emulator/reset: the default workspace back to its fixtures. */

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
