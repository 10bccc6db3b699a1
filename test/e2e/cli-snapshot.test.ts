import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';

/** `snapshot save [file]` and `snapshot load <file>` of the built CLI against one built server (frozen clock). */
const children: ChildProcess[] = [];
/** A client command, never picking up a URL or key from the developer's environment. */
const cli = (args: string[], env: Record<string, string> = {}) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '', ...env });
const dir = mkdtempSync(join(tmpdir(), 'cli-snapshot-'));
let url = '';

async function createOnboarding(key = 'hrs_test_acme_owner'): Promise<string> {
  const res = await fetch(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      reference: 'cli-snapshot',
      employee: { first_name: 'Sam', last_name: 'Smit', email: 'sam@example.test' },
      employment: { position: 'Clerk', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 20, hourly_wage_cents: 1500 },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const statusOf = async (id: string) => (await fetch(`${url}/v1/onboardings/${id}`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } })).status;

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z', '--seed', 'cli'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('onboarding-emulator snapshot', () => {
  it('save without a file prints the snapshot; with a file writes it and prints a summary', async () => {
    const out = await cli(['snapshot', 'save', '--url', url]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ format: 'onboarding-emulator-snapshot', version: 1, workspace: { id: 'default' } });

    const file = join(dir, 'saved.json');
    const saved = await cli(['snapshot', 'save', file, '--url', url]);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toMatch(new RegExp(`^saved\\s+${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(saved.stdout).toMatch(/^workspace\s+default$/m);
    expect(saved.stdout).toMatch(/^clock\s+2026-10-05T09:00:00\.000Z \(frozen\)$/m);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(out.stdout));
    // It holds the workspace's keys and secrets: readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const json = await cli(['snapshot', 'save', join(dir, 'saved2.json'), '--url', url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ workspace: 'default', clock: { mode: 'frozen' }, bytes: expect.any(Number) });
  });

  it('load puts the saved state back: what was made after the save is gone, and the answer says so', async () => {
    const file = join(dir, 'before.json');
    expect((await cli(['snapshot', 'save', file, '--url', url])).code).toBe(0);
    const id = await createOnboarding();
    expect(await statusOf(id)).toBe(200);

    const loaded = await cli(['snapshot', 'load', file, '--url', url]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(/^restored\s+default$/m);
    expect(loaded.stdout).toMatch(/^onboardings\s+\d+$/m);
    expect(await statusOf(id)).toBe(404);
    // Seeded: the next onboarding gets the id the removed one had.
    expect(await createOnboarding()).toBe(id);

    const json = await cli(['snapshot', 'load', file, '--url', url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'default', restored: true });
  });

  it('--workspace saves and loads the workspace named', async () => {
    const created = await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const ws = (await created.json()) as { id: string; keys: { key: string }[] };
    const file = join(dir, 'ws.json');
    const saved = await cli(['snapshot', 'save', file, '--workspace', ws.id, '--url', url]);
    expect(saved.stdout).toMatch(new RegExp(`^workspace\\s+${ws.id}$`, 'm'));
    const id = await createOnboarding(ws.keys[0]!.key);
    const loaded = await cli(['snapshot', 'load', file, '--workspace', ws.id, '--url', url]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stdout).toMatch(new RegExp(`^restored\\s+${ws.id}$`, 'm'));
    const res = await fetch(`${url}/v1/onboardings/${id}`, { headers: { Authorization: `Bearer ${ws.keys[0]!.key}` } });
    expect(res.status).toBe(404);
  });

  it('a refused snapshot is exit 1 with the code and every mistake; nothing changed', async () => {
    const before = (await cli(['snapshot', 'save', '--url', url])).stdout;
    const file = join(dir, 'broken.json');
    const doc = JSON.parse(before) as Record<string, any>; // deliberately broken below
    doc.clock.mode = 'sideways';
    delete doc.outbox;
    writeFileSync(file, JSON.stringify(doc));
    const r = await cli(['snapshot', 'load', file, '--url', url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error 422 snapshot_invalid: /);
    expect(r.stderr).toContain('  clock.mode: ');
    expect(r.stderr).toContain('  outbox: is required');
    expect((await cli(['snapshot', 'save', '--url', url])).stdout).toBe(before);

    writeFileSync(file, JSON.stringify({ ...JSON.parse(before), version: 3 }));
    const version = await cli(['snapshot', 'load', file, '--url', url]);
    expect(version.code).toBe(1);
    expect(version.stderr).toMatch(/^error 422 snapshot_version_unsupported: The snapshot has version 3/);
  });

  it('a file that is missing or not JSON, or no emulator, is exit 2', async () => {
    const missing = await cli(['snapshot', 'load', join(dir, 'nope.json'), '--url', url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const file = join(dir, 'text.json');
    writeFileSync(file, 'not json');
    const text = await cli(['snapshot', 'load', file, '--url', url]);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('is not valid JSON');
    const noArg = await cli(['snapshot', 'load', '--url', url]);
    expect(noArg.code).toBe(2);
    const down = await cli(['snapshot', 'save', '--url', 'http://127.0.0.1:9']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot reach the emulator');
  });

  it('--help names both commands', async () => {
    const help = await cli(['snapshot', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('save');
    expect(help.stdout).toContain('load');
  });
});
