import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, run, serve } from '../support/serve.js';

/** `requests` (list, --follow), `requests verify` and `requests clear` of the built CLI against one built server (frozen clock). */
const children: ChildProcess[] = [];
const cli = (args: string[]) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
let url = '';

interface Entry { id: string; method: string; path: string; status: number; error_code: string | null }
interface List { object: string; data: Entry[]; has_more: boolean; next_cursor: string | null; total: number; dropped: number }

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A workspace of its own for each test, so their journals never mix; its owner key picks it for the control API too. */
async function workspaceKey(): Promise<string> {
  const res = await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  const created = (await res.json()) as { keys: { key: string }[] };
  return created.keys.find((k) => k.key.startsWith('hrs_test_acme_owner'))!.key;
}

async function api(key: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Three requests: a 200, a 404 and a 422, in that order. */
async function threeRequests(key: string): Promise<void> {
  expect(await api(key, 'GET', '/v1/onboardings')).toBe(200);
  expect(await api(key, 'GET', '/v1/onboardings/onb_nope')).toBe(404);
  expect(await api(key, 'POST', '/v1/onboardings', {})).toBe(422);
}

/** The data rows of a table: its lines but the header, up to the first note. */
const rowsOf = (stdout: string) => stdout.trim().split('\n').slice(1).filter((l) => l.startsWith('2026-'));

describe('onboarding-emulator requests', () => {
  it('lists the journal oldest at the top, filtered by the route\'s filters, with --limit keeping the newest', async () => {
    const key = await workspaceKey();
    await threeRequests(key);

    const all = await cli(['requests', '--url', url, '--key', key]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.split('\n')[0]).toMatch(/^at\s+method\s+path\s+status\s+error code\s+replayed\s+idempotency key\s+ms$/);
    const rows = rowsOf(all.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^2026-10-05T09:00:00\.000Z\s+GET\s+\/v1\/onboardings\s+200\s+-\s+no\s+-\s+\d+\.\d$/);
    expect(rows[1]).toMatch(/GET\s+\/v1\/onboardings\/onb_nope\s+404\s+resource_not_found\s+no/);
    expect(rows[2]).toMatch(/POST\s+\/v1\/onboardings\s+422\s+parameter_missing\s+no/);

    const notFound = await cli(['requests', '--status', '404', '--url', url, '--key', key]);
    expect(notFound.code).toBe(0);
    expect(rowsOf(notFound.stdout)).toHaveLength(1);
    expect(rowsOf(notFound.stdout)[0]).toContain('/v1/onboardings/onb_nope');

    // `requests list` is the same command; --method is sent upper case.
    const posts = await cli(['requests', 'list', '--method', 'post', '--path', '/v1/onboardings*', '--url', url, '--key', key]);
    expect(rowsOf(posts.stdout)).toEqual([expect.stringMatching(/POST\s+\/v1\/onboardings\s+422/)]);

    const newest = await cli(['requests', '--limit', '1', '--url', url, '--key', key]);
    expect(rowsOf(newest.stdout)).toEqual([expect.stringMatching(/POST\s+\/v1\/onboardings\s+422/)]);
    expect(newest.stdout).toContain('showing the newest 1 of 3 matching (--limit for more)');

    const none = await cli(['requests', '--error-code', 'rate_limited', '--url', url, '--key', key]);
    expect(none.stdout).toBe('no requests\n');

    // The server's own check of a filter is a refusal: exit 1 with its envelope.
    const bad = await cli(['requests', '--since', 'yesterday', '--url', url, '--key', key]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error 4\d\d \w+/);
    expect((await cli(['requests', '--status', 'teapot', '--url', url, '--key', key])).code).toBe(2);
  });

  it('--json prints the route\'s answer as it came', async () => {
    const key = await workspaceKey();
    await threeRequests(key);
    const r = await cli(['requests', '--json', '--url', url, '--key', key]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as List;
    const direct = (await (await fetch(`${url}/_emulator/requests`, { headers: { Authorization: `Bearer ${key}` } })).json()) as List;
    expect(printed).toEqual(direct);
    expect(printed).toMatchObject({ object: 'list', has_more: false, next_cursor: null, total: 3, dropped: 0 });
    // Newest first, as the route answers.
    expect(printed.data.map((e) => e.status)).toEqual([422, 404, 200]);

    const filtered = JSON.parse((await cli(['requests', '--json', '--onboarding', 'onb_nope', '--url', url, '--key', key])).stdout) as List;
    expect(filtered.data.map((e) => e.path)).toEqual(['/v1/onboardings/onb_nope']);
    expect(filtered.total).toBe(1);
  });

  it('finds and verifies by Idempotency-Key: --idempotency-key, --without-idempotency-key, --replayed', async () => {
    const key = await workspaceKey();
    await threeRequests(key);
    const keyless = await cli(['requests', 'verify', '--method', 'POST', '--without-idempotency-key', '--exactly', '0', '--url', url, '--key', key]);
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toMatch(/POST\s+\/v1\/onboardings\s+422/);
    expect((await cli(['requests', 'verify', '--method', 'POST', '--without-idempotency-key', '--exactly', '1', '--url', url, '--key', key])).code).toBe(0);
    expect((await cli(['requests', '--idempotency-key', 'none-sent', '--url', url, '--key', key])).stdout).toBe('no requests\n');
    expect((await cli(['requests', '--replayed', '--url', url, '--key', key])).stdout).toBe('no requests\n');
  });

  it('--follow prints each request made after it started exactly once, in arrival order, and exits 0 on SIGINT', async () => {
    const key = await workspaceKey();
    expect(await api(key, 'GET', '/v1/onboardings?limit=1')).toBe(200);
    const child = spawn(process.execPath, [CLI, 'requests', '--follow', '--json', '--interval', '100', '--url', url, '--key', key], { env: { ...process.env, EMULATOR_URL: '', EMULATOR_KEY: '' } });
    children.push(child);
    try {
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const lines = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Entry);
      await expect.poll(() => err, { timeout: 5000 }).toContain('following new requests');
      // What was there before: printed once, before following starts.
      expect(lines().map((e) => e.path)).toEqual(['/v1/onboardings']);

      const paths = ['/v1/onboardings/onb_a', '/v1/onboardings/onb_b', '/v1/onboardings/onb_c', '/v1/onboardings/onb_d'];
      for (const p of paths.slice(0, 2)) await api(key, 'GET', p);
      await expect.poll(() => lines().length, { timeout: 5000 }).toBe(3);
      for (const p of paths.slice(2)) await api(key, 'GET', p);
      await expect.poll(() => lines().length, { timeout: 5000 }).toBe(5);
      // Two polls more, each seen by a request made after the last one printed: nothing printed again.
      const later = ['/v1/onboardings/onb_e', '/v1/onboardings/onb_f'];
      for (const [i, p] of later.entries()) {
        await api(key, 'GET', p);
        await expect.poll(() => lines().length, { timeout: 5000 }).toBe(6 + i);
      }
      const seen = lines();
      expect(seen.map((e) => e.path)).toEqual(['/v1/onboardings', ...paths, ...later]);
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
      // Arrival order: the journal's ids ascending.
      expect(seen.map((e) => e.id)).toEqual([...seen.map((e) => e.id)].sort());

      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('--follow with a filter prints only the matching requests; the table is printed batch by batch', async () => {
    const key = await workspaceKey();
    const child = spawn(process.execPath, [CLI, 'requests', '--follow', '--status', '404', '--interval', '100', '--url', url, '--key', key], { env: { ...process.env, EMULATOR_URL: '', EMULATOR_KEY: '' } });
    children.push(child);
    try {
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await expect.poll(() => err, { timeout: 5000 }).toContain('following new requests');
      await threeRequests(key);
      await expect.poll(() => rowsOf(out).length, { timeout: 5000 }).toBe(1);
      await api(key, 'GET', '/v1/onboardings/onb_other');
      await expect.poll(() => rowsOf(out).length, { timeout: 5000 }).toBe(2);
      // A third batch, after a request that does not match: still the one header.
      expect(await api(key, 'GET', '/v1/onboardings')).toBe(200);
      await api(key, 'GET', '/v1/onboardings/onb_third');
      await expect.poll(() => rowsOf(out).length, { timeout: 5000 }).toBe(3);
      expect(out.split('\n').filter((l) => l.startsWith('at ')).length).toBe(1); // one header
      expect(rowsOf(out)).toEqual(['onb_nope', 'onb_other', 'onb_third'].map((id) => expect.stringMatching(new RegExp(`/v1/onboardings/${id}\\s+404`))));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('--follow stops with exit 2 and a clear message when the server goes away', async () => {
    const other = await serve(['--log-level', 'warn'], children);
    const child = spawn(process.execPath, [CLI, 'requests', '--follow', '--interval', '100', '--url', other.url], { env: { ...process.env, EMULATOR_URL: '', EMULATOR_KEY: '' } });
    children.push(child);
    try {
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await expect.poll(() => err, { timeout: 5000 }).toContain('following new requests');
      other.child.kill('SIGKILL');
      expect(await exited).toBe(2);
      expect(err).toContain(`cannot reach the emulator at ${other.url}`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('verify exits 0 when the count holds and 1 when not, with the nearest requests and how they differ', async () => {
    const key = await workspaceKey();
    await threeRequests(key);
    const verify = (args: string[]) => cli(['requests', 'verify', ...args, '--url', url, '--key', key]);

    const holds = await verify(['--method', 'POST', '--path', '/v1/onboardings', '--exactly', '1']);
    expect(holds.code, holds.stderr).toBe(0);
    expect(holds.stdout).toBe('ok: 1 matching request (expected exactly 1)\n');

    const short = await verify(['--path', '/v1/onboardings', '--status', '201', '--at-least', '1']);
    expect(short.code).toBe(1);
    expect(short.stdout).toContain('not as expected: 0 matching requests (expected at least 1)');
    expect(short.stdout).toMatch(/^at\s+method\s+path\s+status\s+error code\s+differs in$/m);
    expect(short.stdout).toMatch(/POST\s+\/v1\/onboardings\s+422\s+parameter_missing\s+status$/m);
    expect(short.stdout).toMatch(/\/v1\/onboardings\/onb_nope\s+404\s+resource_not_found\s+path, status$/m);

    const over = await verify(['--method', 'GET', '--at-most', '1']);
    expect(over.code).toBe(1);
    expect(over.stdout.match(/\(matches\)$/gm)).toHaveLength(2);

    const body = await verify(['--body-includes', '{}', '--method', 'POST', '--exactly', '1']);
    expect(body.code).toBe(0);

    const json = await verify(['--status', '404', '--exactly', '2', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, count: 1, expected: { exactly: 2 }, nearest: [{ differs: ['status'] }, { differs: ['status'] }] });

    // Usage problems: no expectation, two of them, a body that is not JSON.
    expect((await verify(['--method', 'GET'])).code).toBe(2);
    expect((await verify(['--exactly', '1', '--at-most', '2'])).code).toBe(2);
    expect((await verify(['--body-includes', '{nope', '--exactly', '1'])).code).toBe(2);
  });

  it('clear empties the journal and says what it held', async () => {
    const key = await workspaceKey();
    await threeRequests(key);
    const cleared = await cli(['requests', 'clear', '--url', url, '--key', key]);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toBe('cleared 3 requests\n');
    const after = JSON.parse((await cli(['requests', '--json', '--url', url, '--key', key])).stdout) as List;
    expect(after).toMatchObject({ data: [], total: 0, dropped: 0 });
  });

  it('explains each command in --help', async () => {
    for (const args of [['requests', 'list'], ['requests', 'verify'], ['requests', 'clear']]) {
      const r = await cli([...args, '--help']);
      expect(r.code).toBe(0);
      for (const s of ['--url', 'EMULATOR_URL', '--key', '--json']) expect(r.stdout).toContain(s);
    }
    expect((await cli(['requests', '--help'])).stdout).toMatch(/list \[options\][\s\S]*verify \[options\][\s\S]*clear \[options\]/);
  });
});
