import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';

/** The faults, delivery-faults, webhooks and workspace commands of the built CLI against one built server, and the exit-code table of docs/cli.md. */
const children: ChildProcess[] = [];
const cli = (args: string[]) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
const OWNER = 'hrs_test_acme_owner';
let url = '';

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

const json = async (args: string[]) => {
  const r = await cli([...args, '--url', url, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown> & { data?: Record<string, unknown>[] };
};

describe('control commands a person uses by hand', () => {
  it('faults: add with the body as flags, list, show, remove and clear; the emulator checks the flags', async () => {
    const added = await json(['faults', 'add', 'error', '--path', '/v1/organization', '--count', '2']);
    expect(added).toMatchObject({ object: 'fault', kind: 'error', path: '/v1/organization', remaining: 2 });
    const res = await fetch(`${url}/v1/organization`, { headers: { Authorization: `Bearer ${OWNER}` } });
    expect(res.status).toBe(500);
    expect(await json(['faults', 'show', added.id as string])).toMatchObject({ id: added.id, remaining: 1 });
    expect((await json(['faults', 'list'])).data!.map((f) => f.id)).toEqual([added.id]);
    const table = await cli(['faults', 'list', '--url', url]);
    expect(table.stdout).toMatch(new RegExp(`^${added.id as string}\\s+error\\s+-\\s+/v1/organization\\s+1\\s+2$`, 'm'));

    const refused = await cli(['faults', 'add', 'latency', '--url', url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error 422 parameter_missing');
    const unread = await cli(['faults', 'add', 'latency', '--latency-ms', 'soon', '--url', url]);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toContain('--latency-ms must be a number');
    expect((await cli(['faults', 'add', 'explode', '--url', url])).code).toBe(2);
    // Decimal digits only, as the emulator reads its integers.
    expect((await cli(['faults', 'add', 'latency', '--latency-ms', '0x10', '--url', url])).code).toBe(2);

    expect(await json(['faults', 'remove', added.id as string])).toEqual({ id: added.id, deleted: true });
    await json(['faults', 'add', 'rate_limit']);
    expect(await json(['faults', 'clear'])).toEqual({ deleted: 1 });
  });

  it('delivery-faults, webhooks and their deliveries, retry and enable', async () => {
    const fault = await json(['delivery-faults', 'add', 'duplicate', '--count', '3', '--target-url', 'http://127.0.0.1:9/*']);
    expect(fault).toMatchObject({ object: 'delivery_fault', kind: 'duplicate', url: 'http://127.0.0.1:9/*', remaining: 3 });
    expect((await json(['delivery-faults', 'list'])).data!.map((f) => f.id)).toEqual([fault.id]);
    expect(await json(['delivery-faults', 'clear'])).toEqual({ deleted: 1 });

    const hook = await fetch(`${url}/v1/webhooks`, {
      method: 'POST', headers: { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['onboarding.created'] }),
    });
    const { id } = (await hook.json()) as { id: string };
    await fetch(`${url}/v1/webhooks/${id}/test`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER}` } });
    const listed = await json(['webhooks', 'list']);
    expect(listed.data!.map((w) => w.id)).toContain(id);
    const page = await json(['webhooks', 'deliveries', id, '--limit', '5']);
    expect(page.data!.length).toBeGreaterThan(0);
    const retried = await json(['webhooks', 'retry', page.data![0]!.id as string]);
    expect(retried).toMatchObject({ id: page.data![0]!.id, endpoint_id: id });
    expect(await json(['webhooks', 'enable', id])).toEqual({ id, status: 'enabled' });
    expect((await cli(['webhooks', 'deliveries', 'we_missing', '--url', url])).code).toBe(1);
  });

  it('workspace list, show, reset and delete', async () => {
    const created = await json(['workspace', 'create', '--frozen']);
    expect((await json(['workspace', 'list'])).data!.map((w) => w.id)).toEqual(expect.arrayContaining(['default', created.id]));
    expect(await json(['workspace', 'show', created.id as string])).toMatchObject({ id: created.id, clock: { mode: 'frozen' } });
    expect(await json(['workspace', 'reset', '--workspace', created.id as string])).toMatchObject({ id: created.id, reset: true });
    expect(await json(['workspace', 'delete', created.id as string])).toEqual({ id: created.id, deleted: true });
    const gone = await cli(['workspace', 'show', created.id as string, '--url', url]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('workspace_not_found');
  });
});

describe('requests --unmatched', () => {
  it('lists the requests that reached no workspace, with what each most likely meant', async () => {
    await fetch(`${url}/v1/onboarding`, { headers: { Authorization: `Bearer ${OWNER}` } });
    const r = await cli(['requests', '--unmatched', '--url', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\S+\s+GET\s+\/v1\/onboarding\s+404\s+route_not_found\s+no_route\s+did you mean GET, POST \/v1\/onboardings\?$/m);
  });

  it('--follow follows a workspace journal, so it does not go with --unmatched', async () => {
    const r = await cli(['requests', '--unmatched', '--follow', '--url', url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--follow');
  });
});

describe('control, for what the commands do not cover', () => {
  it('prints a text answer of the emulator as it came (a Mermaid diagram), not as a foreign server', async () => {
    const r = await cli(['control', 'GET', '/_emulator/state-machine?format=mermaid', '--url', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^stateDiagram/m);
  });
});

describe('the exit-code table of docs/cli.md', () => {
  it('lists 0, 1 and 2, and each example exits with its code', async () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| (\d) \| [^|]+ \| `onboarding-emulator ([^`]+)` \|$/gm)].map((m) => ({ code: Number(m[1]), args: m[2]!.split(' ') }));
    expect(rows.map((r) => r.code)).toEqual([0, 1, 2]);
    for (const { code, args } of rows) {
      const r = await cli([...args, '--url', url]);
      expect(r.code, args.join(' ')).toBe(code);
    }
  });
});
