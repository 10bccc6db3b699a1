import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/in-process.js';
import { parseRateLimit, type RateLimitOptions } from '../../src/http/rate-limit.js';
import { createBody, envelope, expectError, harness, KEYS } from '../support/harness.js';

/** A hand-moved time source (milliseconds), so no test depends on how fast it runs. */
function manualTime() {
  let ms = 1_000_000;
  return { now: () => ms, pass: (by: number) => void (ms += by) };
}

function limited(limit: Omit<RateLimitOptions, 'now'>) {
  const time = manualTime();
  return { ...harness({}, { rateLimit: { ...limit, now: time.now } }), ...time };
}

type H = ReturnType<typeof limited>;

const get = (h: H, key: string = KEYS.owner, path = '/v1/organization') => h.as(key).get(path);
const statuses = async (h: H, n: number, key: string = KEYS.owner) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await get(h, key)).status);
  return out;
};

describe('--rate-limit off (the default)', () => {
  it('never answers 429, however fast the requests come', async () => {
    const h = harness();
    for (let i = 0; i < 60; i++) expect((await h.as(KEYS.owner).get('/v1/organization')).status).toBe(200);
  });
});

describe('--rate-limit N/s: a token bucket per API key', () => {
  it('lets a burst of N through, then answers 429 rate_limited in the envelope with Retry-After in whole seconds', async () => {
    const h = limited({ requests: 3, per: 's' });
    expect(await statuses(h, 3)).toEqual([200, 200, 200]);
    const res = await get(h);
    const e = expectError(res, 429, 'rate_limited', 'rate_limited');
    expect(res.headers['retry-after']).toBe('1');
    expect(e.message).toBe('Too many requests for this API key (limit 3/s); retry after 1 s.');
  });

  it('refills N per second, evenly: one request per 1/N s after the burst', async () => {
    const h = limited({ requests: 2, per: 's' });
    expect(await statuses(h, 3)).toEqual([200, 200, 429]);
    h.pass(499);
    expect(await statuses(h, 1)).toEqual([429]);
    h.pass(1);
    expect(await statuses(h, 2)).toEqual([200, 429]);
    h.pass(10_000); // the bucket holds at most N: no larger burst after a quiet spell
    expect(await statuses(h, 3)).toEqual([200, 200, 429]);
  });

  it('does not count refused requests: a client that retries too early waits no longer', async () => {
    const h = limited({ requests: 1, per: 's' });
    expect(await statuses(h, 5)).toEqual([200, 429, 429, 429, 429]);
    h.pass(1_000);
    expect(await statuses(h, 1)).toEqual([200]);
  });

  it('keeps a bucket per key: other keys, partner keys and keys of other workspaces are not slowed', async () => {
    const h = limited({ requests: 1, per: 's' });
    expect(await statuses(h, 2, KEYS.owner)).toEqual([200, 429]);
    expect(await statuses(h, 2, KEYS.manager)).toEqual([200, 429]);
    const partner = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').get('/v1/organization');
    expect(partner.status).toBe(200);
    const ws = (await h.http().post('/_emulator/workspaces')).body as { keys: { key: string }[] };
    const other = ws.keys.find((k) => k.key.startsWith(`${KEYS.owner}_`))!.key;
    expect(await statuses(h, 2, other)).toEqual([200, 429]);
  });

  it('counts every /v1 route of the key together', async () => {
    const h = limited({ requests: 2, per: 's' });
    expect((await get(h, KEYS.owner, '/v1/organization')).status).toBe(200);
    expect((await get(h, KEYS.owner, '/v1/employees')).status).toBe(200);
    expectError(await get(h, KEYS.owner, '/v1/onboardings'), 429, 'rate_limited', 'rate_limited');
  });
});

describe('--rate-limit N/m', () => {
  it('refills N per minute: Retry-After is the whole seconds until the next request is let through', async () => {
    const h = limited({ requests: 3, per: 'm' });
    expect(await statuses(h, 4)).toEqual([200, 200, 200, 429]);
    expect((await get(h)).headers['retry-after']).toBe('20');
    h.pass(15_500);
    expect((await get(h)).headers['retry-after']).toBe('5'); // 4.5 s rounded up
    h.pass(4_500);
    expect(await statuses(h, 2)).toEqual([200, 429]);
  });
});

describe('what the limiter leaves alone', () => {
  it('never limits /_emulator control requests, with or without a key, nor counts them', async () => {
    const h = limited({ requests: 1, per: 's' });
    for (let i = 0; i < 10; i++) {
      expect((await h.http().get('/_emulator/health')).status).toBe(200);
      expect((await h.as(KEYS.owner).get('/_emulator/keys')).status).toBe(200);
    }
    expect(await statuses(h, 2)).toEqual([200, 429]);
  });

  it('answers 401 for a missing or unknown key, never 429: the key is checked first', async () => {
    const h = limited({ requests: 1, per: 's' });
    for (let i = 0; i < 3; i++) {
      expectError(await get(h, 'hrs_test_nobody'), 401, 'authentication_error', 'api_key_invalid');
      expectError(await h.http().get('/v1/organization'), 401, 'authentication_error', 'api_key_missing');
    }
  });

  it('refuses before anything is written: no onboarding, no kept Idempotency-Key, no fault consumed', async () => {
    const h = limited({ requests: 1, per: 's' });
    await h.http().post('/_emulator/faults').send({ kind: 'error', method: 'POST', path: '/v1/onboardings' });
    expect((await get(h)).status).toBe(200);
    const before = h.storeJson();
    const refused = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'rl-1');
    expect(refused.status).toBe(429);
    expect(envelope(refused).code).toBe('rate_limited');
    expect(h.storeJson()).toBe(before);
    expect((await h.http().get('/_emulator/faults')).body.data).toHaveLength(1);
    h.pass(1_000);
    await h.http().delete('/_emulator/faults');
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Idempotency-Key', 'rl-1');
    expect(created.status).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });

  it('comes before injected faults: a rate_limit fault is still there for the next request let through', async () => {
    const h = limited({ requests: 1, per: 's' });
    await h.http().post('/_emulator/faults').send({ kind: 'rate_limit', retry_after_seconds: 9 });
    const first = await get(h);
    expect([first.status, first.headers['retry-after']]).toEqual([429, '9']); // the fault
    const second = await get(h);
    expect([second.status, second.headers['retry-after']]).toEqual([429, '1']); // the limiter
    expect(envelope(second).message).toMatch(/limit 1\/s/);
  });
});

describe('parseRateLimit (the --rate-limit and EMULATOR_RATE_LIMIT format)', () => {
  it.each([
    ['10/s', { requests: 10, per: 's' }],
    ['600/m', { requests: 600, per: 'm' }],
    [' 5 / s ', { requests: 5, per: 's' }],
    ['1000000/m', { requests: 1_000_000, per: 'm' }],
  ])('reads %j', (text, limit) => {
    expect(parseRateLimit(text)).toEqual(limit);
  });

  it.each(['', '10', '10/h', '0/s', '-1/s', '1.5/s', '10/S', 's/10', '1000001/s', '10/second'])('refuses %j', (text) => {
    expect(() => parseRateLimit(text)).toThrow(/not a valid rate limit \(N\/s or N\/m/);
  });
});

describe('createEmulator({ rateLimit }) on a started server', () => {
  it('takes the string form and answers 429 with Retry-After over HTTP on 127.0.0.1', async () => {
    // 1/m: the second request within a minute of wall time is refused, however slow the box.
    const em = createEmulator({ rateLimit: '1/m' });
    const { url } = await em.start(0);
    try {
      const call = () => fetch(`${url}/v1/organization`, { headers: { Authorization: `Bearer ${KEYS.owner}` } });
      expect((await call()).status).toBe(200);
      const res = await call();
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
      expect(((await res.json()) as { error: { type: string; code: string } }).error).toMatchObject({ type: 'rate_limited', code: 'rate_limited' });
    } finally {
      await em.close();
    }
  });
});

describe('onboarding-emulator serve --rate-limit', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  function serve(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--log-level', 'warn', ...args], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    return new Promise<{ url?: string; code?: number | null; out: string }>((resolve) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const url = /"url":"(http:[^"]+)"/.exec(out)?.[1];
        if (url) resolve({ url, out });
      });
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
  }

  it.each([
    ['the flag', ['--rate-limit', '1/m'], {}],
    ['EMULATOR_RATE_LIMIT', [], { EMULATOR_RATE_LIMIT: '1/m' }],
  ])('limits /v1 requests per key when set through %s', async (_how, args, env) => {
    const { url, out } = await serve(args, env);
    expect(url, out).toBeDefined();
    const call = () => fetch(`${url}/v1/organization`, { headers: { Authorization: `Bearer ${KEYS.owner}` } });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
    expect((await fetch(`${url}/_emulator/health`)).status).toBe(200);
  });

  it('exits 2 (a usage mistake) with the accepted forms on a malformed rate', async () => {
    const { code, out } = await serve(['--rate-limit', '10/h']);
    expect(code).toBe(2);
    expect(out).toContain('not a valid rate limit (N/s or N/m, N from 1 to 1000000): 10/h');
  });
});
