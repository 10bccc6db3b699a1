import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = 'dist/cli/main.js';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Starts `serve` on a free port and resolves with its URL and the log lines seen so far. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: string[] = [];
  return new Promise<{ url: string; lines: string[]; child: ChildProcess }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start: ${lines.join('\n')}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        const url = (JSON.parse(line) as { url?: string }).url;
        if (url) {
          clearTimeout(timer);
          resolve({ url, lines, child });
        }
      }
    });
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${lines.join('\n')}`));
    });
  });
}

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('onboarding-emulator serve', () => {
  it('explains every option and its environment variable in --help', async () => {
    const { code, out } = await run(['serve', '--help']);
    expect(code).toBe(0);
    for (const s of ['--port', 'EMULATOR_PORT', '--host', '--fixtures', '--seed', '--log-level', 'EMULATOR_LOG_LEVEL', '--clock', '--start-time', '--webhook-url-policy', '--signature-clock', '--webhook-timeout-ms', 'EMULATOR_WEBHOOK_TIMEOUT_MS']) expect(out).toContain(s);
  });

  it('logs one JSON line per request with request id, method, path, status and duration', async () => {
    const { url, lines } = await serve(['--log-level', 'info']);
    const res = await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const entry = lines.map((l) => JSON.parse(l) as Record<string, any>).find((l) => l.req?.path === '/v1/onboardings/onb_demo_jansen'); // log lines are free-form JSON
    expect(entry).toBeDefined();
    expect(entry!.req).toMatchObject({ id: res.headers.get('request-id'), method: 'GET' });
    expect(entry!.res).toEqual({ status: 200 });
    expect(typeof entry!.duration_ms).toBe('number');
  });

  it('honours --log-level: warn logs no request lines', async () => {
    const { url, lines } = await serve(['--log-level', 'warn']);
    await fetch(`${url}/_emulator/health`);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.some((l) => l.includes('"req"'))).toBe(false);
  });

  it('takes its options from the environment, with --seed making ids reproducible', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { url, child } = await serve([], { EMULATOR_SEED: '99', EMULATOR_LOG_LEVEL: 'warn', EMULATOR_CLOCK: 'frozen', EMULATOR_START_TIME: '2026-10-05T09:00:00Z' });
      const res = await fetch(`${url}/_emulator/health`);
      ids.push(res.headers.get('request-id')!);
      child.kill('SIGKILL');
    }
    expect(ids[0]).toBe(ids[1]);
  });

  it('loads a YAML fixtures file, and reports every mistake of a bad one with its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'organizations:\n  - id: acme\n    name: Acme\nkeys: []\n');
    const { code, out } = await run(['serve', '--port', '0', '--fixtures', bad]);
    expect(code).toBe(1);
    expect(out).toContain('organizations[0].id');
    expect(out).toContain('organizations[0].locations');
    expect(out).toContain('keys');
    const good = join(dir, 'good.yaml');
    writeFileSync(good, [
      'organizations:',
      '  - id: org_one',
      '    name: One',
      '    locations: [{ id: loc_one, name: Office, city: Leiden }]',
      '    templates: [{ id: tpl_one, name: Staff, contract_type: permanent, cao: none, approval_roles: [manager] }]',
      'keys:',
      '  - { key: hrs_test_one_key, name: One, organization_id: org_one, scopes: [organization:read] }',
    ].join('\n'));
    const { url } = await serve(['--fixtures', good, '--log-level', 'warn']);
    const org = await fetch(`${url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_one_key' } });
    expect(((await org.json()) as { name: string }).name).toBe('One');
  });

  it('refuses an invalid option value with a clear message', async () => {
    const { code, out } = await run(['serve', '--clock', 'sometimes']);
    expect(code).not.toBe(0);
    expect(out).toMatch(/Allowed choices are realtime, frozen/);
  });
});

describe('onboarding-emulator serve: webhook options', () => {
  it('refuses an invalid webhook timeout and URL policy with a clear message', async () => {
    const bad = await run(['serve', '--port', '0', '--webhook-timeout-ms', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('not a valid timeout');
    const policy = await run(['serve', '--webhook-url-policy', 'open']);
    expect(policy.code).not.toBe(0);
    expect(policy.out).toMatch(/Allowed choices are local, strict/);
  });

  it('applies the strict policy: an http address is refused at registration', async () => {
    const { url } = await serve(['--log-level', 'warn', '--webhook-url-policy', 'strict']);
    const res = await fetch(`${url}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://hooks.example.test/in' }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('url');
  });
});
