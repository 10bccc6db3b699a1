import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { Emulator } from '../../src/emulator.js';
import { listen } from '../../src/http/server.js';
import { createBody, KEYS } from '../support/harness.js';
import { call, callTheOtherActions, checkHints, exerciseEveryTool, exerciseRefusals, expectEveryAnswerChecked, readResources, walkAllowedActions } from '../support/mcp.js';
import { useReceivers } from '../support/receiver.js';
import type { GradedReceiver } from '../support/graded-receivers.js';
import { gate, until } from '../support/wait.js';

/**
 * MCP over streamable HTTP, driven by the SDK's own client against a real server on 127.0.0.1:
 * /_emulator/mcp for the default workspace, /_emulator/workspaces/{id}/mcp for another, admitted
 * as the control API is (origin guard, workspace selection) and with test keys only.
 */
const started: InProcessEmulator[] = [];
const clients: Client[] = [];
const graded: GradedReceiver[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(graded.splice(0).map((r) => r.close()));
  for (const em of started.splice(0)) await em.close();
});
const receivers = useReceivers();

async function emulator(): Promise<{ em: InProcessEmulator; url: string }> {
  const em = createEmulator();
  started.push(em);
  const { url } = await em.start(0, '127.0.0.1');
  return { em, url };
}

async function connect(endpoint: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } }));
  return client;
}

/** The tools/list answer's size at most (docs/configuration.md "Limits"): an agent reads it whole, at about 4 bytes a token. */
const TOOL_LIST_BUDGET_BYTES = 80_000;

/** A raw JSON-RPC post, as a browser or a stray client would send it. */
const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('MCP over streamable HTTP', () => {
  it('initializes, lists at most 15 tools, calls every one with its effect, and reads the resources', async () => {
    const { url } = await emulator();
    const client = await connect(`${url}/_emulator/mcp`);
    expect(client.getServerVersion()?.name).toBe('onboarding-emulator');
    const { tools } = await client.listTools();
    expect(tools.length).toBeLessThanOrEqual(15);
    const receiver = await receivers.start();
    const { called, open } = await exerciseEveryTool(client, url, receiver);
    graded.push(...open);
    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
    await readResources(client);
    // Every other action too: each answer, structured, valid against its tool's outputSchema.
    await callTheOtherActions(client, 'default', open[0]!.url);
    await walkAllowedActions(client, url);
    await expectEveryAnswerChecked(client, ['workspace workspace.delete']);
  }, 60_000);

  it("an onboarding's allowed_actions are called by their own names", async () => {
    const { url } = await emulator();
    const client = await connect(`${url}/_emulator/mcp`);
    await walkAllowedActions(client, url);
    // An unknown name is still refused, naming the names there are.
    const refused = await client.callTool({ name: 'onboardings', arguments: { action: 'employee/dance', id: 'onb_x' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('verify-identity');
  }, 30_000);

  it('tools carry hints: read-only, destructive, idempotent, by what their actions do', async () => {
    const { url } = await emulator();
    await checkHints(await connect(`${url}/_emulator/mcp`));
  });

  it(`the tool list, as the tools/list answer, stays within ${TOOL_LIST_BUDGET_BYTES} bytes (about ${TOOL_LIST_BUDGET_BYTES / 4} tokens)`, async () => {
    const { url } = await emulator();
    const res = await post(`${url}/_emulator/mcp`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const answer = JSON.parse(text) as { result: { tools: { name: string; outputSchema?: unknown; annotations?: unknown }[] } };
    expect(answer.result.tools.every((t) => t.outputSchema && t.annotations)).toBe(true);
    const bytes = Buffer.byteLength(text);
    // Today's figure, for docs/configuration.md "Limits".
    console.info(`tools/list: ${bytes} bytes, about ${Math.round(bytes / 4)} tokens`);
    expect(bytes).toBeLessThanOrEqual(TOOL_LIST_BUDGET_BYTES);
  });

  it('refuses bad input with the envelope, and cannot reach a workspace it is not bound to', async () => {
    const { em, url } = await emulator();
    const other = await em.workspace.create();
    const client = await connect(`${url}/_emulator/mcp`);
    await exerciseRefusals(client, 'default', other.id);

    // A session at the other workspace's path acts there alone.
    const there = await connect(`${url}/_emulator/workspaces/${other.id}/mcp`);
    await exerciseRefusals(there, other.id, 'default');
    await call(there, 'clock', { action: 'clock.advance', by: '2h' });
    const moved = await call<{ now: string }>(there, 'clock', { action: 'clock.state' });
    expect(Date.parse(moved.now) - Date.parse(await em.clock.now())).toBeGreaterThanOrEqual(7_200_000 - 60_000);
    // Its own workspace it may delete: the one action the other tests leave out, its answer checked as every other.
    expect(await call(there, 'workspace', { action: 'workspace.delete', workspaceId: other.id })).toMatchObject({ id: other.id, deleted: true });
    // An unknown workspace in the path: the control API's 404.
    const res = await post(`${url}/_emulator/workspaces/ws_nope/mcp`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('workspace_not_found');
  });

  it('a test key picks its workspace; a live key is refused before the session starts', async () => {
    const { em, url } = await emulator();
    const other = await em.workspace.create();
    const key = other.keys.find((k) => k.environment === 'test')!.key;
    const client = await connect(`${url}/_emulator/mcp`, { Authorization: `Bearer ${key}` });
    expect((await call<{ id: string }[]>(client, 'workspace', { action: 'workspace.list' })).map((w) => w.id)).toEqual([other.id]);

    const res = await post(`${url}/_emulator/mcp`, { Authorization: `Bearer ${KEYS.live}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { type: 'permission_error', code: 'sandbox_test_keys_only' } });
  });

  it('is not callable from a page of another origin, and serves no event stream', async () => {
    const { url } = await emulator();
    const pages: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }];
    for (const headers of pages) {
      const res = await post(`${url}/_emulator/mcp`, headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'cross_origin_refused' } });
    }
    // The same request from the emulator's own origin is served.
    expect((await post(`${url}/_emulator/mcp`, { Origin: url })).status).toBe(200);
    const get = await fetch(`${url}/_emulator/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    // A preflight gets no CORS grant: a browser never sends the post.
    const preflight = await fetch(`${url}/_emulator/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with a state file, every answer waits for the write holding its change, and a failed write is the 500 state_not_written every control row gives', async () => {
    let failing = false;
    const emulator = new Emulator();
    const made = () => emulator.defaultWorkspace.store.onboardings.values().some((o) => o.reference === 'mcp-durable');
    // The state file's commit as the app is handed it: the first write holding the new onboarding is
    // held until the test opens the disk (other requests' writes pass), then a failing one.
    const disk = gate();
    let heldStarted = false;
    // Later, the next write whatever it holds (holdNext), for an answer that changes nothing.
    const next = gate();
    let holdNext = false;
    const commit = () => {
      if (failing) return Promise.reject(new Error('disk full'));
      if (holdNext) {
        holdNext = false;
        return next.opened;
      }
      if (heldStarted || !made()) return Promise.resolve();
      heldStarted = true;
      return disk.opened;
    };
    const running = await listen(emulator, { host: '127.0.0.1', port: 0, commit });
    try {
      const client = await connect(`${running.url}/_emulator/mcp`);
      let answered = false;
      const creating = call<{ id: string }>(client, 'onboardings', { action: 'onboardings.create', body: { ...createBody({ reference: 'mcp-durable' }), organization_id: 'org_acme' } })
        .finally(() => void (answered = true));
      await until(() => heldStarted, 'the write of the change to start');
      // A request made after it is answered while that write is held: the tool's answer is what waits.
      expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
      expect(answered).toBe(false);
      disk.open();
      expect((await creating).id).toMatch(/^onb_/);
      // Not only a tool call: any MCP answer leaves through the writer, so it waits as every answer does.
      holdNext = true;
      let listed = false;
      const listing = post(`${running.url}/_emulator/mcp`).finally(() => void (listed = true));
      await until(() => !holdNext, 'the write the MCP answer waits for to start');
      expect((await fetch(`${running.url}/_emulator/health`)).status).toBe(200);
      expect(listed).toBe(false);
      next.open();
      expect((await listing).status).toBe(200);

      failing = true;
      // The refusal an HTTP control request gets when its change is not written, on MCP too: the SDK's client rejects the call with it.
      await expect(client.callTool({ name: 'clock', arguments: { action: 'clock.advance', by: '1h' } })).rejects.toThrow(/"code":"state_not_written"/);
      const overMcp = await fetch(`${running.url}/_emulator/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'clock', arguments: { action: 'clock.advance', by: '1h' } } }),
      });
      const overHttp = await fetch(`${running.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1h"}' });
      for (const res of [overMcp, overHttp]) {
        expect(res.status).toBe(500);
        expect(await res.json()).toMatchObject({ error: { type: 'api_error', code: 'state_not_written' } });
      }
    } finally {
      await running.close();
    }
  });

});
