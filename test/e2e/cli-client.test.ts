import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/net.js';
import { CLI, run, serve } from '../support/serve.js';

/** The client commands of the built CLI against one built server (frozen clock), each run as its own process. */
const children: ChildProcess[] = [];
/** A client command, never picking up a URL or key from the developer's environment. */
const cli = (args: string[], env: Record<string, string> = {}) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '', ...env });
let url = '';

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('onboarding-emulator client commands', () => {
  it('clock show, advance and set; setting it backwards is a refusal with exit 1', async () => {
    const show = await cli(['clock', 'show', '--url', url]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^now\s+2026-10-05T09:00:00\.000Z$/m);
    expect(show.stdout).toMatch(/^mode\s+frozen$/m);
    // The fixtures' events wait for their purge: the next timer is named with its payload.
    expect(show.stdout).toMatch(/^next timer\s+event\.purge event_id=evt_\S+$/m);

    const advanced = await cli(['clock', 'advance', '90m', '--url', url, '--json']);
    expect(advanced.code).toBe(0);
    expect((JSON.parse(advanced.stdout) as { now: string }).now).toBe('2026-10-05T10:30:00.000Z');

    const iso = await cli(['clock', 'advance', 'PT30M', '--url', url]);
    expect(iso.stdout).toMatch(/^now\s+2026-10-05T11:00:00\.000Z$/m);

    const set = await cli(['clock', 'set', '2026-10-05T12:00:00Z', '--url', url]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/^now\s+2026-10-05T12:00:00\.000Z$/m);

    const back = await cli(['clock', 'set', '2026-10-01T00:00:00Z', '--url', url]);
    expect(back.code).toBe(1);
    expect(back.stderr).toMatch(/^error 409 clock_backwards: /);
    expect(back.stdout).toBe('');

    const bad = await cli(['clock', 'advance', 'soon', '--url', url]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error 422 parameter_invalid');
  });

  it('onboardings advance plays the next sandbox step with a test key, given by flag or environment', async () => {
    const r = await cli(['onboardings', 'advance', 'onb_demo_jansen', '--url', url, '--key', 'hrs_test_acme_owner']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^step\s+employee_opened$/m);
    expect(r.stdout).toMatch(/^status\s+\S+$/m);
    const next = await cli(['onboardings', 'advance', 'onb_demo_jansen', '--json'], { EMULATOR_URL: url, EMULATOR_KEY: 'hrs_test_acme_owner' });
    expect(next.code).toBe(0);
    expect((JSON.parse(next.stdout) as { step: string; onboarding: { id: string } })).toMatchObject({ step: 'employee_submitted', onboarding: { id: 'onb_demo_jansen' } });
    const noKey = await cli(['onboardings', 'advance', 'onb_demo_jansen', '--url', url]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/^error 401 /);
  });

  it('outbox --json is the raw answer, filtered by --onboarding', async () => {
    const all = await cli(['outbox', '--url', url, '--json']);
    expect(all.code).toBe(0);
    expect(Array.isArray((JSON.parse(all.stdout) as { data: unknown[] }).data)).toBe(true);
    const one = await cli(['outbox', '--onboarding', 'onb_none', '--url', url, '--json']);
    expect(JSON.parse(one.stdout)).toEqual({ data: [] });
    const table = await cli(['outbox', '--onboarding', 'onb_none', '--url', url]);
    expect(table.stdout).toBe('no mails\n');
  });

  it('events tail --once prints the events oldest first and exits', async () => {
    const json = await cli(['events', 'tail', '--once', '--json', '--url', url, '--key', 'hrs_test_acme_owner']);
    expect(json.code).toBe(0);
    const events = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; type: string; created_at: string });
    expect(events.filter((e) => e.type === 'onboarding.created').length).toBeGreaterThan(0);
    expect(events.map((e) => e.created_at)).toEqual([...events.map((e) => e.created_at)].sort());
    const table = await cli(['events', 'tail', '--once', '--type', 'onboarding.created', '--url', url, '--key', 'hrs_test_acme_owner']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^created at\s+id\s+type\s+onboarding\s+data version$/);
    expect(lines.slice(1).every((l) => l.includes('onboarding.created'))).toBe(true);
  });

  it('events tail follows new events until interrupted', async () => {
    const child = spawn(process.execPath, [CLI, 'events', 'tail', '--json', '--interval', '100', '--url', url, '--key', 'hrs_test_acme_owner']);
    children.push(child);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const lines = () => out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string });
    await expect.poll(() => lines().length, { timeout: 5000 }).toBeGreaterThan(0);
    const before = lines().length;
    // The employee opening another onboarding is a new onboarding.started event.
    const step = await cli(['onboardings', 'advance', 'onb_demo_partner', '--url', url, '--key', 'hrs_test_acme_owner']);
    expect(step.stdout).toMatch(/^step\s+employee_opened$/m);
    await expect.poll(() => lines().length, { timeout: 5000 }).toBeGreaterThan(before);
    expect(new Set(lines().map((e) => e.id)).size).toBe(lines().length); // nothing printed twice
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('workspace create prints the id and the keys of the new workspace', async () => {
    const r = await cli(['workspace', 'create', '--url', url]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^workspace ws_\S+ \(clock \w+, now \S+\)$/m);
    expect(r.stdout).toMatch(/^key\s+environment\s+organization\s+scopes\s+name$/m);
    expect(r.stdout).toMatch(/^hrs_test_acme_owner_\S+\s+test\s+org_acme\s/m);
    const json = await cli(['workspace', 'create', '--seed', '7', '--frozen', '--start', '2026-01-01T00:00:00Z', '--json', '--url', url]);
    expect(json.code).toBe(0);
    const created = JSON.parse(json.stdout) as { id: string; keys: { key: string }[]; clock: { mode: string; now: string } };
    expect(created.clock).toMatchObject({ mode: 'frozen', now: '2026-01-01T00:00:00.000Z' });
    // A key of the new workspace picks it for the control API: its clock is its own.
    const clock = await cli(['clock', 'show', '--json', '--url', url, '--key', created.keys[0]!.key]);
    expect((JSON.parse(clock.stdout) as { now: string }).now).toBe('2026-01-01T00:00:00.000Z');
    expect((await cli(['workspace', 'create', '--start', 'someday', '--url', url])).code).toBe(2);
  });

  it('workspace create --scenario plays files checked here; --no-scenario plays none; a bad file makes no workspace', async () => {
    const scenarioOf = async (key: string) => JSON.parse((await cli(['scenario', 'show', '--json', '--url', url, '--key', key])).stdout) as { loaded: boolean; name: string | null; document: { rules: unknown[] } | null };
    const made = await cli(['workspace', 'create', '--scenario', 'scenarios/slow-employer-signature.yaml', '--scenario', 'scenarios/happy-path.yaml', '--json', '--url', url]);
    expect(made.code, made.stderr).toBe(0);
    const withScenario = await scenarioOf((JSON.parse(made.stdout) as { keys: { key: string }[] }).keys[0]!.key);
    expect(withScenario.loaded).toBe(true);
    expect(withScenario.document!.rules).toHaveLength(2);
    const none = await cli(['workspace', 'create', '--no-scenario', '--json', '--url', url]);
    expect(none.code, none.stderr).toBe(0);
    expect((await scenarioOf((JSON.parse(none.stdout) as { keys: { key: string }[] }).keys[0]!.key)).loaded).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'cli-workspace-'));
    writeFileSync(join(dir, 'bad.yaml'), 'version: 1\nrules:\n  - match: { all: true }\n    employee: { opens: soon }\n');
    const listed = async () => (JSON.parse((await cli(['control', 'GET', '/_emulator/workspaces', '--url', url])).stdout) as { data: unknown[] }).data.length;
    const before = await listed();
    const bad = await cli(['workspace', 'create', '--scenario', join(dir, 'bad.yaml'), '--url', url]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('rules[0].employee.opens');
    expect(bad.stderr).toContain('no workspace was made');
    expect(await listed()).toBe(before);
  });

  it('control sends any request and prints the JSON answer; usage mistakes exit 2', async () => {
    const health = await cli(['control', 'GET', '/_emulator/health', '--url', url]);
    expect(health.code).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({ status: 'ok' });
    const api = await cli(['control', 'get', '/v1/onboardings/onb_demo_jansen', '--json', '--url', url, '--key', 'hrs_test_acme_owner']);
    expect((JSON.parse(api.stdout) as { id: string }).id).toBe('onb_demo_jansen');
    const refused = await cli(['control', 'POST', '/_emulator/clock', '{"now":"2020-01-01T00:00:00Z"}', '--url', url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('clock_backwards');
    expect((await cli(['control', 'FETCH', '/x', '--url', url])).code).toBe(2);
    expect((await cli(['control', 'POST', '/_emulator/faults', '{oops', '--url', url])).code).toBe(2);
    expect((await cli(['clock', 'advance', '--url', url])).code).toBe(2);
  });

  it('a connection failure exits 2 with a clear message', async () => {
    const port = await closedPort();
    const r = await cli(['clock', 'show', '--url', `http://127.0.0.1:${port}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach the emulator at http://127.0.0.1:${port}`);
  });

  it('against another server: one line saying it is not an onboarding emulator, exit 2', async () => {
    const answers = [
      // A 200 that is no JSON (a bundler's dev server), an HTML 404 page, and JSON without the emulator's headers.
      { status: 200, type: 'application/javascript', body: `!function(){${'var a=1;'.repeat(2000)}}();` },
      { status: 404, type: 'text/html', body: `<!doctype html><html><body>${'<p>Not here</p>'.repeat(500)}</body></html>` },
      { status: 200, type: 'application/json', body: '{"now":"yesterday"}' },
    ];
    for (const a of answers) {
      const foreign = createServer((_req, res) => void res.writeHead(a.status, { 'Content-Type': a.type }).end(a.body));
      await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      try {
        const r = await cli(['clock', 'show', '--url', base]);
        expect(r.code, a.type).toBe(2);
        const lines = r.stderr.trim().split('\n');
        expect(lines, a.type).toHaveLength(1);
        expect(lines[0], a.type).toContain(`${base} is not an onboarding emulator (got ${a.status} ${a.type}`);
        expect(lines[0]!.length, a.type).toBeLessThan(300);
        expect(r.stderr, a.type).not.toContain('TypeError');
      } finally {
        await new Promise((resolve) => foreign.close(resolve));
      }
    }
  });

  it('an unknown command or option is a usage mistake: exit 2', async () => {
    const unknown = await cli(['clok', 'show']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'clok'");
    const option = await cli(['--prot', '4010']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--prot'");
  });

  it('an --url without its scheme is a usage error that suggests http://', async () => {
    const res = await cli(['clock', 'show', '--url', '127.0.0.1:4304']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--url must be an http:// or https:// URL');
    expect(res.stderr).toContain('did you mean http://127.0.0.1:4304?');
  });

  it('a /v1 command without a key names --key and EMULATOR_KEY', async () => {
    const res = await cli(['events', 'tail', '--once', '--url', url]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('api_key_missing');
    expect(res.stderr).toContain('pass --key <API_KEY> or set EMULATOR_KEY');
  });

  it('survives a pipe closed early (| head -3): no EPIPE stack, exit 0', async () => {
    // The OpenAPI document is far larger than a pipe's buffer, so the CLI is still writing when head exits.
    const script = `set -o pipefail; "${process.execPath}" ${CLI} control GET /openapi.json --url ${url} 2>"$ERR" | head -3 >/dev/null; echo "exit=\${PIPESTATUS[0]}"; cat "$ERR"`;
    const dir = mkdtempSync(join(tmpdir(), 'cli-pipe-'));
    const out = await new Promise<string>((resolve) => {
      const child = spawn('bash', ['-c', script], { env: { ...process.env, ERR: join(dir, 'err'), EMULATOR_URL: '', EMULATOR_KEY: '' } });
      children.push(child);
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      child.on('close', () => resolve(text));
    });
    expect(out).toContain('exit=0');
    expect(out).not.toContain('EPIPE');
    expect(out).not.toMatch(/\bat .+\.js:\d+/);
  });

  it('explains each command in --help', async () => {
    for (const args of [['clock', 'advance'], ['onboardings', 'advance'], ['outbox'], ['events', 'tail'], ['workspace', 'create'], ['control']]) {
      const r = await cli([...args, '--help']);
      expect(r.code).toBe(0);
      for (const s of ['--url', 'EMULATOR_URL', '--key', 'EMULATOR_KEY', '--json']) expect(r.stdout).toContain(s);
    }
    expect((await cli(['events', 'tail', '--help'])).stdout).toContain('--once');
  });
});
