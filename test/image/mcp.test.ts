import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { IMAGE, LABEL, removeContainers, start, waitForStatus } from './docker.js';

/**
 * MCP in the built image, where the SDK's packages are installed for production only (and
 * trimmed of source maps and type declarations): the 2.x client over streamable HTTP on both
 * revisions, and over stdio with `docker run -i ... mcp`, each listing the tools and calling one.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(removeContainers);

async function clockThrough(client: Client): Promise<string> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('clock');
  const answer = await client.callTool({ name: 'clock', arguments: { action: 'clock.state' } });
  expect(answer.isError ?? false).toBe(false);
  return (answer.structuredContent as { result: { now: string } }).result.now;
}

describe('MCP in the image', () => {
  it('over streamable HTTP, on 2025-11-25 and on the stateless 2026-07-28', async () => {
    const c = await start({ args: ['--clock', 'frozen', '--start-time', '2026-10-05T09:00:00.000Z'] });
    await waitForStatus(`${c.base}/_emulator/health`);
    for (const negotiation of [undefined, { mode: { pin: '2026-07-28' } }] as const) {
      const client = new Client({ name: 'image-mcp', version: '1' }, negotiation ? { versionNegotiation: negotiation } : {});
      clients.push(client);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${c.base}/_emulator/mcp`)));
      expect(client.getNegotiatedProtocolVersion()).toBe(negotiation ? '2026-07-28' : '2025-11-25');
      expect(await clockThrough(client)).toBe('2026-10-05T09:00:00.000Z');
    }
  }, 60_000);

  it('over stdio: `docker run -i` the image with `mcp`', async () => {
    const transport = new StdioClientTransport({ command: 'docker', args: ['run', '-i', '--rm', '--label', LABEL, IMAGE, 'mcp', '--port', '0'], stderr: 'pipe' });
    const client = new Client({ name: 'image-mcp-stdio', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    clients.push(client);
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('modern');
    expect(Date.parse(await clockThrough(client))).not.toBeNaN();
  }, 60_000);
});
