import { describe, expect, it } from 'vitest';
import type { Resolver } from '../../src/delivery/address-policy.js';
import type { Transport, TransportRequest, TransportResult } from '../../src/delivery/transport.js';
import { createBody, harness, KEYS, expectError, type Harness } from '../support/harness.js';
import { answer, useReceivers } from '../support/receiver.js';
import { advance, createOnboarding } from '../support/sandbox-steps.js';
import { MINUTE, START_MS, START_S, iso, hmacHex, expectSignedBy, message, register, settle, advanceClock, ping, delivery, types } from '../support/webhooks.js';

/**
 * Where webhook deliveries go: partner routing (real receivers on 127.0.0.1), and the strict URL
 * policy with a fake resolver and transport, so no test connects anywhere but loopback.
 */
const receivers = useReceivers();

// --- partners ------------------------------------------------------------------------------------------

describe('partner routing', () => {
  const partnerAdvance = (h: Harness, id: string) => h.asPartnerFor(KEYS.hrsoft, 'org_acme').post(`/v1/sandbox/onboardings/${id}/advance`);

  it('sends events of partner-made onboardings to the partner\'s own addresses, naming the employer; the employer\'s address gets everything', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    const partner = await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    const employer = await register(h, { url: r.url('/employer') }, KEYS.owner);

    // onb_demo_partner was made by the partner's key: one step with the partner key, one with the employer's.
    expect((await partnerAdvance(h, 'onb_demo_partner')).status).toBe(200);
    await advance(h, 'onb_demo_partner', KEYS.owner);
    // An onboarding of the employer itself, and one the partner creates now.
    const own = await createOnboarding(h, KEYS.owner);
    const made = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post('/v1/onboardings', createBody({ reference: 'hrsoft-2' }));
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await settle(h);

    const toPartner = r.to('/partner').map(message);
    expect(toPartner.map((m) => [m.data.onboarding_id, m.type])).toEqual(expect.arrayContaining([
      ['onb_demo_partner', 'onboarding.started'],
      ['onb_demo_partner', 'onboarding.employee_submitted'],
      ['onb_demo_partner', 'onboarding.submitted'],
      ['onb_demo_partner', 'onboarding.approval_required'],
      [made.body.id, 'onboarding.created'],
    ]));
    expect(toPartner).toHaveLength(5);
    for (const m of toPartner) expect(m.organization_id).toBe('org_acme');
    for (const q of r.to('/partner')) expectSignedBy(q, [partner.secret]);

    const toEmployer = r.to('/employer').map(message);
    expect(toEmployer).toHaveLength(6);
    expect(new Set(toEmployer.map((m) => m.data.onboarding_id))).toEqual(new Set(['onb_demo_partner', own, made.body.id]));
    for (const q of r.to('/employer')) expectSignedBy(q, [employer.secret]);
    // The same events, the same ids, in both.
    expect(toEmployer.filter((m) => m.data.onboarding_id !== own).map((m) => m.id).sort()).toEqual(toPartner.map((m) => m.id).sort());
  });

  it('stops new messages to the partner at once when the employer ends the relationship', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    await register(h, { url: r.url('/employer') }, KEYS.owner);
    expect((await partnerAdvance(h, 'onb_demo_partner')).status).toBe(200);
    await settle(h);
    expect(types(r, '/partner')).toEqual(['onboarding.started']);

    const ended = await h.http().patch('/_emulator/organizations/org_hrsoft').send({ admissions: [{ organization_id: 'org_acme', active: false }] });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.admissions).toContainEqual(expect.objectContaining({ organization_id: 'org_acme', active: false }));

    await advance(h, 'onb_demo_partner', KEYS.owner);
    await settle(h);
    expect(types(r, '/partner')).toEqual(['onboarding.started']);
    expect(types(r, '/employer')).toEqual(['onboarding.started', 'onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']);
  });

  it('sends nothing to the partner while the employer grants it no onboardings:read', async () => {
    const h = harness();
    const r = await receivers.start(answer(200));
    await register(h, { url: r.url('/partner') }, KEYS.hrsoft);
    const narrowed = await h.http().patch('/_emulator/organizations/org_hrsoft').send({
      admissions: [{ organization_id: 'org_acme', scopes: ['organization:read', 'onboardings:write'] }],
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    await advance(h, 'onb_demo_partner', KEYS.owner);
    await settle(h);
    expect(r.to('/partner')).toEqual([]);
  });
});

// --- strict URL policy -----------------------------------------------------------------------------

/** A resolver that never touches DNS: a fixed table, changeable during the test. */
function fakeResolver(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolver: Resolver = async (host) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return { resolver, calls, table };
}

/** A transport that never connects: records each request and answers as told. */
function recordingTransport(reply: (req: TransportRequest) => TransportResult = () => ({ ok: true, status: 200, error: null, durationMs: 1 })) {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    send: async (req) => {
      sent.push(req);
      return reply(req);
    },
  };
  return { transport, sent };
}

describe('strict URL policy (fake resolver and transport)', () => {
  function strict(table: Record<string, string[]>, reply?: (req: TransportRequest) => TransportResult) {
    const dns = fakeResolver(table);
    const wire = recordingTransport(reply);
    const h = harness({ webhooks: { urlPolicy: 'strict', resolver: dns.resolver, transport: wire.transport, signatureClock: 'emulated' } });
    return { h, dns, wire };
  }

  it('refuses http and credentials at registration', async () => {
    const { h, dns } = strict({});
    const before = h.storeJson();
    for (const url of ['http://hooks.acme.test/x', 'http://127.0.0.1:8080/x', 'https://user:pw@hooks.acme.test/x']) {
      expectError(await h.as(KEYS.owner).post('/v1/webhooks', { url }), 422, 'invalid_request', 'parameter_invalid', 'url');
    }
    expect(h.storeJson()).toBe(before);
    expect(dns.calls).toEqual([]);
  });

  it('refuses internal resolutions right before sending: the attempt fails naming the policy and the transport is never called', async () => {
    const { h, dns, wire } = strict({ 'private.example.test': ['10.0.0.5'], 'loop.example.test': ['127.0.0.1'], 'mixed.example.test': ['93.184.216.34', '192.168.1.9'] });
    const cases: [string, string][] = [
      ['https://private.example.test/hook', 'private.example.test resolves to 10.0.0.5, an internal address.'],
      ['https://loop.example.test/hook', 'loop.example.test resolves to 127.0.0.1, an internal address.'],
      ['https://mixed.example.test/hook', 'mixed.example.test resolves to 192.168.1.9, an internal address.'],
      ['https://localhost:8443/hook', 'localhost is a loopback name.'],
      ['https://unknown.example.test/hook', 'unknown.example.test could not be resolved (ENOTFOUND).'],
    ];
    for (const [url, reason] of cases) {
      const w = await register(h, { url });
      const p = await ping(h, w.id);
      await settle(h);
      expect(await delivery(h, w.id, p.delivery_id), url).toMatchObject({
        status: 'failed', attempts: 1, last_status_code: null, last_error: `refused by the strict URL policy: ${reason}`,
        next_attempt_at: iso(START_MS + MINUTE),
      });
    }
    expect(wire.sent).toEqual([]);
    expect(dns.calls).toEqual(['private.example.test', 'loop.example.test', 'mixed.example.test', 'unknown.example.test']);
  });

  it('refuses an internal literal before sending even when it reached the store another way (a snapshot taken under local)', async () => {
    const local = harness({ webhooks: { transport: recordingTransport().transport } });
    const registered = await register(local, { url: 'https://169.254.169.254/latest' });
    const snapshot = await local.http().get('/_emulator/snapshot');
    expect(snapshot.status, snapshot.text).toBe(200);

    const { h, dns, wire } = strict({});
    expect((await h.http().put('/_emulator/snapshot').send(snapshot.body as object)).status).toBe(200);
    const p = await ping(h, registered.id);
    await settle(h);
    expect(await delivery(h, registered.id, p.delivery_id)).toMatchObject({
      status: 'failed', attempts: 1, last_status_code: null, last_error: 'refused by the strict URL policy: 169.254.169.254 is an internal address.',
    });
    expect(wire.sent).toEqual([]);
    expect(dns.calls).toEqual([]);
  });

  it('delivers to a public resolution through the transport, and resolves again before every attempt', async () => {
    let status = 500;
    const { h, dns, wire } = strict({ 'hooks.acme.test': ['93.184.216.34'] }, () => ({ ok: status < 300, status, error: status < 300 ? null : `HTTP ${status}`, durationMs: 1 }));
    const w = await register(h, { url: 'https://hooks.acme.test/onboarding' });
    expect(w).toMatchObject({ url: 'https://hooks.acme.test/onboarding' });
    const p = await ping(h, w.id);
    await settle(h);

    expect(wire.sent).toHaveLength(1);
    const sent = wire.sent[0]!;
    expect(sent.url).toBe('https://hooks.acme.test/onboarding');
    // The connection goes to the address that was checked, never to a second lookup's answer.
    expect(sent.addresses).toEqual(['93.184.216.34']);
    // Under strict, a refusal is recorded by its status alone: the emulator does not read out other hosts' pages.
    expect(sent.quote).toBe(false);
    expect(sent.headers).toMatchObject({
      'Content-Type': 'application/json', 'User-Agent': 'Service-Webhooks/1', 'Service-Event-Id': p.event_id, 'Service-Event-Type': 'ping',
    });
    const t = START_S;
    expect(sent.headers['Service-Signature']).toBe(`t=${t},v1=${hmacHex(w.secret, String(t), Buffer.from(sent.body, 'utf8'))}`);
    expect(JSON.parse(sent.body)).toMatchObject({ id: p.event_id, type: 'ping' });
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'failed', last_status_code: 500, last_error: 'HTTP 500' });

    // The name now points inside (DNS rebinding): the retry is refused before sending.
    dns.table['hooks.acme.test'] = ['10.0.0.5'];
    await advanceClock(h, MINUTE);
    expect(wire.sent).toHaveLength(1);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({
      status: 'failed', attempts: 2, last_error: 'refused by the strict URL policy: hooks.acme.test resolves to 10.0.0.5, an internal address.',
    });

    // Public again: the next retry is sent and succeeds.
    dns.table['hooks.acme.test'] = ['93.184.216.35'];
    status = 204;
    await advanceClock(h, 5 * MINUTE);
    expect(wire.sent).toHaveLength(2);
    expect(wire.sent[1]!.body).toBe(sent.body);
    expect(await delivery(h, w.id, p.delivery_id)).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null });
    expect(dns.calls).toEqual(['hooks.acme.test', 'hooks.acme.test', 'hooks.acme.test']);
  });
});
