import { request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/http.js';
import { RelayHub } from '../../src/delivery/relay.js';
import type { DeliverySettings } from '../../src/delivery/settings.js';
import { createEmulator, startRelay, verifySignature, type InProcessEmulator, type RelayedDelivery, type RelayHandle } from '../../src/index.js';
import { answer, hang, useReceivers, type Receiver } from '../support/receiver.js';
import { until } from '../support/wait.js';

/**
 * The webhook relay over real HTTP: an emulator on 127.0.0.1, receivers on 127.0.0.1, and
 * startRelay() between them. Addresses under http://relayed.invalid/ cannot be reached by the
 * emulator itself, so every message that arrives came through the relay.
 */
const OWNER = 'hrs_test_acme_owner';
const HEADERS = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
const START_S = Date.parse('2026-10-05T09:00:00.000Z') / 1000;
const RELAYED = 'http://relayed.invalid/';
const started: InProcessEmulator[] = [];
const relays: RelayHandle[] = [];
const receivers = useReceivers();

afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
  for (const em of started.splice(0)) await em.close();
});

async function emulator(timeoutMs = 2_000, webhooks: Partial<DeliverySettings> = {}) {
  const em = createEmulator({ seed: 1, clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' }, webhooks: { signatureClock: 'emulated', timeoutMs, ...webhooks } });
  started.push(em);
  const { url } = await em.start(0);
  /** `token`: the relay's, sent as Relay-Token. */
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers = token === undefined ? HEADERS : { ...HEADERS, 'Relay-Token': token };
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const address = async (addressUrl: string) => {
    const res = await call('POST', '/v1/webhooks', { url: addressUrl });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const ping = async (id: string) => expect((await call('POST', `/v1/webhooks/${id}/test`, {})).status).toBe(200);
  const deliveries = async (id: string) => (await call('GET', `/v1/webhooks/${id}/deliveries?limit=100`)).body.data as { status: string; attempts: number; last_status_code: number | null; last_error: string | null }[];
  return { em, url, call, address, ping, deliveries };
}

async function relay(url: string, options: Partial<Parameters<typeof startRelay>[0]> = {}, seen: RelayedDelivery[] = []) {
  const handle = await startRelay({ url, key: OWNER, urlPrefix: RELAYED, onDelivery: (d) => seen.push(d), ...options });
  relays.push(handle);
  return handle;
}

const signedAt = (r: Receiver, path: string) => r.to(path).map((q) => Number(/^t=(\d+)/.exec(String(q.headers['service-signature']))![1]) - START_S);

describe('startRelay', () => {
  it('posts each message to the receiver byte for byte with its signature headers, and the delivery succeeds', async () => {
    const { url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(204));
    const seen: RelayedDelivery[] = [];
    await relay(url, { forwardTo: r.url('/hooks') }, seen);
    const hook = await address(`${RELAYED}hooks`);
    await ping(hook.id);
    const [req] = await r.waitFor(1);
    expect(req!.method).toBe('POST');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['service-event-type']).toBe('ping');
    expect(verifySignature(req!.body.toString('utf8'), String(req!.headers['service-signature']), hook.secret, { now: START_S })).toBe(true);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
    expect((await deliveries(hook.id))[0]).toMatchObject({ attempts: 1, last_status_code: 204, last_error: null });
    await until(() => seen.length === 1, 'the relay to report');
    expect(seen[0]).toMatchObject({ status_code: 204, error: null, recorded: true, event_type: 'ping', url: r.url('/hooks') });
  });

  it('gives a failing receiver the same retry instants as a direct delivery', async () => {
    const { em, url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(500, 'down'));
    // One address through the relay, one straight to the receiver: the relay takes only the first.
    await relay(url, { forwardTo: r.url('/relayed') });
    const relayed = await address(`${RELAYED}hooks`);
    const direct = await address(r.url('/direct'));
    await ping(relayed.id);
    await ping(direct.id);
    for (const step of ['1m', '5m', '30m', '2h']) await em.clock.advance(step);
    expect(signedAt(r, '/relayed')).toEqual([0, 60, 360, 2160, 9360]);
    expect(signedAt(r, '/relayed')).toEqual(signedAt(r, '/direct'));
    const [a, b] = [(await deliveries(relayed.id))[0]!, (await deliveries(direct.id))[0]!];
    expect(a).toMatchObject({ status: 'failed', attempts: 5, last_status_code: 500, last_error: 'HTTP 500: down' });
    expect({ ...a, id: undefined, endpoint_id: undefined, event_id: undefined, created_at: undefined }).toEqual({ ...b, id: undefined, endpoint_id: undefined, event_id: undefined, created_at: undefined });
  });

  it('plays delivery faults as it would directly: a duplicate comes twice, a corrupt signature does not verify', async () => {
    const { em, url, address, ping } = await emulator();
    const r = await receivers.start(answer(200));
    await relay(url, { forwardTo: r.url('/hooks') });
    const hook = await address(`${RELAYED}hooks`);
    await em.deliveryFaults.add({ kind: 'duplicate', delay_ms: 1000 });
    await em.deliveryFaults.add({ kind: 'corrupt_signature' });
    await ping(hook.id);
    await ping(hook.id);
    await em.clock.advance('1s');
    await r.waitFor(3);
    const byEvent = new Map<string, string[]>();
    for (const q of r.requests) byEvent.set(String(q.headers['service-event-id']), [...(byEvent.get(String(q.headers['service-event-id'])) ?? []), String(q.headers['service-signature'])]);
    const counts = [...byEvent.values()].map((v) => v.length).sort();
    expect(counts).toEqual([1, 2]);
    const verified = r.requests.map((q) => verifySignature(q.body.toString('utf8'), String(q.headers['service-signature']), hook.secret, { now: START_S + 1 }));
    expect(verified.filter((v) => !v)).toHaveLength(1);
  });

  it("sends each message to its address's own URL when there is no forward-to", async () => {
    const { url, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(200));
    await relay(url, { urlPrefix: r.base });
    const hook = await address(r.url('/own'));
    await ping(hook.id);
    await r.waitFor(1);
    expect(r.to('/own')).toHaveLength(1);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
  });

  it('records a receiver that does not answer as the timeout a direct attempt records', async () => {
    const { url, address, ping, deliveries } = await emulator(300);
    const r = await receivers.start(hang);
    await relay(url, { forwardTo: r.url('/slow') });
    const hook = await address(`${RELAYED}slow`);
    await ping(hook.id);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'failed', 'the attempt to fail', 5_000);
    expect((await deliveries(hook.id))[0]).toMatchObject({ last_status_code: null, last_error: 'timed out after 300 ms' });
  });

  it('once closed, takes nothing: the relay list is empty and attempts go out directly', async () => {
    const { url, call, address, ping, deliveries } = await emulator();
    const r = await receivers.start(answer(200));
    const handle = await relay(url, { urlPrefix: r.base, forwardTo: r.url('/relayed') });
    expect((await call('GET', '/_emulator/relays')).body.data).toMatchObject([{ id: handle.relay.id, workspace: 'default', url_prefix: r.base, forward_to: r.url('/relayed') }]);
    await handle.close();
    expect(await handle.done).toEqual({ reason: 'closed' });
    expect((await call('GET', '/_emulator/relays')).body.data).toEqual([]);
    const hook = await address(r.url('/direct'));
    await ping(hook.id);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the direct delivery');
    expect(r.to('/relayed')).toHaveLength(0);
    expect(r.to('/direct')).toHaveLength(1);
  });

  it('ends as lost when the emulator goes away', async () => {
    const { em, url } = await emulator();
    const handle = await relay(url, { waitMs: 200 });
    await em.close();
    const end = await handle.done;
    expect(end.reason).toBe('lost');
  });

  it('refuses to start against an emulator that is not there', async () => {
    await expect(startRelay({ url: 'http://127.0.0.1:9' })).rejects.toThrow(/cannot reach the emulator/);
  });
});

describe('the relay routes', () => {
  it('validate what they are sent, and say which relay is unknown', async () => {
    const { call } = await emulator();
    expect((await call('POST', '/_emulator/relays', { url_prefix: 7 })).status).toBe(422);
    expect((await call('POST', '/_emulator/relays', { nope: true })).status).toBe(422);
    expect((await call('POST', '/_emulator/relays', { forward_to: 'localhost:3000' })).status).toBe(422);
    const open = await call('POST', '/_emulator/relays', {});
    expect(open.status).toBe(201);
    const id = open.body.id as string;
    const token = open.body.token as string;
    expect((await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: -1 }, token)).status).toBe(422);
    expect((await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 0 }, token)).body).toEqual({ data: [], stopping: false });
    const unknownMessage = await call('POST', `/_emulator/relays/${id}/results`, { message_id: 'rmsg_999', status_code: 200, error: null, duration_ms: 1 }, token);
    expect(unknownMessage.status).toBe(404);
    expect((unknownMessage.body.error as { code: string }).code).toBe('resource_not_found');
    expect((await call('POST', `/_emulator/relays/${id}/results`, { message_id: 'rmsg_1', status_code: 99, error: null, duration_ms: 1 }, token)).status).toBe(422);
    expect((await call('DELETE', `/_emulator/relays/${id}`, undefined, token)).status).toBe(200);
    expect((await call('POST', `/_emulator/relays/${id}/claim`, {}, token)).status).toBe(404);
    expect((await call('DELETE', '/_emulator/relays/rly_nope', undefined, token)).status).toBe(404);
  });

  it('belong to one workspace: another workspace neither sees nor claims them', async () => {
    const { call } = await emulator();
    const other = await call('POST', '/_emulator/workspaces', {});
    const otherId = other.body.id as string;
    const open = await call('POST', '/_emulator/relays', {});
    expect((await call('GET', `/_emulator/workspaces/${otherId}/relays`)).body.data).toEqual([]);
    expect((await call('POST', `/_emulator/workspaces/${otherId}/relays/${open.body.id as string}/claim`, { wait_ms: 0 }, open.body.token as string)).status).toBe(404);
  });

  it('answer a waiting long poll as soon as a message comes', async () => {
    const { url, call, address, ping } = await emulator();
    const open = await call('POST', '/_emulator/relays', { url_prefix: RELAYED });
    const id = open.body.id as string;
    const token = open.body.token as string;
    const began = performance.now();
    const poll = call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 20_000 }, token);
    const hook = await address(`${RELAYED}x`);
    await ping(hook.id);
    const claimed = await poll;
    expect(performance.now() - began).toBeLessThan(10_000);
    const [m] = claimed.body.data as { id: string; url: string; headers: Record<string, string>; body: string; timeout_ms: number }[];
    expect(m).toMatchObject({ url: `${RELAYED}x`, timeout_ms: 2_000 });
    expect(verifySignature(m!.body, m!.headers['Service-Signature']!, hook.secret, { now: START_S })).toBe(true);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect((await call('POST', `/_emulator/relays/${id}/results`, { message_id: m!.id, status_code: 200, error: null, duration_ms: 3 }, token)).body).toEqual({ message_id: m!.id, recorded: true });
  });
});

/** Stand-ins that must never be reached: an attempt the emulator makes itself is counted, never sent. */
function directTransport() {
  const sent: string[] = [];
  return { sent, transport: { send: async (r: { url: string }) => (sent.push(r.url), { ok: true, status: 200, error: null, durationMs: 1 }) } };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/**
 * An emulator stand-in on 127.0.0.1 that hands the relay one message of its choosing, then
 * answers its polls empty: what a relay does with a message outside what it asked for.
 */
async function fakeEmulator(messageUrl: string) {
  const seen: { line: string; headers: IncomingHttpHeaders; body: Record<string, unknown> | undefined }[] = [];
  let handed = false;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      seen.push({ line: `${req.method} ${req.url}`, headers: req.headers, body });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': 'req_fake', 'Service-Version': '2026-01-01' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && req.url === '/_emulator/relays') {
        return send(201, { id: 'rly_1', workspace: 'default', url_prefix: body?.url_prefix ?? null, forward_to: body?.forward_to ?? null, created_at: '2026-10-05T09:00:00.000Z', polling: false, queued: 0, in_flight: 0, relayed: 0, token: 'rlt_fake' });
      }
      if (req.url?.endsWith('/claim')) {
        if (handed) return void setTimeout(() => send(200, { data: [], stopping: false }), 50);
        handed = true;
        return send(200, { data: [{ id: 'rmsg_outside', url: messageUrl, headers: { 'Content-Type': 'application/json', 'Service-Event-Type': 'ping' }, body: '{}', timeout_ms: 1_000 }], stopping: false });
      }
      if (req.url?.endsWith('/results')) return send(200, { message_id: body?.message_id, recorded: true });
      send(200, {});
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('a relay under the strict URL policy', () => {
  const resolver = async (host: string) => (host === 'hooks.example.test' ? ['93.184.216.34'] : []);

  it("is refused without --forward-to: it would post to the address's name as resolved where it runs, past the policy", async () => {
    const direct = directTransport();
    const { url, call } = await emulator(2_000, { urlPolicy: 'strict', resolver, transport: direct.transport });
    const refused = await call('POST', '/_emulator/relays', { url_prefix: 'https://hooks.example.test/' });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request', code: 'parameter_missing', param: 'forward_to', message: expect.stringContaining('strict URL policy'), request_id: expect.any(String) });
    const relayed = directTransport();
    const err = await startRelay({ url, key: OWNER, urlPrefix: 'https://hooks.example.test/', transport: relayed.transport }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'parameter_missing', param: 'forward_to' });
    expect((await call('GET', '/_emulator/relays')).body.data).toEqual([]);
  });

  it('with --forward-to, carries the addresses the policy vetted to that one receiver', async () => {
    const direct = directTransport();
    const { url, address, ping, deliveries } = await emulator(2_000, { urlPolicy: 'strict', resolver, transport: direct.transport });
    const r = await receivers.start(answer(204));
    await relay(url, { urlPrefix: 'https://hooks.example.test/', forwardTo: r.url('/hooks') });
    const hook = await address('https://hooks.example.test/x');
    await ping(hook.id);
    await r.waitFor(1);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
    expect(direct.sent).toEqual([]);
  });
});

describe("the relay's own --url-prefix", () => {
  it('posts nothing outside it, whatever the emulator hands over, and reports the message refused', async () => {
    const r = await receivers.start(answer(200));
    for (const forwardTo of [undefined, r.url('/forwarded')]) {
      const fake = await fakeEmulator(r.url('/internal'));
      const seen: RelayedDelivery[] = [];
      await relay(fake.url, { urlPrefix: RELAYED, forwardTo }, seen);
      await until(() => seen.length === 1, 'the report');
      const report = fake.seen.find((s) => s.line.endsWith('/results'))!;
      expect(report.body).toMatchObject({ message_id: 'rmsg_outside', status_code: null, error: `refused by the relay: ${r.url('/internal')} does not start with its --url-prefix ${RELAYED}` });
      expect(seen[0]).toMatchObject({ url: r.url('/internal'), status_code: null, recorded: true });
      // The relay's own requests carry its token; the open, which makes it, does not.
      expect(fake.seen[0]!.headers['relay-token']).toBeUndefined();
      for (const s of fake.seen.slice(1)) expect(s.headers['relay-token'], s.line).toBe('rlt_fake');
    }
    expect(r.requests).toHaveLength(0);
  });
});

describe('relay tokens', () => {
  it('let only the client that opened a relay claim, report or close for it: a forged 204 records nothing', async () => {
    const { call, address, ping, deliveries } = await emulator();
    const mine = await call('POST', '/_emulator/relays', { url_prefix: RELAYED });
    const theirs = await call('POST', '/_emulator/relays', { url_prefix: 'http://elsewhere.invalid/' });
    const [id, token, other] = [mine.body.id as string, mine.body.token as string, theirs.body.token as string];
    expect(token).toMatch(/^rlt_[A-Za-z0-9_-]{32}$/);
    const hook = await address(`${RELAYED}x`);
    await ping(hook.id);
    // Another control client of the workspace: no token, a guessed one, its own relay's.
    for (const t of [undefined, 'rlt_guess', other]) {
      const claim = await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 0 }, t);
      expect(claim.status).toBe(403);
      expect(claim.body.error).toMatchObject({ type: 'permission_error', code: 'relay_token_invalid', message: expect.stringContaining('Relay-Token'), request_id: expect.any(String) });
    }
    const [m] = (await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 0 }, token)).body.data as { id: string }[];
    expect(m!.id).toMatch(/^rmsg_[A-Za-z0-9_-]{16}$/);
    const forged = { message_id: m!.id, status_code: 204, error: null, duration_ms: 1 };
    expect((await call('POST', `/_emulator/relays/${id}/results`, forged)).status).toBe(403);
    expect((await call('POST', `/_emulator/relays/${id}/results`, forged, other)).status).toBe(403);
    expect((await call('POST', `/_emulator/relays/${theirs.body.id as string}/results`, forged, other)).status).toBe(404);
    expect((await call('DELETE', `/_emulator/relays/${id}`, undefined, other)).status).toBe(403);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'in_progress', attempts: 1 });
    // The relay's own report is the one recorded.
    expect((await call('POST', `/_emulator/relays/${id}/results`, { ...forged, status_code: 503, error: 'HTTP 503' }, token)).status).toBe(200);
    await until(async () => (await deliveries(hook.id))[0]?.last_status_code === 503, 'the report recorded');
    // A test message is not retried: the one attempt ends it.
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'failed', last_error: 'HTTP 503' });
  });

  it('never show the token again: not in the list, the close, the journal, the delivery log or either HAR', async () => {
    const { call, address, ping, deliveries } = await emulator();
    const open = await call('POST', '/_emulator/relays', { url_prefix: RELAYED, forward_to: 'http://127.0.0.1:9/hooks' });
    const [id, token] = [open.body.id as string, open.body.token as string];
    const hook = await address(`${RELAYED}x`);
    await ping(hook.id);
    const [m] = (await call('POST', `/_emulator/relays/${id}/claim`, { wait_ms: 5_000 }, token)).body.data as { id: string }[];
    await call('POST', `/_emulator/relays/${id}/results`, { message_id: m!.id, status_code: 200, error: null, duration_ms: 2 }, token);
    await until(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 'the delivery to succeed');
    const answers = [
      await call('GET', '/_emulator/relays'),
      await call('DELETE', `/_emulator/relays/${id}`, undefined, token),
      await call('GET', '/_emulator/requests'),
      await call('GET', '/_emulator/requests?format=har'),
      await call('GET', '/_emulator/deliveries'),
      await call('GET', '/_emulator/deliveries?format=har'),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      // Not the token, nor enough of it to recognise.
      expect(JSON.stringify(a.body)).not.toContain(token.slice(4, 16));
    }
  });
});

describe('the relay cap', () => {
  it('opens 16 relays in a workspace and refuses the 17th with 422 relay_limit_reached; a closed one makes room', async () => {
    const { call } = await emulator();
    const opened: { id: string; token: string }[] = [];
    for (let i = 0; i < 16; i++) {
      const o = await call('POST', '/_emulator/relays', { url_prefix: `http://r${i}.invalid/` });
      expect(o.status).toBe(201);
      opened.push(o.body as { id: string; token: string });
    }
    const refused = await call('POST', '/_emulator/relays', {});
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ type: 'invalid_request', code: 'relay_limit_reached', message: expect.stringContaining('16 relays open'), request_id: expect.any(String) });
    expect((await call('GET', '/_emulator/relays')).body.data).toHaveLength(16);
    const other = await call('POST', '/_emulator/workspaces', {});
    expect((await call('POST', `/_emulator/workspaces/${other.body.id as string}/relays`, {})).status).toBe(201);
    expect((await call('DELETE', `/_emulator/relays/${opened[0]!.id}`, undefined, opened[0]!.token)).status).toBe(200);
    expect((await call('POST', '/_emulator/relays', {})).status).toBe(201);
  });

  it('holds under many opens at once: 40 together make 16 relays and 24 refusals', async () => {
    const { call } = await emulator();
    const answers = await Promise.all(Array.from({ length: 40 }, () => call('POST', '/_emulator/relays', {})));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16);
    expect(answers.filter((a) => a.status === 422 && (a.body.error as { code: string }).code === 'relay_limit_reached')).toHaveLength(24);
    expect((await call('GET', '/_emulator/relays')).body.data).toHaveLength(16);
  });
});

describe('the relay lease', () => {
  it("runs from the moment a waiting poll's connection closes (a relay killed mid-poll), not from the end of its wait", async () => {
    const LEASE_MS = 1_000;
    const { url, call } = await emulator(2_000, { relays: new RelayHub({ leaseMs: LEASE_MS }) });
    const open = await call('POST', '/_emulator/relays', {});
    const listed = async () => (await call('GET', '/_emulator/relays')).body.data as { polling: boolean }[];
    const poll = httpRequest(`${url}/_emulator/relays/${open.body.id as string}/claim`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Relay-Token': open.body.token as string } });
    poll.on('error', () => undefined);
    poll.end(JSON.stringify({ wait_ms: 60_000 }));
    await until(async () => (await listed())[0]?.polling === true, 'the poll to wait');
    poll.destroy();
    const closed = performance.now();
    await until(async () => (await listed())[0]?.polling === false, 'the poll to end with its connection', 2_000);
    await until(async () => (await listed()).length === 0, 'the relay to lapse', 5_000);
    const lapsed = performance.now() - closed;
    expect(lapsed).toBeGreaterThan(LEASE_MS - 10);
    expect(lapsed).toBeLessThan(LEASE_MS + 500);
  });
});
