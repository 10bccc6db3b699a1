import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { EVENT_TYPES } from '../../src/resources/events/events.model.js';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';
import { answer, useReceivers, type ReceivedRequest } from '../support/receiver.js';
import { createOnboarding } from '../support/sandbox-steps.js';
import { expectSignedBy, message, register, settle } from '../support/webhooks.js';

/**
 * POST /_emulator/trigger: one event of every type made to happen through the life cycle, in
 * GET /v1/events and at a real receiver on 127.0.0.1, signed with the address's secret; and
 * every refusal, which changes nothing.
 */
const receivers = useReceivers();

interface Triggered {
  object: string;
  event_id: string;
  event_type: string;
  onboarding_id: string | null;
  organization_id: string | null;
  onboarding_created: boolean;
  events: { id: string; type: string }[];
  deliveries: number;
}

const trigger = (h: Harness, body: object, path = '/_emulator/trigger') => h.http().post(path).send(body);

async function triggered(h: Harness, body: object): Promise<Triggered> {
  const res = await trigger(h, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Triggered;
}

const listedEvents = async (h: Harness) => (await h.as(KEYS.owner).get('/v1/events?limit=100')).body.data as { id: string; type: string; data: { onboarding_id: string } }[];
const onboarding = async (h: Harness, id: string) => (await h.as(KEYS.owner).get(`/v1/onboardings/${id}`)).body as { status: string; returned_to?: string | null };

describe('POST /_emulator/trigger, for every event type', () => {
  it.each(EVENT_TYPES)('%s: made by the life cycle, listed by the API, and delivered signed to a receiver', async (type) => {
    const h = harness();
    const receiver = await receivers.start(answer(200));
    const address = await register(h, { url: receiver.url() });
    const made = await triggered(h, { event_type: type });
    expect(made).toMatchObject({ object: 'triggered_event', event_type: type, deliveries: 1 });
    expect(made.event_id).toMatch(/^evt_/);
    expect(made.events).toContainEqual({ id: made.event_id, type });
    await settle(h);

    const listed = await listedEvents(h);
    if (type === 'ping') {
      // The test message belongs to no onboarding and is no event of the API (spec: Webhooks).
      expect(made.onboarding_id).toBeNull();
      expect(listed.map((e) => e.id)).not.toContain(made.event_id);
    } else {
      expect(made).toMatchObject({ organization_id: 'org_acme', onboarding_created: true });
      expect(listed.find((e) => e.id === made.event_id)).toMatchObject({ type, data: { onboarding_id: made.onboarding_id } });
      // Every event the call made is the API's, for that onboarding.
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      const mine = listed.filter((e) => e.data.onboarding_id === made.onboarding_id).map((e) => ({ id: e.id, type: e.type }));
      expect(mine.sort(byId)).toEqual([...made.events].sort(byId));
    }

    const got = receiver.requests.filter((r: ReceivedRequest) => r.headers['service-event-id'] === made.event_id);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['service-event-type']).toBe(type);
    expect(message(got[0]!)).toMatchObject({ id: made.event_id, type });
    expectSignedBy(got[0]!, [address.secret]);
    // The package's own helper, as a receiver would check it (the signature's t is wall time here).
    expect(verifySignature(got[0]!.body, String(got[0]!.headers['service-signature']), address.secret)).toBe(true);
  });
});

describe('POST /_emulator/trigger on an existing onboarding', () => {
  it('plays the onboarding named forward to the event, creating none', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner);
    const made = await triggered(h, { event_type: 'onboarding.returned', onboarding_id: id });
    expect(made).toMatchObject({ onboarding_id: id, onboarding_created: false, event_type: 'onboarding.returned' });
    expect(made.events.map((e) => e.type)).toEqual([
      'onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required', 'onboarding.returned',
    ]);
    expect(await onboarding(h, id)).toMatchObject({ status: 'pending_employee' });
    // Returned to the employee, who opened the link before: started happens again only with a new opening, which the next submit skips.
    const again = await triggered(h, { event_type: 'onboarding.approval_required', onboarding_id: id });
    expect(again.events.map((e) => e.type)).toEqual(['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
    expect(h.emulator.defaultWorkspace.store.onboardings.values().filter((o) => o.reference?.startsWith('trigger'))).toEqual([]);
  });

  it('an older name answers the older-name event, sent right after its current name', async () => {
    const h = harness();
    const made = await triggered(h, { event_type: 'contract.signed' });
    const types = made.events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['onboarding.contract_signed', 'contract.signed']);
    expect(made.event_id).toBe(made.events.at(-1)!.id);
  });

  it('a payroll failure uses the organization\'s connector and error code; the onboarding ends action_required', async () => {
    const h = harness();
    const made = await triggered(h, { event_type: 'onboarding.failed' });
    const events = await listedEvents(h);
    expect(events.find((e) => e.type === 'integration.sync_failed')).toMatchObject({ data: { connector: 'nmbrs', error_code: expect.any(String) } });
    expect(await onboarding(h, made.onboarding_id!)).toMatchObject({ status: 'action_required' });
    // From there, completing it resolves the payroll run.
    const done = await triggered(h, { event_type: 'onboarding.completed', onboarding_id: made.onboarding_id });
    expect(done.events.map((e) => e.type)).toEqual(['integration.sync_succeeded', 'payroll.completed', 'onboarding.completed']);
  });

  it('a partner\'s address gets the events too: the onboarding is made with the partner\'s own key', async () => {
    const h = harness();
    const partner = await receivers.start(answer(200));
    const registered = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post('/v1/webhooks', { url: partner.url() });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    // With the partner's address alone, the employer admitting it is chosen.
    const first = await triggered(h, { event_type: 'onboarding.created' });
    expect(first).toMatchObject({ organization_id: 'org_acme', partner_id: 'org_hrsoft', deliveries: 1 });

    const employerReceiver = await receivers.start(answer(200));
    const employer = await register(h, { url: employerReceiver.url() });
    const made = await triggered(h, { event_type: 'onboarding.approved' });
    expect(made).toMatchObject({ organization_id: 'org_acme', partner_id: 'org_hrsoft', deliveries: 2 });
    await settle(h);
    const got = partner.requests.find((q) => q.headers['service-event-id'] === made.event_id);
    expectSignedBy(got!, [(registered.body as { secret: string }).secret]);
    expect((await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get(`/v1/onboardings/${made.onboarding_id}`)).status).toBe(200);
    // The employer's own address gets it as well, signed with its own secret.
    expectSignedBy(employerReceiver.requests.find((q) => q.headers['service-event-id'] === made.event_id)!, [employer.secret]);
  });

  it('acts in the workspace of its path', async () => {
    const h = harness();
    const ws = (await h.http().post('/_emulator/workspaces')).body as { id: string };
    const res = await trigger(h, { event_type: 'onboarding.created' }, `/_emulator/workspaces/${ws.id}/trigger`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = res.body as Triggered;
    expect(h.emulator.defaultWorkspace.store.onboardings.has(made.onboarding_id!)).toBe(false);
    expect((await h.http().get(`/_emulator/workspaces/${ws.id}/onboardings/${made.onboarding_id}`)).status).toBe(200);
  });
});

describe('POST /_emulator/trigger refusals change nothing', () => {
  async function refusedWith(h: Harness, body: object, status: number, type: string, code: string, param?: string) {
    const before = h.storeJson();
    const err = expectError(await trigger(h, body), status, type, code, param);
    expect(h.storeJson()).toBe(before);
    return err;
  }

  it('an unknown type: 422 naming every accepted type', async () => {
    const h = harness();
    const err = await refusedWith(h, { event_type: 'onboarding.exploded' }, 422, 'invalid_request', 'parameter_invalid', 'event_type');
    for (const type of EVENT_TYPES) expect(err.message).toContain(type);
    await refusedWith(h, {}, 422, 'invalid_request', 'parameter_missing', 'event_type');
    await refusedWith(h, { event_type: 'ping', extra: 1 }, 422, 'invalid_request', 'parameter_unknown', 'extra');
  });

  it('ping with no webhook address: 409 saying to register one', async () => {
    const h = harness();
    const err = await refusedWith(h, { event_type: 'ping' }, 409, 'conflict', 'webhook_address_missing');
    expect(err.message).toContain('POST /v1/webhooks');
    await refusedWith(h, { event_type: 'ping', onboarding_id: 'onb_x' }, 422, 'invalid_request', 'parameter_invalid', 'onboarding_id');
    await refusedWith(h, { event_type: 'ping', organization_id: 'org_nope' }, 422, 'invalid_request', 'organization_unknown', 'organization_id');
  });

  it('an onboarding the type cannot happen to from its status: 409; an unknown one: 404', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner);
    await refusedWith(h, { event_type: 'onboarding.created', onboarding_id: id }, 409, 'conflict', 'invalid_transition', 'onboarding_id');
    await triggered(h, { event_type: 'contract.sent', onboarding_id: id });
    const err = await refusedWith(h, { event_type: 'onboarding.approved', onboarding_id: id }, 409, 'conflict', 'invalid_transition', 'onboarding_id');
    expect(err.message).toContain('awaiting_employee_signature');
    await triggered(h, { event_type: 'onboarding.cancelled', onboarding_id: id });
    await refusedWith(h, { event_type: 'onboarding.cancelled', onboarding_id: id }, 409, 'conflict', 'onboarding_cancelled');
    await refusedWith(h, { event_type: 'onboarding.started', onboarding_id: 'onb_missing' }, 404, 'not_found', 'resource_not_found');
    await refusedWith(h, { event_type: 'onboarding.started', onboarding_id: id, organization_id: 'org_bakker' }, 422, 'invalid_request', 'parameter_invalid', 'organization_id');
  });

  it('a link that no longer opens, an opened one for started, payroll by hand, an unknown organization', async () => {
    const h = harness();
    const id = await createOnboarding(h, KEYS.owner);
    await triggered(h, { event_type: 'onboarding.started', onboarding_id: id });
    await refusedWith(h, { event_type: 'onboarding.started', onboarding_id: id }, 409, 'conflict', 'invalid_transition', 'onboarding_id');
    const expiring = await createOnboarding(h, KEYS.owner, { options: { expires_in_hours: 1 } });
    await h.emulator.defaultWorkspace.scheduler.advanceBy(2 * 3_600_000);
    await refusedWith(h, { event_type: 'onboarding.approval_given', onboarding_id: expiring }, 409, 'conflict', 'hosted_link_expired');
    await refusedWith(h, { event_type: 'integration.sync_failed', organization_id: 'org_bakker' }, 409, 'conflict', 'payroll_manual_entry');
    await refusedWith(h, { event_type: 'onboarding.created', organization_id: 'org_hrsoft' }, 422, 'invalid_request', 'organization_unknown', 'organization_id');
  });
});
