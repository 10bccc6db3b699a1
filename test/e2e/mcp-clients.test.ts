import type { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import type { GradedReceiver } from '../support/graded-receivers.js';
import { callTheOtherActions, checkHints, exerciseEveryTool, exerciseRefusals, expectEveryAnswerChecked, readResources, walkAllowedActions } from '../support/mcp.js';
import { useReceivers } from '../support/receiver.js';
import { CLI } from '../support/serve.js';

/**
 * The MCP server as the 2.x client package meets it, on both revisions it speaks: the
 * initialize revision (2025-11-25, the client's default) and the stateless one (2026-07-28,
 * pinned: no initialize, the version in every request's _meta, server/discover), over
 * streamable HTTP and over stdio. The 1.x client's runs are in mcp-http and mcp-stdio.
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

const REVISIONS = [
  { name: '2025-11-25', era: 'legacy', negotiation: undefined },
  { name: '2026-07-28', era: 'modern', negotiation: { mode: { pin: '2026-07-28' } } },
] as const;
type Revision = (typeof REVISIONS)[number];

const newClient = (revision: Revision): Client => {
  const client = new Client({ name: 'mcp-2x-test', version: '1.0.0' }, revision.negotiation ? { versionNegotiation: revision.negotiation } : {});
  clients.push(client);
  return client;
};

/** Over HTTP, to an emulator in this process; `url` is the one the code under test calls. */
async function overHttp(revision: Revision, path = '/_emulator/mcp'): Promise<{ client: Client; url: string; em: InProcessEmulator }> {
  const em = createEmulator();
  started.push(em);
  const { url } = await em.start(0, '127.0.0.1');
  const client = newClient(revision);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}${path}`)));
  return { client, url, em };
}

/** Over stdio, to the built CLI's `mcp` with an emulator in its process (closing the client ends it). */
async function overStdio(revision: Revision): Promise<{ client: Client; url: string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--port', '0', '--host', '127.0.0.1'], stderr: 'pipe' });
  const stderr = transport.stderr as Readable;
  let said = '';
  const address = new Promise<string>((resolve) => {
    stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      const match = /emulator in this process at (http:\/\/127\.0\.0\.1:\d+)/.exec(said);
      if (match) resolve(match[1]!);
    });
  });
  const client = newClient(revision);
  await client.connect(transport);
  return { client, url: await address };
}

const TRANSPORTS = [
  { name: 'streamable HTTP', open: overHttp },
  { name: 'stdio', open: overStdio },
] as const;

describe.each(TRANSPORTS)('the 2.x client over $name', ({ open }) => {
  it.each(REVISIONS)('on $name: lists and calls every action, each answer valid against its outputSchema; reads the resources', async (revision) => {
    const { client, url } = await open(revision);
    expect(client.getProtocolEra()).toBe(revision.era);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision.name);
    expect(client.getServerVersion()?.name).toBe('onboarding-emulator');
    const { tools } = await client.listTools();
    const receiver = await receivers.start();
    const { called, open: opened } = await exerciseEveryTool(client, url, receiver);
    graded.push(...opened);
    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
    await readResources(client);
    await callTheOtherActions(client, 'default', opened[0]!.url);
    await walkAllowedActions(client, url);
    await expectEveryAnswerChecked(client, ['workspace workspace.delete']);
    await checkHints(client);
  }, 60_000);
});

describe('the stateless revision over HTTP', () => {
  it('server/discover names the stateless revision; refusals and the bound workspace hold as on initialize', async () => {
    const { client, em } = await overHttp(REVISIONS[1]);
    expect(client.getDiscoverResult()?.supportedVersions).toContain('2026-07-28');
    const other = await em.workspace.create();
    await exerciseRefusals(client, 'default', other.id);
  });

  it('a request carries its own version: no initialize, no session id; headers that disagree with the body are refused', async () => {
    const { url } = await overHttp(REVISIONS[0]);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const send = (headers: Record<string, string>) =>
      fetch(`${url}/_emulator/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'clock', arguments: { action: 'clock.state' }, _meta: meta } }),
      });
    const res = await send({ 'Mcp-Method': 'tools/call', 'Mcp-Name': 'clock' });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const answer = (await res.json()) as { id: number; result: { structuredContent: { action: string; result: { now: string } } } };
    expect(answer.id).toBe(9);
    expect(answer.result.structuredContent.action).toBe('clock.state');
    expect(Date.parse(answer.result.structuredContent.result.now)).not.toBeNaN();
    // The method header names another method than the body: the SDK's refusal, as a JSON-RPC error.
    const mismatch = await send({ 'Mcp-Method': 'tools/list', 'Mcp-Name': 'clock' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) as unknown } });
  });
});
