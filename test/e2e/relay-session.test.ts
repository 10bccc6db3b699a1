import { afterEach, describe, expect, it } from 'vitest';
import { RelayHub } from '../../src/delivery/relay.js';
import type { DeliverySettings } from '../../src/delivery/settings.js';
import { createEmulator, startRelay, verifySignature, type InProcessEmulator, type RelayHandle, type RelayNotice } from '../../src/index.js';
import { answer, useReceivers } from '../support/receiver.js';
import { closedPort } from '../support/net.js';
import { until } from '../support/wait.js';

/**
 * A relay's session address over real HTTP (the open row and startRelay): made when the
 * workspace has no address the relay takes, its secret answered by the open alone, delivered
 * through its relay only, gone however the relay ends; and the notices that say why a relay
 * relays nothing.
 */
const OWNER = 'hrs_test_acme_owner';
const HEADERS = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
const started: InProcessEmulator[] = [];
const relays: RelayHandle[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
  for (const em of started.splice(0)) await em.close();
});

async function emulator(webhooks: Partial<DeliverySettings> = {}) {
  const em = createEmulator({ seed: 1, webhooks: { timeoutMs: 2_000, ...webhooks } });
  started.push(em);
  const { url } = await em.start(0);
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, { method, headers: { ...HEADERS, ...extra }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
  };
  const addresses = async () => (await call('GET', '/v1/webhooks?limit=100')).body.data as { id: string; url: string }[];
  return { em, url, call, addresses };
}

async function relay(options: Parameters<typeof startRelay>[0]) {
  const handle = await startRelay(options);
  relays.push(handle);
  return handle;
}

describe('the open row with session_address', () => {
  it('makes an address for the relay, answers its secret once, carries its messages, and removes it on close', async () => {
    const { call, addresses } = await emulator();
    const r = await receivers.start(answer(204));
    const opened = await call('POST', '/_emulator/relays', { forward_to: r.url('/hooks'), session_address: {} });
    expect(opened.status).toBe(201);
    const session = opened.body.session_address as { id: string; url: string; secret: string; organization_id: string; environment: string };
    expect(session).toMatchObject({ url: `https://relay.invalid/listen/${String(opened.body.id)}`, organization_id: 'org_acme', environment: 'test' });
    expect(session.secret).toMatch(/^whsec_/);
    expect(opened.body).toMatchObject({ session_address_id: session.id, workspace_addresses: 0, taken_addresses: [] });
    expect((await addresses()).map((a) => a.id)).toEqual([session.id]);
    // The secret is the open's alone: no list, read or inspector view shows it.
    for (const path of ['/_emulator/relays', '/_emulator/webhooks', '/v1/webhooks', `/v1/webhooks/${session.id}`]) {
      const read = await call('GET', path);
      expect(read.status, path).toBe(200);
      expect(read.text, path).not.toContain(session.secret);
    }
    expect((await call('GET', '/_emulator/relays')).body.data).toMatchObject([{ id: opened.body.id, session_address_id: session.id }]);

    const token = String(opened.body.token);
    // A relay whose prefix matches the placeholder more closely: the session address still goes to its own relay only.
    const other = await call('POST', '/_emulator/relays', { url_prefix: 'https://relay.invalid/', forward_to: 'http://127.0.0.1:9/other' });
    expect(other.body.session_address).toBeNull();
    expect((await call('POST', `/v1/webhooks/${session.id}/test`, {})).status).toBe(200);
    const claimed = await call('POST', `/_emulator/relays/${String(opened.body.id)}/claim`, { wait_ms: 5_000 }, { 'Relay-Token': token });
    const [message] = claimed.body.data as { url: string; body: string; headers: Record<string, string> }[];
    expect(message!.url).toBe(session.url);
    expect(verifySignature(message!.body, message!.headers['Service-Signature']!, session.secret)).toBe(true);
    expect((await call('GET', '/_emulator/relays')).body.data).toMatchObject([{ id: opened.body.id, in_flight: 1 }, { id: other.body.id, queued: 0, in_flight: 0 }]);

    expect((await call('DELETE', `/_emulator/relays/${String(opened.body.id)}`, undefined, { 'Relay-Token': token })).status).toBe(200);
    expect(await addresses()).toEqual([]);
  });

  it('makes none when the workspace has an address the relay takes, nor without forward_to', async () => {
    const { call, addresses } = await emulator();
    const explicit = await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['onboarding.completed'] });
    expect(explicit.status).toBe(201);
    const opened = await call('POST', '/_emulator/relays', { forward_to: 'http://127.0.0.1:9/x', session_address: {} });
    expect(opened.body).toMatchObject({
      session_address: null, session_address_id: null, workspace_addresses: 1,
      taken_addresses: [{ id: explicit.body.id, url: 'http://127.0.0.1:9/hooks', status: 'enabled', events: ['onboarding.completed'] }],
    });
    const bare = await call('POST', '/_emulator/relays', { url_prefix: 'http://elsewhere.invalid/', session_address: {} });
    expect(bare.body).toMatchObject({ session_address: null, workspace_addresses: 1, taken_addresses: [] });
    expect((await addresses()).map((a) => a.id)).toEqual([explicit.body.id]);
  });

  it('counts toward the 20 addresses: at the limit, 422 and neither a relay nor an address made', async () => {
    const { call, addresses } = await emulator();
    for (let i = 0; i < 20; i++) expect((await call('POST', '/v1/webhooks', { url: `http://elsewhere.invalid/${i}` })).status).toBe(201);
    const opened = await call('POST', '/_emulator/relays', { url_prefix: 'http://127.0.0.1/', forward_to: 'http://127.0.0.1:9/x', session_address: {} });
    expect(opened.status).toBe(422);
    expect(opened.body.error).toMatchObject({ code: 'webhook_limit_reached' });
    expect((await call('GET', '/_emulator/relays')).body.data).toEqual([]);
    expect(await addresses()).toHaveLength(20);
  });

  it('refuses an unknown organization with 422 and makes nothing', async () => {
    const { call, addresses } = await emulator();
    const opened = await call('POST', '/_emulator/relays', { forward_to: 'http://127.0.0.1:9/x', session_address: { organization_id: 'org_nope' } });
    expect(opened.status).toBe(422);
    expect(opened.body.error).toMatchObject({ code: 'parameter_invalid', param: 'session_address.organization_id' });
    expect((await call('GET', '/_emulator/relays')).body.data).toEqual([]);
    expect(await addresses()).toEqual([]);
  });

  it('outlives a reset of the workspace with its id and secret, and leaves the seeded ids as they were', async () => {
    const { call, addresses } = await emulator();
    const opened = await call('POST', '/_emulator/relays', { forward_to: 'http://127.0.0.1:9/x', session_address: {} });
    const session = opened.body.session_address as { id: string; secret: string };
    const made = await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/mine' });
    // Another emulator of the same seed, with no relay: the address gets the same seeded id.
    const { call: callAlone } = await emulator();
    expect((await callAlone('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/mine' })).body.id).toBe(made.body.id);

    expect((await call('POST', '/_emulator/reset', {})).status).toBe(200);
    expect((await addresses()).map((a) => a.id)).toEqual([session.id]);
    expect((await call('POST', `/v1/webhooks/${session.id}/test`, {})).status).toBe(200);
    const claimed = await call('POST', `/_emulator/relays/${String(opened.body.id)}/claim`, { wait_ms: 5_000 }, { 'Relay-Token': String(opened.body.token) });
    const [message] = claimed.body.data as { body: string; headers: Record<string, string> }[];
    expect(verifySignature(message!.body, message!.headers['Service-Signature']!, session.secret)).toBe(true);
  });

  it('left over without its relay (a snapshot restored), fails its attempts at once and goes at the next open', async () => {
    const { call, addresses } = await emulator();
    const opened = await call('POST', '/_emulator/relays', { forward_to: 'http://127.0.0.1:9/x', session_address: {} });
    const id = (opened.body.session_address as { id: string }).id;
    const snapshot = (await call('GET', '/_emulator/snapshot')).body;
    await call('DELETE', `/_emulator/relays/${String(opened.body.id)}`, undefined, { 'Relay-Token': String(opened.body.token) });
    expect((await call('PUT', '/_emulator/snapshot', snapshot)).status).toBe(200);
    expect((await addresses()).map((a) => a.id)).toEqual([id]);
    expect((await call('POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
    await until(async () => ((await call('GET', `/v1/webhooks/${id}/deliveries`)).body.data as { last_error: string | null }[])[0]?.last_error
      === 'no relay carries this session address: the listen that made it has ended', 'the attempt to fail', 5_000);
    const next = await call('POST', '/_emulator/relays', { url_prefix: 'http://127.0.0.1:9/' });
    expect(next.body).toMatchObject({ workspace_addresses: 0, session_address: null });
    expect(await addresses()).toEqual([]);
  });

  it('is removed when its relay lapses (a listen killed)', async () => {
    const { call, addresses } = await emulator({ relays: new RelayHub({ leaseMs: 300 }) });
    const opened = await call('POST', '/_emulator/relays', { forward_to: 'http://127.0.0.1:9/x', session_address: {} });
    const id = (opened.body.session_address as { id: string }).id;
    expect((await addresses()).map((a) => a.id)).toEqual([id]);
    await until(async () => ((await call('GET', '/_emulator/relays')).body.data as unknown[]).length === 0, 'the relay to lapse', 5_000);
    expect(await addresses()).toEqual([]);
  });
});

describe('startRelay({ sessionAddress: true })', () => {
  it('relays every event to forwardTo, signed with the secret it answers, under the strict policy too, and removes the address on close', async () => {
    const resolver = async () => ['93.184.216.34'];
    const { url, call, addresses } = await emulator({ urlPolicy: 'strict', resolver });
    const r = await receivers.start(answer(204));
    const handle = await relay({ url, key: OWNER, forwardTo: r.url('/hooks'), sessionAddress: true });
    const session = handle.relay.session_address!;
    const created = await call('POST', '/v1/onboardings', {
      reference: 'session-1',
      employee: { first_name: 'Sam', last_name: 'Session', email: 'sam.session@example.test' },
      employment: { position: 'Clerk', start_date: '2027-01-04', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
    }, { 'Idempotency-Key': 'session-1' });
    expect(created.status, created.text).toBe(201);
    await r.waitFor(1, 10_000);
    const got = r.to('/hooks')[0]!;
    expect(got.headers['service-event-type']).toBe('onboarding.created');
    expect(verifySignature(got.body, String(got.headers['service-signature']), session.secret)).toBe(true);
    await handle.close();
    expect((await addresses()).map((a) => a.id)).not.toContain(session.id);
  });

  it('says why nothing is relayed: no address under the prefix, and a receiver that refuses connections, once each', async () => {
    const { url, call } = await emulator();
    expect((await call('POST', '/v1/webhooks', { url: 'http://elsewhere.invalid/hooks' })).status).toBe(201);
    const notices: RelayNotice[] = [];
    const port = await closedPort();
    const handle = await relay({ url, key: OWNER, urlPrefix: 'http://127.0.0.1/', forwardTo: `http://127.0.0.1:${port}/hooks`, sessionAddress: true, onNotice: (n) => notices.push(n) });
    expect(notices).toEqual([{ kind: 'no_matching_addresses', message: 'none of the 1 webhook address of workspace default starts with http://127.0.0.1/: relaying a session address instead' }]);
    const id = handle.relay.session_address!.id;
    for (let i = 0; i < 2; i++) expect((await call('POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
    await until(async () => ((await call('GET', `/v1/webhooks/${id}/deliveries`)).body.data as { last_error: string | null }[]).filter((d) => d.last_error === 'connection refused').length === 2, 'both attempts refused', 10_000);
    expect(notices.map((n) => n.kind)).toEqual(['no_matching_addresses', 'receiver_refused']);
    expect(notices[1]!.message).toBe(`nothing listens at http://127.0.0.1:${port}/hooks (connection refused): start the receiver there; the emulator retries each message on its schedule`);
  });

  it('says when the addresses it takes filter the events', async () => {
    const { url, call } = await emulator();
    expect((await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['onboarding.completed', 'onboarding.approved'] })).status).toBe(201);
    const notices: RelayNotice[] = [];
    await relay({ url, key: OWNER, forwardTo: 'http://127.0.0.1:9/x', sessionAddress: true, onNotice: (n) => notices.push(n) });
    expect(notices).toEqual([{ kind: 'events_filtered', message: 'the webhook addresses this relay takes subscribe to onboarding.approved, onboarding.completed only: other events are not relayed' }]);
    expect(relays[0]!.relay.session_address).toBeNull();
  });
});
