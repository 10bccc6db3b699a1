import { describe, expect, it } from 'vitest';
import type { Transport } from '../../src/delivery/transport.js';
import { ACTIONS } from '../../src/control/inspect.service.js';
import { ACTION_NAMES } from '../../src/control/inspect.schemas.js';
import { onboardingActionRoutes } from '../../src/control/onboarding-actions.routes.js';
import { createBody, expectError, FROZEN_START, harness as baseHarness, KEYS } from '../support/harness.js';
import { approved, signed, submitted } from '../support/journey.js';

/**
 * The inspector's reads over the control API (README, Inspector): every onboarding with status,
 * waiting_on and the actions the state machine allows; one onboarding's timeline; events;
 * webhook addresses with deliveries and attempts; the manual retry. Then the inspector page's
 * shell: its policy, the redirect from /, and --no-ui.
 */

/** A receiver that answers as told, without any network. */
function switchable() {
  const state = { ok: false, sent: 0 };
  const transport: Transport = {
    send: () => {
      state.sent++;
      return Promise.resolve(state.ok ? { ok: true, status: 204, error: null, durationMs: 1 } : { ok: false, status: 503, error: 'receiver answered 503', durationMs: 1 });
    },
  };
  return { state, transport };
}

const harness = (transport?: Transport) => baseHarness(transport ? { webhooks: { transport } } : {});

describe('GET /_emulator/onboardings', () => {
  it('lists every onboarding of the workspace, newest first, whatever key or environment made it', async () => {
    const h = harness();
    const live = await h.as(KEYS.live).post('/v1/onboardings', createBody({ reference: 'LIVE-1' }));
    expect(live.status).toBe(201);
    const res = await h.http().get('/_emulator/onboardings');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(h.emulator.defaultWorkspace.store.onboardings.size);
    const first = res.body.data[0];
    expect(first).toEqual({
      id: live.body.id,
      status: 'pending_employee',
      waiting_on: ['employee'],
      data_version: 1,
      environment: 'live',
      organization_id: 'org_acme',
      partner_id: null,
      source: 'api',
      reference: 'LIVE-1',
      employee: { first_name: 'Lotte', last_name: 'de Boer' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      allowed_actions: ['employee/open', 'send-reminder', 'cancel'],
    });
    expect(res.body.data.map((o: { id: string }) => o.id)).toContain('onb_demo_partner');
  });

  it('limit bounds the list; total still counts all; a bad limit is 422', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/onboardings?limit=1');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.total).toBeGreaterThan(1);
    expectError(await h.http().get('/_emulator/onboardings?limit=0'), 422, 'invalid_request', 'parameter_invalid');
  });

  it('works per workspace under /_emulator/workspaces/{id}/onboardings, and 404s for an unknown workspace', async () => {
    const h = harness();
    const ws = await h.http().post('/_emulator/workspaces').send({});
    const res = await h.http().get(`/_emulator/workspaces/${ws.body.id}/onboardings`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(h.emulator.workspace(ws.body.id).store.onboardings.size);
    expect((await h.http().get('/_emulator/workspaces/nope/onboardings')).status).toBe(404);
  });
});

describe('allowed_actions are the actions that would succeed', () => {
  it('every control action route has a trigger, and no other', () => {
    const suffixes = onboardingActionRoutes
      .map((r) => /^\/_emulator\/onboardings\/:id\/(.+)$/.exec(r.path)?.[1])
      .filter((s): s is string => s !== undefined);
    expect([...suffixes].sort()).toEqual([...ACTION_NAMES].sort());
    expect(Object.keys(ACTIONS).sort()).toEqual([...ACTION_NAMES].sort());
  });

  it('employee/open is no longer offered once the employee opened the link; employee/submit is offered from then on', async () => {
    const h = harness();
    const id = (await h.as(KEYS.owner).post('/v1/onboardings', createBody())).body.id as string;
    const before = await h.http().get(`/_emulator/onboardings/${id}`);
    expect(before.body.allowed_actions.map((a: { action: string }) => a.action)).toEqual(['employee/open', 'send-reminder', 'cancel']);
    expect((await h.http().post(`/_emulator/onboardings/${id}/employee/open`).send({})).status).toBe(200);
    const after = await h.http().get(`/_emulator/onboardings/${id}`);
    expect(after.body.onboarding.status).toBe('pending_employee');
    expect(after.body.allowed_actions.map((a: { action: string }) => a.action)).toEqual(['employee/submit', 'send-reminder', 'cancel']);
    const row = (await h.http().get('/_emulator/onboardings')).body.data.find((o: { id: string }) => o.id === id);
    expect(row.allowed_actions).toEqual(['employee/submit', 'send-reminder', 'cancel']);
  });

  /** Control actions (with their bodies) that bring a new onboarding to a named state. */
  const APPROVED: Step[] = [['verify-identity'], ['approve', { user_id: 'usr_acme_mark', role: 'manager' }], ['approve', { user_id: 'usr_acme_paula', role: 'payroll_reviewer' }], ['approve', { user_id: 'usr_acme_olivia', role: 'owner' }]];
  type Step = [action: string, body?: object];
  const SUBMITTED: Step[] = [['employee/open'], ['employee/submit']];
  const SIGNED: Step[] = [...SUBMITTED, ...APPROVED, ['send-contract'], ['employee/sign'], ['employer-sign']];
  const JOURNEYS: Record<string, Step[]> = {
    new: [],
    'link expired': [],
    opened: [['employee/open']],
    submitted: SUBMITTED,
    'identity confirmed': [...SUBMITTED, ['verify-identity']],
    'one approval given': [...SUBMITTED, ...APPROVED.slice(0, 2)],
    'returned to the manager': [...SUBMITTED, ['return', { to: 'manager' }]],
    'returned to the employee': [...SUBMITTED, ['return', { to: 'employee' }]],
    'terms changed after approval': [...SUBMITTED, ...APPROVED, ['change-terms', { hours_per_week: 30 }]],
    contract_ready: [...SUBMITTED, ...APPROVED],
    'contract sent': [...SUBMITTED, ...APPROVED, ['send-contract']],
    'signed by the employee': [...SUBMITTED, ...APPROVED, ['send-contract'], ['employee/sign']],
    processing: SIGNED,
    action_required: [...SIGNED, ['payroll/fail']],
    completed: [...SIGNED, ['payroll/complete']],
    cancelled: [['cancel']],
  };

  interface Detail {
    onboarding: { status: string; approvals: { required: string[] } };
    allowed_actions: { action: string }[];
    approvals: { role: string; user_id: string; valid: boolean }[];
    people: { id: string; roles: string[] }[];
  }

  /** The body a test would send: for approve, a role still missing and a person free to give it, when there is one. */
  function bodyFor(action: string, d: Detail): object {
    if (action === 'return') return { to: 'employee' };
    if (action === 'change-terms') return { hours_per_week: 32 };
    if (action !== 'approve') return {};
    const valid = d.approvals.filter((a) => a.valid);
    const required = d.onboarding.approvals.required;
    for (const role of required.filter((r) => !valid.some((a) => a.role === r))) {
      const person = d.people.find((p) => p.roles.includes(role) && !valid.some((a) => a.user_id === p.id));
      if (person) return { user_id: person.id, role };
    }
    const role = required[0]!;
    return { user_id: d.people.find((p) => p.roles.includes(role))!.id, role };
  }

  it.each(Object.keys(JOURNEYS))('%s: every action offered succeeds and changes the onboarding; every other is refused', async (state) => {
    const h = harness();
    const options = state === 'link expired' ? { options: { expires_in_hours: 1 } } : {};
    const id = (await h.as(KEYS.owner).post('/v1/onboardings', createBody(options))).body.id as string;
    for (const [action, body] of JOURNEYS[state]!) {
      const res = await h.http().post(`/_emulator/onboardings/${id}/${action}`).send(body ?? {});
      expect(res.status, `${action}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    if (state === 'link expired') expect((await h.http().post('/_emulator/clock/advance').send({ by: '2h' })).status).toBe(200);
    const snapshot = (await h.http().get('/_emulator/snapshot')).body;
    const detail = (await h.http().get(`/_emulator/onboardings/${id}`)).body as Detail;
    const offered = detail.allowed_actions.map((a) => a.action);
    const row = (await h.http().get('/_emulator/onboardings')).body.data.find((o: { id: string }) => o.id === id);
    expect(row.allowed_actions).toEqual(offered);
    const seen = (w = h.emulator.defaultWorkspace) => ({ record: JSON.stringify(w.store.onboardings.get(id)), events: w.store.events.size, mails: w.outbox.length });
    for (const action of ACTION_NAMES) {
      expect((await h.http().put('/_emulator/snapshot').send(snapshot)).status).toBe(200);
      const before = seen();
      const res = await h.http().post(`/_emulator/onboardings/${id}/${action}`).send(bodyFor(action, detail));
      const after = seen();
      if (offered.includes(action)) {
        expect(res.status, `${state}: ${action} is offered: ${JSON.stringify(res.body)}`).toBe(200);
        expect(after, `${state}: ${action} is offered and changes something`).not.toEqual(before);
      } else {
        // Opening a link opened before is the one action that answers 200 and does nothing.
        if (action !== 'employee/open' || res.status !== 200) expect(res.status, `${state}: ${action} is not offered: ${JSON.stringify(res.body)}`).toBe(409);
        expect(after, `${state}: ${action} is not offered and changes nothing`).toEqual(before);
      }
    }
  });

  it('payroll/fail is not offered while payroll is entered by hand, and is refused', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const id = (await h.as(KEYS.owner).post('/v1/onboardings', createBody())).body.id as string;
    signed(ws, id);
    ws.store.onboardings.put({ ...ws.store.onboardings.get(id)!, payroll: { ...ws.store.onboardings.get(id)!.payroll!, connector: 'manual' } });
    const detail = await h.http().get(`/_emulator/onboardings/${id}`);
    expect(detail.body.allowed_actions.map((a: { action: string }) => a.action)).toEqual(['payroll/complete', 'cancel']);
    expectError(await h.http().post(`/_emulator/onboardings/${id}/payroll/fail`).send({}), 409, 'conflict', 'payroll_manual_entry');
  });
});

describe('GET /_emulator/onboardings/{id}', () => {
  it('the full onboarding, the timeline of transitions with their events in order, approvals with names, the people', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } }));
    const id = created.body.id as string;
    approved(h.emulator.defaultWorkspace, id);
    const res = await h.http().get(`/_emulator/onboardings/${id}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.onboarding).toMatchObject({ id, status: 'contract_ready', data_version: 2, employee: { email: 'lotte@example.test' } });
    expect(body.allowed_actions).toContainEqual({
      action: 'send-contract', method: 'POST', path: `/_emulator/onboardings/${id}/send-contract`, trigger: 'send_contract', body: 'none', summary: expect.any(String),
    });
    const steps = body.timeline.map((e: { trigger: string; from: string | null; to: string }) => [e.trigger, e.from, e.to]);
    expect(steps[0]).toEqual(['create_and_invite', null, 'pending_employee']);
    expect(steps).toContainEqual(['employee_open', 'pending_employee', 'pending_employee']);
    expect(steps).toContainEqual(['employee_submit', 'pending_employee', 'in_review']);
    const verify = steps.findIndex((s: string[]) => s[0] === 'verify_identity');
    const firstApproval = steps.findIndex((s: string[]) => s[0] === 'approve' || s[0] === 'approve_last');
    expect(verify).toBeGreaterThan(0);
    expect(verify).toBeLessThan(firstApproval);
    expect(steps.at(-1)).toEqual(['approve_last', 'in_review', 'contract_ready']);
    // Every event of the onboarding appears once, in the order it was made.
    const eventIds = body.timeline.flatMap((e: { events: { id: string }[] }) => e.events.map((x) => x.id));
    const stored = h.emulator.defaultWorkspace.store.events.values().filter((e) => e.data.onboarding_id === id).map((e) => e.id);
    expect(eventIds).toEqual(stored);
    const submit = body.timeline.find((e: { trigger: string }) => e.trigger === 'employee_submit');
    expect(submit.events.map((e: { type: string }) => e.type)).toEqual(['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
    expect(submit.data_version).toBe(2);
    expect(body.approvals[0]).toMatchObject({ role: 'manager', user_id: 'usr_acme_mark', user_name: expect.any(String), data_version: 2, valid: true });
    expect(body.people.map((p: { id: string }) => p.id)).toContain('usr_acme_paula');
  });

  it('tells the two returns apart and follows the status through them', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    submitted(ws, 'onb_demo_jansen');
    expect((await h.http().post('/_emulator/onboardings/onb_demo_jansen/return').send({ to: 'manager' })).status).toBe(200);
    expect((await h.http().post('/_emulator/onboardings/onb_demo_jansen/manager/correct').send({})).status).toBe(200);
    expect((await h.http().post('/_emulator/onboardings/onb_demo_jansen/return').send({ to: 'employee' })).status).toBe(200);
    const res = await h.http().get('/_emulator/onboardings/onb_demo_jansen');
    const tail = res.body.timeline.slice(-3).map((e: { trigger: string; to: string; detail: string | null }) => [e.trigger, e.to, e.detail]);
    expect(tail).toEqual([
      ['return_to_manager', 'in_review', 'returned to the manager'],
      ['manager_correct', 'in_review', null],
      ['return_to_employee', 'pending_employee', 'returned to the employee'],
    ]);
  });

  it('404 for an unknown onboarding, also in another workspace', async () => {
    const h = harness();
    expectError(await h.http().get('/_emulator/onboardings/onb_nope'), 404, 'not_found', 'resource_not_found');
    const ws = await h.http().post('/_emulator/workspaces').send({});
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    expectError(await h.http().get(`/_emulator/workspaces/${ws.body.id}/onboardings/${created.body.id}`), 404, 'not_found', 'resource_not_found');
  });
});

describe('GET /_emulator/events', () => {
  it('every event, newest first, with its environment and how many deliveries it made; filter by onboarding', async () => {
    const h = harness();
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    const res = await h.http().get('/_emulator/events');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      type: 'onboarding.created', environment: 'test', organization_id: 'org_acme', partner_id: null, deliveries: 0,
      data: { onboarding_id: created.body.id, data_version: 1 },
    });
    const one = await h.http().get(`/_emulator/events?onboarding_id=${created.body.id}&limit=5`);
    expect(one.body.total).toBe(1);
    expectError(await h.http().get('/_emulator/events?type=x'), 422, 'invalid_request', 'parameter_unknown');
  });
});

describe('GET /_emulator/events: pages', () => {
  /** The default workspace after `count` new onboardings; all its events, newest first. */
  async function events(count: number) {
    const h = harness();
    for (let i = 0; i < count; i++) expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: `P-${i}` }))).status).toBe(201);
    const ids = h.emulator.defaultWorkspace.store.events.values().map((e) => e.id).reverse();
    return { h, base: '/_emulator', ids };
  }

  it('the latest page, then older pages by starting_after and newer ones by ending_before; newer tells where a page is', async () => {
    const { h, base, ids } = await events(12);
    const total = ids.length;
    const latest = (await h.http().get(`${base}/events?limit=5`)).body;
    expect(latest).toMatchObject({ total, newer: 0 });
    expect(latest.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 5));
    const older = (await h.http().get(`${base}/events?limit=5&starting_after=${ids[4]}`)).body;
    expect(older).toMatchObject({ total, newer: 5 });
    expect(older.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(5, 10));
    const oldest = (await h.http().get(`${base}/events?limit=5&starting_after=${ids[9]}`)).body;
    expect(oldest.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(10, 15));
    expect(oldest.newer + oldest.data.length).toBe(total);
    const back = (await h.http().get(`${base}/events?limit=5&ending_before=${ids[5]}`)).body;
    expect(back).toMatchObject({ newer: 0, data: latest.data });
    // Just below the top: a short page is not padded from further down.
    const top = (await h.http().get(`${base}/events?limit=5&ending_before=${ids[2]}`)).body;
    expect(top.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
  });

  it('a page held by its cursor stays put while new events arrive; the latest page moves', async () => {
    const { h, base, ids } = await events(8);
    const before = (await h.http().get(`${base}/events?limit=3&starting_after=${ids[2]}`)).body;
    expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody())).status).toBe(201);
    const after = (await h.http().get(`${base}/events?limit=3&starting_after=${ids[2]}`)).body;
    expect(after.data).toEqual(before.data);
    expect(after.newer).toBe(before.newer + 1);
    expect(after.total).toBe(before.total + 1);
    expect((await h.http().get(`${base}/events?limit=3`)).body.data[0].id).not.toBe(ids[0]);
  });

  it('422 for an unknown cursor, and for both cursors at once', async () => {
    const { h, base, ids } = await events(2);
    expectError(await h.http().get(`${base}/events?starting_after=evt_nope`), 422, 'invalid_request', 'cursor_invalid', 'starting_after');
    expectError(await h.http().get(`${base}/events?ending_before=evt_nope`), 422, 'invalid_request', 'cursor_invalid', 'ending_before');
    expectError(await h.http().get(`${base}/events?starting_after=${ids[0]}&ending_before=${ids[1]}`), 422, 'invalid_request', 'parameter_invalid', 'ending_before');
  });
});

describe('GET /_emulator/webhooks and POST /_emulator/deliveries/{id}/retry', () => {
  async function deadDelivery() {
    const receiver = switchable();
    const h = harness(receiver.transport);
    const hook = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['onboarding.created'] });
    expect(hook.status).toBe(201);
    await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    await h.http().post('/_emulator/clock/advance').send({ by: '3d' }); // the schedule ends after about 44 hours
    return { h, receiver, hookId: hook.body.id as string };
  }

  it('each address with its deliveries and every attempt: time, status code, error, next attempt', async () => {
    const { h, hookId } = await deadDelivery();
    const res = await h.http().get('/_emulator/webhooks');
    expect(res.status).toBe(200);
    const [hook] = res.body.data;
    expect(hook).toMatchObject({ id: hookId, url: 'http://127.0.0.1:9/hook', status: 'enabled', environment: 'test', organization_id: 'org_acme', dead_in_a_row: 1, deliveries_total: 1 });
    const [delivery] = hook.deliveries;
    expect(delivery).toMatchObject({ status: 'dead', attempts: 8, event_type: 'onboarding.created', last_status_code: 503, next_attempt_at: null });
    expect(delivery.attempt_log).toHaveLength(8);
    expect(delivery.attempt_log[0]).toEqual({ at: delivery.created_at, url: 'http://127.0.0.1:9/hook', status_code: 503, error: 'receiver answered 503', manual: false, next_attempt_at: delivery.attempt_log[1].at });
    expect(delivery.attempt_log.at(-1).next_attempt_at).toBeNull();
  });

  it('a retry of a dead delivery sends it again now: a new manual attempt; success ends it succeeded', async () => {
    const { h, receiver } = await deadDelivery();
    const id = (await h.http().get('/_emulator/webhooks')).body.data[0].deliveries[0].id as string;
    const failed = await h.http().post(`/_emulator/deliveries/${id}/retry`);
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body).toMatchObject({ id, status: 'dead', attempts: 9 });
    expect(failed.body.attempt_log.at(-1)).toMatchObject({ manual: true, status_code: 503 });
    receiver.state.ok = true;
    const sent = receiver.state.sent;
    const done = await h.http().post(`/_emulator/workspaces/default/deliveries/${id}/retry`);
    expect(done.body).toMatchObject({ id, status: 'succeeded', attempts: 10, last_status_code: 204 });
    expect(receiver.state.sent).toBe(sent + 1);
  });

  it('404 for an unknown delivery; 409 when its address is disabled', async () => {
    const { h, hookId } = await deadDelivery();
    expectError(await h.http().post('/_emulator/deliveries/whd_nope/retry'), 404, 'not_found', 'resource_not_found');
    const id = h.emulator.defaultWorkspace.store.deliveries.values()[0]!.id;
    const ws = h.emulator.defaultWorkspace;
    ws.store.webhooks.put({ ...ws.store.webhooks.get(hookId)!, status: 'disabled' });
    expectError(await h.http().post(`/_emulator/deliveries/${id}/retry`), 409, 'conflict', 'webhook_disabled');
  });
});

describe('GET /_emulator/webhooks/{id}/deliveries', () => {
  /** An address at a receiver answering 503, and `count` onboardings, each making one delivery. */
  async function deliveries(count: number) {
    const receiver = switchable();
    const h = harness(receiver.transport);
    const hook = await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['onboarding.created'] });
    expect(hook.status).toBe(201);
    for (let i = 0; i < count; i++) expect((await h.as(KEYS.owner).post('/v1/onboardings', createBody({ reference: `D-${i}` }))).status).toBe(201);
    const ids = h.emulator.defaultWorkspace.store.deliveries.values().filter((d) => d.endpoint_id === hook.body.id).map((d) => d.id).reverse();
    expect(ids).toHaveLength(count);
    return { h, receiver, hookId: hook.body.id as string, newestFirst: ids };
  }

  it("pages through all of an address's deliveries, newest first, each with its attempts, beyond what GET /_emulator/webhooks embeds", async () => {
    const { h, hookId, newestFirst } = await deliveries(7);
    await h.http().post('/_emulator/clock/advance').send({ by: '3d' }); // every delivery ends dead
    const embedded = (await h.http().get('/_emulator/webhooks?deliveries=5')).body.data[0];
    expect(embedded.deliveries_total).toBe(7);
    expect(embedded.deliveries.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(0, 5));
    const first = await h.http().get(`/_emulator/webhooks/${hookId}/deliveries?limit=5`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: newestFirst[4] });
    expect(first.body.data).toEqual(embedded.deliveries);
    const rest = await h.http().get(`/_emulator/workspaces/default/webhooks/${hookId}/deliveries?limit=5&starting_after=${first.body.next_cursor}`);
    expect(rest.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(5));
    const oldest = rest.body.data.at(-1);
    expect(oldest).toMatchObject({ id: newestFirst[6], status: 'dead', attempts: 8 });
    expect(oldest.attempt_log).toHaveLength(8);
    // The oldest can be retried like any other.
    const retried = await h.http().post(`/_emulator/deliveries/${oldest.id}/retry`);
    expect(retried.body).toMatchObject({ id: oldest.id, attempts: 9 });
  });

  it('filters by status; 25 by default; 404 for an unknown address; 422 for a bad limit, an unknown cursor or parameter', async () => {
    const { h, receiver, hookId, newestFirst } = await deliveries(3);
    receiver.state.ok = true;
    await h.http().post(`/_emulator/deliveries/${newestFirst[1]}/retry`);
    const succeeded = await h.http().get(`/_emulator/webhooks/${hookId}/deliveries?status=succeeded`);
    expect(succeeded.body.data.map((d: { id: string }) => d.id)).toEqual([newestFirst[1]]);
    expect((await h.http().get(`/_emulator/webhooks/${hookId}/deliveries`)).body.data).toHaveLength(3);
    expectError(await h.http().get('/_emulator/webhooks/whk_nope/deliveries'), 404, 'not_found', 'resource_not_found');
    expectError(await h.http().get(`/_emulator/webhooks/${hookId}/deliveries?limit=101`), 422, 'invalid_request', 'parameter_invalid');
    expect((await h.http().get(`/_emulator/webhooks/${hookId}/deliveries?starting_after=whd_nope`)).status).toBe(422);
    expectError(await h.http().get(`/_emulator/webhooks/${hookId}/deliveries?deliveries=5`), 422, 'invalid_request', 'parameter_unknown');
  });
});

describe('GET /_emulator/clock: the next timer', () => {
  const happyPath = { employee: { first_name: 'Hanna', last_name: 'Happy', email: 'happy-path@example.test' } };

  it('says what fires next: kind, due time and payload (a scenario step: which onboarding and step)', async () => {
    const h = harness();
    const fixtures = await h.http().get('/_emulator/clock');
    // The fixture onboardings' events are waiting for their purge.
    expect(fixtures.body.next_timer).toEqual({ kind: 'event.purge', due_at: fixtures.body.next_due_at, event_id: expect.stringMatching(/^evt_/) });
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody(happyPath));
    expect(created.status).toBe(201);
    const res = await h.http().get('/_emulator/clock');
    expect(res.body).toMatchObject({ now: FROZEN_START, next_due_at: '2026-10-05T10:00:00.000Z' });
    expect(res.body.next_timer).toEqual({ kind: 'scenario.step', due_at: '2026-10-05T10:00:00.000Z', onboarding_id: created.body.id, step: 'employee_opened' });
    // The same in the answer of a move, and per workspace.
    const moved = await h.http().post('/_emulator/workspaces/default/clock/advance').send({ by: '1h' });
    expect(moved.body.fired).toContainEqual(expect.objectContaining({ kind: 'scenario.step', onboarding_id: created.body.id, step: 'employee_opened' }));
    expect(moved.body.next_timer).toMatchObject({ kind: 'scenario.step', onboarding_id: created.body.id, step: 'employee_submitted', due_at: moved.body.next_due_at });
  });

  it('a webhook retry names its delivery; null when nothing is pending', async () => {
    const receiver = switchable();
    const h = harness(receiver.transport);
    await h.as(KEYS.owner).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['onboarding.created'] });
    await h.as(KEYS.owner).post('/v1/onboardings', createBody());
    await h.http().post('/_emulator/clock/advance').send({ by: 0 }); // the first attempt, answered 503
    const delivery = h.emulator.defaultWorkspace.store.deliveries.values()[0]!;
    const res = await h.http().get('/_emulator/clock');
    expect(res.body.next_timer).toEqual({ kind: 'webhook.attempt', due_at: delivery.next_attempt_at, delivery_id: delivery.id });
    await h.http().post('/_emulator/clock/advance').send({ by: '31d' });
    expect((await h.http().get('/_emulator/clock')).body).toMatchObject({ pending_timers: 0, next_due_at: null, next_timer: null });
  });
});

describe('the inspector page at /_emulator/ui', () => {
  const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  it('serves the HTML shell with a strict Content-Security-Policy, its script and style from the emulator itself', async () => {
    const h = harness();
    const res = await h.http().get('/_emulator/ui');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(POLICY);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toContain('<script src="/_emulator/ui/inspector.js" defer></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="/_emulator/ui/inspector.css">');
    // No inline script or style, and nothing from elsewhere.
    expect(res.text).not.toMatch(/<script>|<style|style="|https?:\/\/(?!localhost)/);
    for (const [path, type] of [['/_emulator/ui/inspector.js', 'text/javascript'], ['/_emulator/ui/inspector.css', 'text/css']] as const) {
      const file = await h.http().get(path);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(file.headers['content-security-policy']).toBe(POLICY);
    }
  });

  it("has a Requests panel with the request journal's filters (method, status or error code, onboarding), which the script reads from GET /_emulator/requests", async () => {
    const h = harness();
    const page = (await h.http().get('/_emulator/ui')).text;
    expect(page).toContain('<section class="panel" id="requests" aria-labelledby="requests-title">');
    expect(page).toContain('<h2 id="requests-title">Requests</h2>');
    expect(page).toContain('<div class="content" id="requests-content" aria-busy="true">');
    const form = /<form id="requests-filter"[^]*?<\/form>/.exec(page)?.[0] ?? '';
    expect([...form.matchAll(/<option value="([A-Z]*)">/g)].map((m) => m[1])).toEqual(['', 'GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
    expect([...form.matchAll(/ name="([a-z_]+)"/g)].map((m) => m[1])).toEqual(['method', 'status', 'onboarding_id']);
    // The form's field names are the journal's query parameters: a read with them is answered.
    expect((await h.http().get('/_emulator/requests?method=GET&status=200&error_code=not_found&onboarding_id=onb_x&limit=25')).status).toBe(200);
    expect((await h.http().get('/_emulator/ui/inspector.js')).text).toContain("'/requests?'");
  });

  it('the script renders through DOM text only: no innerHTML, outerHTML, insertAdjacentHTML, document.write or eval', async () => {
    const js = (await harness().http().get('/_emulator/ui/inspector.js')).text;
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    expect(js).toContain('textContent');
  });

  it('/ redirects to the inspector', async () => {
    const res = await harness().http().get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/_emulator/ui');
    expect((await harness().http().post('/').send({})).status).toBe(405);
  });

  it('with ui: false (--no-ui) the page, its files and the redirect are 404 in the envelope; the control API stays', async () => {
    const h = baseHarness({}, { ui: false });
    for (const path of ['/', '/_emulator/ui', '/_emulator/ui/inspector.js', '/_emulator/ui/inspector.css']) {
      expectError(await h.http().get(path), 404, 'not_found', 'route_not_found');
    }
    expect((await h.http().get('/_emulator/onboardings')).status).toBe(200);
  });
});
