import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harProblems, header, type HarDoc } from '../support/har.js';
import { useReceivers } from '../support/receiver.js';
import { run, serve } from '../support/serve.js';

/** `requests --format har`, `webhooks har` and `postman` of the built CLI against a built server: the document on stdout. */
const children: ChildProcess[] = [];
const cli = (args: string[]) => run(args, children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
const receivers = useReceivers();
let url = '';

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function api(key: string, method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('the HAR exports from the CLI', () => {
  it('requests --format har and webhooks har print valid archives of the workspace the key picks', async () => {
    const created = (await (await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as { keys: { key: string }[] };
    const key = created.keys.find((k) => k.key.startsWith('hrs_test_acme_owner'))!.key;
    const receiver = await receivers.start();
    expect(await api(key, 'POST', '/v1/webhooks', { url: receiver.url('/hook') })).toBe(201);
    expect(await api(key, 'GET', '/v1/onboardings/onb_nope')).toBe(404);
    expect(await api(key, 'POST', '/v1/webhooks/nope/test', {})).toBe(404);

    const requests = await cli(['requests', '--url', url, '--key', key, '--format', 'har']);
    expect(requests.code, requests.stderr).toBe(0);
    const doc = JSON.parse(requests.stdout) as HarDoc;
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.entries.map((e) => e.response.status)).toEqual([201, 404, 404]);
    expect(requests.stdout).not.toContain(key);

    const only = JSON.parse((await cli(['requests', '--url', url, '--key', key, '--format', 'har', '--status', '201'])).stdout) as HarDoc;
    expect(only.log.entries).toHaveLength(1);

    const hooks = await cli(['webhooks', 'har', '--url', url, '--key', key]);
    expect(hooks.code, hooks.stderr).toBe(0);
    const attempts = JSON.parse(hooks.stdout) as HarDoc;
    expect(harProblems(attempts)).toEqual([]);
    // Registering an address sends nothing; the test message goes to no known address: no attempt yet.
    expect(attempts.log.entries).toEqual([]);

    const wrong = await cli(['requests', '--url', url, '--key', key, '--format', 'xml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--format must be table or har');
  });

  it('webhooks har holds the signed attempts a receiver got', async () => {
    const created = (await (await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as { id: string; keys: { key: string }[] };
    const key = created.keys.find((k) => k.key.startsWith('hrs_test_acme_owner'))!.key;
    const receiver = await receivers.start();
    const res = await fetch(`${url}/v1/webhooks`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: receiver.url('/hook') }) });
    const hook = (await res.json()) as { id: string };
    expect(await api(key, 'POST', `/v1/webhooks/${hook.id}/test`, {})).toBe(200);
    await receiver.waitFor(1);

    const out = await cli(['webhooks', 'har', '--url', url, '--workspace', created.id, '--endpoint', hook.id]);
    expect(out.code, out.stderr).toBe(0);
    const doc = JSON.parse(out.stdout) as HarDoc;
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.entries).toHaveLength(1);
    expect(doc.log.entries[0]!.response.status).toBe(200);
    expect(header(doc.log.entries[0]!.request.headers, 'Service-Event-Type')).toBe('ping');
    expect(header(doc.log.entries[0]!.request.headers, 'Service-Signature')).toBe(receiver.requests[0]!.headers['service-signature']);
  });

  it('postman prints the collection of the workspace, its keys as variables', async () => {
    const created = (await (await fetch(`${url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).json()) as { id: string; keys: { key: string }[] };
    const out = await cli(['postman', '--url', url, '--workspace', created.id]);
    expect(out.code, out.stderr).toBe(0);
    const collection = JSON.parse(out.stdout) as { info: { schema: string }; item: { name: string }[]; variable: { key: string; value: string }[] };
    expect(collection.info.schema).toContain('v2.1.0');
    expect(collection.item.map((f) => f.name)).toContain('Onboardings');
    expect(collection.variable.find((v) => v.key === 'baseUrl')!.value).toBe(url);
    const keys = collection.variable.filter((v) => v.key.endsWith('Key'));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(created.keys.map((c) => c.key)).toContain(k.value);
  });
});
