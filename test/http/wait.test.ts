import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { WAIT_LIMIT_PER_WORKSPACE, WAIT_OWN_PLACES, WAIT_SHARED_PLACES } from '../../src/core/waits.js';
import { createBody, FROZEN_START, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * GET /_emulator/wait over a real server: each kind answers once its condition holds, within
 * 50 ms of the change that made it hold (frozen and realtime clocks), and a wait that is not met
 * answers 409 wait_timeout in the error envelope with the nearest candidates.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function serve(clock: 'frozen' | 'realtime' = 'frozen') {
  const emulator = new Emulator({ clock: clock === 'frozen' ? { mode: 'frozen', start: FROZEN_START } : { mode: 'realtime' } });
  const running: RunningServer = await listen(emulator, { host: '127.0.0.1', port: 0 });
  open.push({ close: () => running.close() });
  const url = running.url;
  const api = (method: string, path: string, body?: object) =>
    fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  /** Starts a wait; resolves with its answer and the instant it arrived. */
  const wait = async (query: Record<string, string | number>, signal?: AbortSignal) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await fetch(`${url}/_emulator/wait?${search}`, signal ? { signal } : {});
    const body = (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string; details?: { path: string; message: string }[] } };
    return { status: res.status, body, at: performance.now() };
  };
  return { emulator, url, api, wait };
}

/**
 * A webhook receiver that notes when each answer was written; a held one answers only once the
 * test releases what it holds (a slow receiver whose slowness ends on the test's word).
 */
async function webhookReceiver(held: boolean) {
  const answered: number[] = [];
  const holding: (() => void)[] = [];
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      const answer = () => void res.end('ok', () => answered.push(performance.now()));
      if (held) holding.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    answered,
    received: () => received,
    release: () => { for (const answer of holding.splice(0)) answer(); },
  };
}

/** Resolves once the emulator holds `n` open waits (the wait was registered before the change is made). */
const waitsOpen = (emulator: Emulator, n: number) => until(() => emulator.waits.size >= n, `${n} open wait(s)`, 2_000);

describe('GET /_emulator/wait: met', () => {
  it('for=event answers within 50 ms of the request that made the event (frozen clock)', async () => {
    const { emulator, api, wait } = await serve('frozen');
    const before = emulator.defaultWorkspace.store.events.values().filter((e) => e.type === 'onboarding.created').length;
    const pending = wait({ for: 'event', type: 'onboarding.created', count: before + 1, timeout_ms: 5_000 });
    await waitsOpen(emulator, 1);
    const created = await api('POST', '/v1/onboardings', createBody());
    const madeAt = performance.now();
    const id = ((await created.json()) as { id: string }).id;
    const { status, body, at } = await pending;
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'wait', for: 'event', count: before + 1, clock: FROZEN_START });
    const data = body.data as { id: string; type: string; data: { onboarding_id: string } }[];
    expect(data.at(-1)).toMatchObject({ type: 'onboarding.created', data: { onboarding_id: id } }); // oldest first: the new one last
    expect(at - madeAt).toBeLessThan(50);
    expect(emulator.waits.size).toBe(0);
  });

  it('for=delivery answers within 50 ms of the receiver\'s answer (realtime clock)', async () => {
    const { emulator, api, wait } = await serve('realtime');
    const receiver = await webhookReceiver(true);
    const hook = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['onboarding.created'] });
    expect(hook.status).toBe(201);
    const pending = wait({ for: 'delivery', address: receiver.url, event_type: 'onboarding.*', status: 'succeeded', timeout_ms: 5_000 });
    await waitsOpen(emulator, 1);
    expect((await api('POST', '/v1/onboardings', createBody())).status).toBe(201);
    await until(() => receiver.received() === 1, 'the attempt to reach the receiver');
    // The attempt is in flight: the wait still holds, and is met once the receiver answers.
    expect(emulator.waits.size).toBe(1);
    receiver.release();
    const { status, body, at } = await pending;
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data).toEqual([expect.objectContaining({ event_type: 'onboarding.created', status: 'succeeded', attempts: 1 })]);
    expect(receiver.answered).toHaveLength(1);
    expect(at - receiver.answered[0]!).toBeLessThan(50);
    expect(at - receiver.answered[0]!).toBeGreaterThanOrEqual(0);
  });

  it('for=request uses the verify matcher (body_includes as JSON text) and waits for count of them', async () => {
    const { emulator, api, wait } = await serve();
    const pending = wait({ for: 'request', method: 'POST', path: '/v1/onboardings', status: 201, body_includes: JSON.stringify({ reference: 'wanted' }), count: 2 });
    await waitsOpen(emulator, 1);
    await api('POST', '/v1/onboardings', createBody({ reference: 'wanted' }));
    await api('POST', '/v1/onboardings', createBody({ reference: 'other' }));
    await api('POST', '/v1/onboardings', createBody({ reference: 'wanted' }));
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.count).toBe(2);
    expect((body.data as { body: { reference: string } }[]).map((r) => r.body.reference)).toEqual(['wanted', 'wanted']);
  });

  it('for=status waits for a status; a final status that is not the one waited for answers at once', async () => {
    const { emulator, url, wait } = await serve();
    const pending = wait({ for: 'status', onboarding_id: 'onb_demo_jansen', status: 'cancelled' });
    await waitsOpen(emulator, 1);
    const cancelled = await fetch(`${url}/_emulator/onboardings/onb_demo_jansen/cancel`, { method: 'POST' });
    const madeAt = performance.now();
    expect(cancelled.status).toBe(200);
    const met = await pending;
    expect(met.status).toBe(200);
    expect(met.body.data).toEqual([expect.objectContaining({ id: 'onb_demo_jansen', status: 'cancelled' })]);
    expect(met.at - madeAt).toBeLessThan(50);

    const started = performance.now();
    const never = await wait({ for: 'status', onboarding_id: 'onb_demo_jansen', status: 'completed', timeout_ms: 10_000 });
    expect(never.status).toBe(409);
    expect(never.body.error).toMatchObject({ code: 'wait_unreachable', param: 'status' });
    expect(never.body.error!.message).toContain('cancelled, a final status');
    expect(performance.now() - started).toBeLessThan(1_000);

    const unknown = await wait({ for: 'status', onboarding_id: 'onb_nope', status: 'completed' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'resource_not_found', param: 'onboarding_id' });
  });

  it('for=settled holds while a webhook attempt is in flight, and answers once it is done', async () => {
    const { emulator, api, wait } = await serve();
    const receiver = await webhookReceiver(true);
    await api('POST', '/v1/webhooks', { url: receiver.url, events: ['onboarding.created'] });
    expect((await api('POST', '/v1/onboardings', createBody())).status).toBe(201);
    expect(emulator.defaultWorkspace.scheduler.running).toBe(1); // the attempt started after the request
    const settled = wait({ for: 'settled' });
    await waitsOpen(emulator, 1);
    receiver.release();
    const { status, body, at } = await settled;
    expect(status).toBe(200);
    expect(body).toMatchObject({ for: 'settled', count: 0, data: [] });
    expect(receiver.answered).toHaveLength(1);
    expect(at - receiver.answered[0]!).toBeLessThan(50);
    expect(emulator.defaultWorkspace.store.deliveries.values()[0]!.status).toBe('succeeded');
  });

  it('waits on the workspace its path names', async () => {
    const { emulator, url } = await serve();
    const ws = emulator.createWorkspace();
    const res = await fetch(`${url}/_emulator/workspaces/${ws.id}/wait?for=settled`);
    expect(res.status).toBe(200);
    const gone = await fetch(`${url}/_emulator/workspaces/ws_nope/wait?for=settled`);
    expect(gone.status).toBe(404);
  });
});

describe('GET /_emulator/wait: not met', () => {
  it('answers 409 wait_timeout after timeout_ms, naming the nearest candidates and how they differ', async () => {
    const { wait } = await serve();
    const started = performance.now();
    const { status, body } = await wait({ for: 'event', type: 'onboarding.completed', onboarding_id: 'onb_demo_jansen', timeout_ms: 200 });
    const took = performance.now() - started;
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ type: 'conflict', code: 'wait_timeout', param: 'for' });
    expect(body.error!.message).toMatch(/^for=event: not met within 200 ms; 0 of 1 event\(s\) matched/);
    expect(took).toBeGreaterThanOrEqual(195);
    const details = body.error!.details!;
    expect(details.length).toBeGreaterThan(0);
    // The demo onboarding's own created event differs in the type only: it comes first.
    expect(details[0]!.message).toMatch(/^onboarding\.created for onb_demo_jansen .*; differs in type$/);
  });

  it('for=request times out with verify\'s nearest requests', async () => {
    const { api, wait } = await serve();
    await api('GET', '/v1/onboardings');
    const { status, body } = await wait({ for: 'request', method: 'POST', path: '/v1/onboardings', timeout_ms: 0 });
    expect(status).toBe(409);
    expect(body.error!.details).toEqual([{ path: expect.stringMatching(/^jrn_/), message: expect.stringMatching(/^GET \/v1\/onboardings answered 200 at .*; differs in method$/) }]);
  });

  it('refuses what can never be met, at once: a field the kind does not read, an unknown event type, a bad status, a timeout out of bounds', async () => {
    const { wait } = await serve();
    const cases: [Record<string, string | number>, string, string][] = [
      [{ for: 'settled', type: 'onboarding.created' }, 'parameter_unknown', 'type'],
      [{ for: 'event', status: 'completed' }, 'parameter_unknown', 'status'],
      [{ for: 'event', type: 'onboarding.complete' }, 'parameter_invalid', 'type'],
      [{ for: 'delivery', status: 'delivered' }, 'parameter_invalid', 'status'],
      [{ for: 'request', status: 'ok' }, 'parameter_invalid', 'status'],
      [{ for: 'request', body_includes: '{not json' }, 'parameter_invalid', 'body_includes'],
      [{ for: 'status', status: 'completed' }, 'parameter_missing', 'onboarding_id'],
      [{ for: 'status', onboarding_id: 'onb_demo_jansen' }, 'parameter_missing', 'status'],
      [{ for: 'status', onboarding_id: 'onb_demo_jansen', status: 'done' }, 'parameter_invalid', 'status'],
      [{ for: 'event', timeout_ms: 60_001 }, 'parameter_invalid', 'timeout_ms'],
      [{ for: 'event', timeout_ms: '1e3' }, 'parameter_invalid', 'timeout_ms'],
      [{ for: 'nothing' }, 'parameter_invalid', 'for'],
    ];
    for (const [query, code, param] of cases) {
      const started = performance.now();
      const { status, body } = await wait(query);
      expect(status, JSON.stringify(query)).toBe(422);
      expect(body.error, JSON.stringify(query)).toMatchObject({ code, param });
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    const missing = await wait({} as Record<string, string>);
    expect(missing.status).toBe(422);
    expect(missing.body.error!.message).toContain('for');
  });

  it('a client that hangs up frees its wait; a stopping emulator answers the open ones', async () => {
    const { emulator, wait } = await serve();
    const gone = new AbortController();
    const abandoned = wait({ for: 'event', type: 'onboarding.completed', timeout_ms: 30_000 }, gone.signal).catch((err: unknown) => err);
    await waitsOpen(emulator, 1);
    gone.abort();
    await abandoned;
    await until(() => emulator.waits.size === 0, 'the abandoned wait to be freed', 2_000);

    const held = wait({ for: 'event', type: 'onboarding.completed', timeout_ms: 30_000 });
    await waitsOpen(emulator, 1);
    emulator.waits.stop();
    const { status, body } = await held;
    expect(status).toBe(409);
    expect(body.error!.message).toContain('the emulator is stopping');
  });

  it('a workspace deleted while waited on ends the wait with workspace_not_found', async () => {
    const { emulator, url } = await serve();
    const ws = emulator.createWorkspace();
    const pending = fetch(`${url}/_emulator/workspaces/${ws.id}/wait?for=event&type=onboarding.completed&timeout_ms=10000`);
    await waitsOpen(emulator, 1);
    expect((await fetch(`${url}/_emulator/workspaces/${ws.id}`, { method: 'DELETE' })).status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('workspace_not_found');
  });

  it(`shares the places fairly: ${WAIT_LIMIT_PER_WORKSPACE} on one workspace at most, and a workspace with none open can always open ${WAIT_OWN_PLACES}, however many one client holds`, async () => {
    const { emulator, url } = await serve();
    const open = (ws: string) => fetch(`${url}/_emulator/workspaces/${ws}/wait?for=event&type=onboarding.completed&timeout_ms=30000`);
    /**
     * Sends `n` waits on a workspace at once; resolves, once each is either open or answered, with
     * the answers (the refused ones), having checked that `held` of them are open.
     */
    const burst = async (ws: string, n: number, held: number) => {
      const before = emulator.waits.size;
      const answered: Response[] = [];
      const sent = Array.from({ length: n }, () => open(ws).then((res) => (answered.push(res), res)));
      all.push(...sent);
      await until(() => answered.length + emulator.waits.size - before === n, `each of ${n} waits open or answered`, 5_000);
      expect(emulator.waits.size - before).toBe(held);
      return answered;
    };
    const all: Promise<Response>[] = [];
    // One client, four workspaces, 64 waits sent on each (the default's too: 65, one beyond its own limit).
    const greedy = ['default', ...Array.from({ length: 3 }, () => emulator.createWorkspace().id)];
    const overOwn = await burst('default', WAIT_LIMIT_PER_WORKSPACE + 1, WAIT_LIMIT_PER_WORKSPACE);
    expect(overOwn).toHaveLength(1);
    expect(overOwn[0]!.status).toBe(429);
    expect(((await overOwn[0]!.json()) as { error: { message: string } }).error.message).toContain(`${WAIT_LIMIT_PER_WORKSPACE} waits are open on workspace default`);
    expect(await burst(greedy[1]!, WAIT_LIMIT_PER_WORKSPACE, WAIT_LIMIT_PER_WORKSPACE)).toHaveLength(0);
    expect(await burst(greedy[2]!, WAIT_LIMIT_PER_WORKSPACE, WAIT_LIMIT_PER_WORKSPACE)).toHaveLength(0);
    // The fourth gets its own places and what is left of the shared ones: 2 + (192 - 3 x 62) = 8.
    const sharedLeft = WAIT_SHARED_PLACES - 3 * (WAIT_LIMIT_PER_WORKSPACE - WAIT_OWN_PLACES);
    const fourth = await burst(greedy[3]!, WAIT_LIMIT_PER_WORKSPACE, WAIT_OWN_PLACES + sharedLeft);
    expect(fourth).toHaveLength(WAIT_LIMIT_PER_WORKSPACE - WAIT_OWN_PLACES - sharedLeft);
    expect(emulator.waits.size).toBe(3 * WAIT_LIMIT_PER_WORKSPACE + WAIT_OWN_PLACES + sharedLeft);
    expect(fourth.map((r) => r.status)).toEqual(fourth.map(() => 429));
    expect(fourth[0]!.headers.get('retry-after')).toBe('1');
    expect(((await fourth[0]!.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'wait_limit_reached',
      message: expect.stringContaining(`The ${WAIT_SHARED_PLACES} wait places the workspaces share are taken`),
    });
    // Another client's workspace, with none open: its own places are there; one more is refused.
    const other = emulator.createWorkspace().id;
    expect(await burst(other, WAIT_OWN_PLACES + 1, WAIT_OWN_PLACES)).toMatchObject([{ status: 429 }]);
    const held = emulator.waits.size;
    expect(held).toBe(3 * WAIT_LIMIT_PER_WORKSPACE + 2 * WAIT_OWN_PLACES + sharedLeft);
    // Every held one was a real wait: a stopping emulator answers each.
    emulator.waits.stop();
    const answers = await Promise.all(all);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(held);
    expect(emulator.waits.size).toBe(0);
  });

  it('a wait on a quiet workspace runs no check until something changes', async () => {
    const { emulator, api } = await serve();
    let checks = 0;
    // Timers and immediates faked while the wait is quiet: any polling of the wait would be one of them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] });
    let pending: Promise<unknown>;
    let timers: number;
    try {
      pending = emulator.waits.until('default', emulator.defaultWorkspace.activity, () => (++checks > 1 ? 'met' : undefined), 5_000);
      vi.advanceTimersByTime(4_999);
      timers = vi.getTimerCount();
    } finally {
      vi.useRealTimers();
    }
    expect(checks).toBe(1); // the first look only: no polling
    expect(timers).toBe(1); // its deadline, and nothing else
    await api('GET', '/v1/onboardings');
    expect(await pending).toEqual({ met: true, value: 'met' });
    expect(checks).toBe(2);
  });
});

/**
 * A wait reads, on each change, only what changed since its last look (the journal past its
 * cursor, the records a collection's log names), yet counts what the workspace holds now.
 */
describe('GET /_emulator/wait follows the workspace, not only what was added', () => {
  /**
   * Opens a second wait that `change` meets, and resolves once it answered: every wait on the
   * workspace was checked on the notice that answered it, so one still open was not met.
   */
  async function checkedAfter(emulator: Emulator, openMarker: () => Promise<{ status: number }>, change: () => Promise<unknown>) {
    const open = emulator.waits.size;
    const marker = openMarker();
    await waitsOpen(emulator, open + 1);
    await change();
    expect((await marker).status).toBe(200);
  }

  it('for=request counts the requests the journal holds: a clear drops them, a reset gives it a new journal', async () => {
    const { emulator, url, api, wait } = await serve();
    await api('GET', '/v1/onboardings');
    const pending = wait({ for: 'request', method: 'GET', path: '/v1/onboardings', count: 2, timeout_ms: 5_000 });
    await waitsOpen(emulator, 1);
    expect((await fetch(`${url}/_emulator/requests`, { method: 'DELETE' })).status).toBe(200);
    const one = () => wait({ for: 'request', method: 'GET', path: '/v1/onboardings', timeout_ms: 5_000 });
    await checkedAfter(emulator, one, () => api('GET', '/v1/onboardings'));
    expect(emulator.waits.size).toBe(1);
    expect((await fetch(`${url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    await checkedAfter(emulator, one, () => api('GET', '/v1/onboardings'));
    expect(emulator.waits.size).toBe(1);
    await api('GET', '/v1/onboardings');
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.count).toBe(2);
    expect((body.data as { id: string }[]).map((e) => e.id)).toEqual(['jrn_000001', 'jrn_000002']);
  });

  it('for=delivery reads an address as it is now: the deliveries of a deleted address no longer count', async () => {
    const { emulator, api, wait } = await serve();
    const receiver = await webhookReceiver(false);
    const first = (await (await api('POST', '/v1/webhooks', { url: receiver.url })).json()) as { id: string };
    expect((await api('POST', '/v1/onboardings', createBody({ reference: 'one' }))).status).toBe(201);
    expect((await wait({ for: 'delivery', address: receiver.url, status: 'succeeded', timeout_ms: 5_000 })).status).toBe(200);
    const pending = wait({ for: 'delivery', address: receiver.url, status: 'succeeded', count: 2, timeout_ms: 5_000 });
    await waitsOpen(emulator, 1);
    expect((await api('DELETE', `/v1/webhooks/${first.id}`)).status).toBe(200);
    expect((await api('POST', '/v1/webhooks', { url: receiver.url })).status).toBe(201);
    // The address as it is now has no succeeded delivery: a wait for one holds until the next.
    const one = () => wait({ for: 'delivery', address: receiver.url, status: 'succeeded', timeout_ms: 5_000 });
    await checkedAfter(emulator, one, () => api('POST', '/v1/onboardings', createBody({ reference: 'two' })));
    // The first delivery went to an address that is gone: one of two.
    expect(emulator.waits.size).toBe(1);
    expect((await api('POST', '/v1/onboardings', createBody({ reference: 'three' }))).status).toBe(201);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.count).toBe(2);
  });
});
