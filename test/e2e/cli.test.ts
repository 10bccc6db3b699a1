import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run as runIn, serve as serveIn } from '../support/serve.js';

const children: ChildProcess[] = [];
const serve = (args: string[], env: Record<string, string> = {}, cwd?: string) => serveIn(args, children, env, cwd);
const run = (args: string[], cwd?: string) => runIn(args, children, {}, cwd);

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

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
    const requestLine = () => lines().map((l) => JSON.parse(l) as Record<string, any>).find((l) => l.req?.path === '/v1/onboardings/onb_demo_jansen'); // log lines are free-form JSON
    // The line is written once the response is finished, possibly after fetch resolved: wait for it.
    await expect.poll(requestLine, { timeout: 5_000 }).toBeDefined();
    const entry = requestLine();
    expect(entry).toBeDefined();
    expect(entry!.req).toMatchObject({ id: res.headers.get('request-id'), method: 'GET' });
    expect(entry!.res).toEqual({ status: 200 });
    expect(typeof entry!.duration_ms).toBe('number');
  });

  it('names the inspector and the API explorer in its ready line, not when --no-ui turns them off', async () => {
    const ready = (lines: string[]) => JSON.parse(lines.find((l) => l.includes('onboarding emulator listening'))!) as Record<string, string>;
    const on = await serve(['--log-level', 'warn']);
    expect(ready(on.lines())).toMatchObject({ url: on.url, inspector: `${on.url}/_emulator/ui`, explorer: `${on.url}/_emulator/docs` });
    expect((await fetch(ready(on.lines()).inspector!)).status).toBe(200);
    const off = await serve(['--log-level', 'warn', '--no-ui']);
    expect(ready(off.lines())).not.toHaveProperty('inspector');
  });

  it('honours --log-level: warn logs no request lines', async () => {
    const { url, child, lines } = await serve(['--log-level', 'warn']);
    const closed = once(child, 'close');
    const res = await fetch(`${url}/v1/onboardings/onb_demo_jansen`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // The whole output: the process stopped (gracefully, so a line it wrote is flushed) and its streams closed.
    child.kill('SIGTERM');
    await closed;
    expect(child.exitCode).toBe(0);
    expect(lines().some((l) => l.includes('"req"'))).toBe(false);
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

describe('onboarding-emulator serve --scenario', () => {
  const json = { Authorization: 'Bearer hrs_test_acme_owner', 'Content-Type': 'application/json' };

  it('plays the files given (repeated flag, rules in order) in the default workspace and in new ones', async () => {
    const { url } = await serve(['--scenario', 'scenarios/payroll-failure-then-recovery.yaml', '--scenario', 'scenarios/happy-path.yaml', '--clock', 'frozen', '--log-level', 'warn']);
    const shown = (await (await fetch(`${url}/_emulator/scenario`)).json()) as { loaded: boolean; source: string; document: { rules: { name: string }[] } };
    expect(shown.loaded).toBe(true);
    expect(shown.source).toBe('payroll-failure-then-recovery.yaml, happy-path.yaml');
    expect(shown.document.rules.map((r) => r.name)).toHaveLength(2);
    const ws = (await (await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: json, body: '{}' })).json()) as { id: string };
    const inNew = (await (await fetch(`${url}/_emulator/workspaces/${ws.id}/scenario`)).json()) as { source: string };
    expect(inNew.source).toBe(shown.source);
  });

  it('takes comma-separated files from EMULATOR_SCENARIO; an onboarding plays by the first matching rule when the clock moves', async () => {
    const { url } = await serve(['--clock', 'frozen', '--log-level', 'warn'], { EMULATOR_SCENARIO: 'scenarios/slow-employer-signature.yaml,scenarios/happy-path.yaml' });
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ reference: 'env-scenario', employee: { first_name: 'Ada', last_name: 'Smit', email: 'ada@example.test' }, employment: { position: 'Cook', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const statusAfter = async (by: string) => {
      const moved = await fetch(`${url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ by }) });
      expect(moved.status).toBe(200);
      return ((await (await fetch(`${url}/v1/onboardings/${id}`, { headers: json })).json()) as { status: string }).status;
    };
    // The slow employer's rule comes first: the happy path would have completed within a day.
    expect(await statusAfter('2d')).toBe('awaiting_employer_signature');
    expect(await statusAfter('5d')).toBe('completed');
  });

  it('stops with exit 1 naming the file and every mistake of a bad scenario; a missing file too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\nrules:\n  - match: { colour: blue }\n    employee: { opens: soon }\n');
    const refused = await run(['serve', '--port', '0', '--scenario', bad]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('bad.yaml');
    expect(refused.out).toContain('rules[0].match');
    expect(refused.out).toContain('rules[0].employee.opens');
    const missing = await run(['serve', '--port', '0', '--scenario', join(dir, 'nothing.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`Cannot read scenario file ${join(dir, 'nothing.yaml')}: no such file\n`);
  });

  it('takes ready scenarios by name from any working folder, from the flag and from EMULATOR_SCENARIO; an unknown name lists the names', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'scenario-cwd-'));
    const byFlag = await serve(['--scenario', 'happy-path', '--scenario', 'slow-employer-signature', '--log-level', 'warn'], {}, elsewhere);
    const shown = (await (await fetch(`${byFlag.url}/_emulator/scenario`)).json()) as { name: string; source: string; warnings: unknown[] };
    expect(shown).toMatchObject({ name: 'happy-path + slow-employer-signature', source: 'happy-path, slow-employer-signature' });
    // The second file's catch-all comes after the first's: a warning in the answer and in the log, not a refusal.
    expect(shown.warnings).toEqual([{ path: 'rules[1]', message: expect.stringContaining('never drives an onboarding: rules[0]') }]);
    const warned = byFlag.lines().map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 40);
    expect(warned).toEqual([expect.objectContaining({ path: 'rules[1]', scenario: 'happy-path, slow-employer-signature', msg: expect.stringMatching(/^scenario warning: rules\[1\] never drives an onboarding/) })]);

    const byEnv = await serve(['--log-level', 'warn'], { EMULATOR_SCENARIO: 'partner-flow' }, elsewhere);
    expect(await (await fetch(`${byEnv.url}/_emulator/scenario`)).json()).toMatchObject({ name: 'partner-flow', warnings: [] });
    expect(byEnv.lines().filter((l) => l.includes('"level":40'))).toEqual([]);

    const unknown = await run(['serve', '--port', '0', '--scenario', 'happy-pat'], elsewhere);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^No ready scenario is named happy-pat; the ready scenarios are employee-never-opens, flaky-webhooks, happy-path, .*terms-changed-after-approval \(write \.\/happy-pat for a file of that name\)\n$/);
  });
});

describe('onboarding-emulator serve: webhook options', () => {
  it('refuses an invalid webhook timeout and URL policy with a clear message', async () => {
    const bad = await run(['serve', '--port', '0', '--webhook-timeout-ms', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('not a valid timeout');
    const policy = await run(['serve', '--webhook-url-policy', 'open']);
    expect(policy.code).not.toBe(0);
    expect(policy.out).toMatch(/Allowed choices are local, strict/);
  });

  it('refuses an invalid --journal-limit with the range, and takes 0 from EMULATOR_JOURNAL_LIMIT', async () => {
    for (const value of ['-1', '100001', 'all']) {
      const bad = await run(['serve', '--port', '0', '--journal-limit', value]);
      expect(bad.code, bad.out).toBe(2);
      expect(bad.out).toContain(`not a valid journal limit (0 to 100000): ${value}`);
    }
    const { url } = await serve([], { EMULATOR_JOURNAL_LIMIT: '0' });
    await fetch(`${url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    const list = (await (await fetch(`${url}/_emulator/requests`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } })).json()) as { total: number; limit: number };
    expect(list).toMatchObject({ total: 0, limit: 0 });
  });

  it('refuses a --public-url that is no http(s) base URL, naming the flag', async () => {
    for (const [value, says] of [['localhost:4010', 'must be an http:// or https:// URL'], ['https://emu.example.test/?a=1', 'no query or fragment']]) {
      const bad = await run(['serve', '--port', '0', '--public-url', value!]);
      expect(bad.code, bad.out).toBe(2);
      expect(bad.out).toContain('--public-url');
      expect(bad.out).toContain(says);
    }
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
