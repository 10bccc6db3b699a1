import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELAY_LEASE_MS, RELAY_LIMIT, RELAY_MARGIN_MS, RelayHub } from '../../src/delivery/relay.js';

/** The relay hub on its own: which relay takes an attempt, what a report or a timeout makes of it, and when a relay is gone. */
const request = (url: string, timeoutMs = 1_000) => ({ url, headers: { 'Service-Event-Id': 'evt_1' }, body: '{"a":1}', timeoutMs });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('RelayHub', () => {
  it('gives an attempt to the relay with the longest matching prefix of its workspace, else to none', () => {
    const hub = new RelayHub();
    hub.open('ws1', {});
    hub.open('ws1', { url_prefix: 'http://a.test/hooks' });
    hub.open('ws2', { url_prefix: 'http://b.test/' });
    expect(hub.transportFor('ws1', 'http://a.test/hooks/x')).not.toBeNull();
    expect(hub.transportFor('ws2', 'http://a.test/hooks/x')).toBeNull();
    expect(hub.transportFor('ws3', 'http://b.test/')).toBeNull();
    void hub.transportFor('ws1', 'http://a.test/hooks/x')!.send(request('http://a.test/hooks/x'));
    void hub.transportFor('ws1', 'http://other.test/')!.send(request('http://other.test/'));
    const [all, prefixed] = hub.list('ws1');
    expect(prefixed).toMatchObject({ url_prefix: 'http://a.test/hooks', queued: 1 });
    expect(all).toMatchObject({ url_prefix: null, queued: 1 });
  });

  it('hands a message to a waiting poll and ends the attempt with the report', async () => {
    const hub = new RelayHub();
    const { id, token } = hub.open('ws', {});
    const poll = hub.claim('ws', id, token, { waitMs: 10_000, max: 5 });
    const sent = hub.transportFor('ws', 'http://r.test/')!.send(request('http://r.test/'));
    const [m] = await poll;
    expect(m).toMatchObject({ url: 'http://r.test/', body: '{"a":1}', timeout_ms: 1_000, headers: { 'Service-Event-Id': 'evt_1' } });
    hub.report('ws', id, token, m!.id, { status_code: 503, error: 'HTTP 503', duration_ms: 7 });
    expect(await sent).toEqual({ ok: false, status: 503, error: 'HTTP 503', durationMs: 7 });
    expect(() => hub.report('ws', id, token, m!.id, { status_code: 200, error: null, duration_ms: 1 })).toThrow(/holds no message/);
    expect(hub.list('ws')[0]).toMatchObject({ relayed: 1, in_flight: 0 });
  });

  it('records a message nobody reports as the timeout of a direct attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const hub = new RelayHub();
    hub.open('ws', {});
    const sent = hub.transportFor('ws', 'http://r.test/')!.send(request('http://r.test/', 300));
    await vi.advanceTimersByTimeAsync(300 + RELAY_MARGIN_MS);
    expect(await sent).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' });
    expect(hub.list('ws')[0]).toMatchObject({ queued: 0, in_flight: 0 });
  });

  it('drops a relay not polled for a lease, failing what it held; a polling one stays', async () => {
    // The hub reads monotonic time through performance.now(): moved by hand here.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const hub = new RelayHub();
    const idle = hub.open('ws', { url_prefix: 'http://idle.test/' });
    const busy = hub.open('ws', { url_prefix: 'http://busy.test/' });
    const held = hub.transportFor('ws', 'http://idle.test/')!.send(request('http://idle.test/', 600_000));
    void hub.claim('ws', busy.id, busy.token, { waitMs: 600_000, max: 1 });
    now += RELAY_LEASE_MS + 1;
    expect(hub.transportFor('ws', 'http://idle.test/')).toBeNull();
    expect(await held).toMatchObject({ ok: false, error: `the relay went away (not polled for ${RELAY_LEASE_MS / 1000} s)` });
    expect(hub.list('ws').map((r) => r.id)).toEqual([busy.id]);
    expect(() => hub.claim('ws', idle.id, idle.token, { waitMs: 0, max: 1 })).toThrow(/No relay/);
    hub.stop();
  });

  it('answers waiting polls at once when stopped, and every later poll too', async () => {
    const hub = new RelayHub();
    const { id, token } = hub.open('ws', {});
    const poll = hub.claim('ws', id, token, { waitMs: 60_000, max: 1 });
    hub.stop();
    expect(await poll).toEqual([]);
    expect(await hub.claim('ws', id, token, { waitMs: 60_000, max: 1 })).toEqual([]);
    expect(hub.stopped).toBe(true);
  });

  it('fails what a closed relay held, and what a deleted workspace held', async () => {
    const hub = new RelayHub();
    const a = hub.open('ws', {});
    const held = hub.transportFor('ws', 'http://r.test/')!.send(request('http://r.test/'));
    hub.close('ws', a.id, a.token);
    expect(await held).toMatchObject({ ok: false, error: 'the relay closed before the receiver answered' });
    hub.open('gone', {});
    const lost = hub.transportFor('gone', 'http://r.test/')!.send(request('http://r.test/'));
    hub.forgetWorkspace('gone');
    expect(await lost).toMatchObject({ ok: false, error: 'the workspace was deleted' });
    expect(hub.list('gone')).toEqual([]);
  });
  it('counts the lease from the moment a waiting poll\'s connection closes, not from the end of its wait', async () => {
    // A relay killed with -9 mid-poll: its connection closes at once, its wait_ms would run 60 s more.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const hub = new RelayHub();
    const dead = hub.open('ws', {});
    const hangup = new AbortController();
    const poll = hub.claim('ws', dead.id, dead.token, { waitMs: 60_000, max: 1, hangup: hangup.signal });
    now += 5_000;
    hangup.abort();
    expect(await poll).toEqual([]);
    expect(hub.list('ws')[0]).toMatchObject({ id: dead.id, polling: false });
    now += RELAY_LEASE_MS - 1;
    expect(hub.list('ws').map((r) => r.id)).toEqual([dead.id]);
    now += 2;
    expect(hub.list('ws')).toEqual([]);
    hub.stop();
  });

  it('takes a shorter lease when told, for tests that watch one run out', () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const hub = new RelayHub({ leaseMs: 500 });
    hub.open('ws', {});
    now += 500;
    expect(hub.list('ws')).toHaveLength(1);
    now += 1;
    expect(hub.list('ws')).toEqual([]);
  });

  it('answers claims, reports and closes only with the relay\'s own token', async () => {
    const hub = new RelayHub();
    const mine = hub.open('ws', {});
    const theirs = hub.open('ws', {});
    expect(mine.token).toMatch(/^rlt_[A-Za-z0-9_-]{32}$/);
    expect(mine.token).not.toBe(theirs.token);
    expect(hub.list('ws').map((r) => Object.keys(r))).not.toContainEqual(expect.arrayContaining(['token']));
    expect(() => hub.claim('ws', mine.id, undefined, { waitMs: 0, max: 1 })).toThrow(expect.objectContaining({ code: 'relay_token_invalid', status: 403 }));
    expect(() => hub.claim('ws', mine.id, theirs.token, { waitMs: 0, max: 1 })).toThrow(expect.objectContaining({ code: 'relay_token_invalid' }));
    const sent = hub.transportFor('ws', 'http://r.test/')!.send(request('http://r.test/'));
    const [m] = await hub.claim('ws', mine.id, mine.token, { waitMs: 0, max: 1 });
    expect(() => hub.report('ws', mine.id, theirs.token, m!.id, { status_code: 204, error: null, duration_ms: 1 })).toThrow(expect.objectContaining({ code: 'relay_token_invalid' }));
    expect(() => hub.report('ws', theirs.id, theirs.token, m!.id, { status_code: 204, error: null, duration_ms: 1 })).toThrow(/holds no message/);
    expect(() => hub.close('ws', mine.id, theirs.token)).toThrow(expect.objectContaining({ code: 'relay_token_invalid' }));
    hub.report('ws', mine.id, mine.token, m!.id, { status_code: 500, error: 'HTTP 500', duration_ms: 1 });
    expect(await sent).toMatchObject({ ok: false, status: 500 });
  });

  it('gives messages ids that say nothing of the others', async () => {
    const hub = new RelayHub();
    const { id, token } = hub.open('ws', {});
    for (let i = 0; i < 3; i++) void hub.transportFor('ws', 'http://r.test/')!.send(request('http://r.test/'));
    const ids = (await hub.claim('ws', id, token, { waitMs: 0, max: 3 })).map((m) => m.id);
    expect(new Set(ids).size).toBe(3);
    for (const m of ids) expect(m).toMatch(/^rmsg_[A-Za-z0-9_-]{16}$/);
    hub.close('ws', id, token);
  });

  it(`keeps at most ${RELAY_LIMIT} relays per workspace`, () => {
    const hub = new RelayHub();
    const opened = Array.from({ length: RELAY_LIMIT }, () => hub.open('ws', {}));
    expect(() => hub.open('ws', {})).toThrow(expect.objectContaining({ code: 'relay_limit_reached', status: 422 }));
    expect(hub.open('other', {}).workspace).toBe('other');
    hub.close('ws', opened[0]!.id, opened[0]!.token);
    expect(hub.open('ws', {}).workspace).toBe('ws');
  });

  it('keeps at most 256 relays in an emulator, whatever the workspaces', () => {
    const hub = new RelayHub();
    const opened = [];
    for (let w = 0; w < 256 / RELAY_LIMIT; w++) for (let i = 0; i < RELAY_LIMIT; i++) opened.push(hub.open(`ws${w}`, {}));
    expect(() => hub.open('newcomer', {})).toThrow(expect.objectContaining({ code: 'relay_limit_reached', status: 422, message: expect.stringContaining('256 relays are open in this emulator') }));
    expect(hub.list('ws0')).toHaveLength(RELAY_LIMIT);
    // Room made by a close is room for anyone.
    hub.close('ws0', opened[0]!.id, opened[0]!.token);
    expect(hub.open('newcomer', {}).workspace).toBe('newcomer');
  });

  it('refuses a relay without forward_to under the strict URL policy, and a forward_to that is no http(s) URL', () => {
    const hub = new RelayHub();
    expect(() => hub.open('ws', {}, 'strict')).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'forward_to' }));
    expect(hub.open('ws', { forward_to: 'http://127.0.0.1:3000/hooks' }, 'strict').forward_to).toBe('http://127.0.0.1:3000/hooks');
    expect(hub.open('ws', {}, 'local').forward_to).toBeNull();
    expect(() => hub.open('ws', { forward_to: 'localhost:3000' })).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'forward_to' }));
  });
});
