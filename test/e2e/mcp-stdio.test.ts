import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { GradedReceiver } from '../support/graded-receivers.js';
import { call, callTheOtherActions, checkHints, exerciseEveryTool, exerciseRefusals, expectEveryAnswerChecked, readResources, walkAllowedActions } from '../support/mcp.js';
import { closedPort, jsonRequest } from '../support/net.js';
import { useReceivers } from '../support/receiver.js';
import { CLI, run, serve } from '../support/serve.js';

/**
 * `onboarding-emulator mcp` (the built CLI) driven by the SDK's own client over stdio: an
 * emulator started in the process, or a running one attached with --url; stdout carries the
 * protocol alone; the exit codes of docs/cli.md.
 */
const children: ChildProcess[] = [];
const clients: Client[] = [];
const graded: GradedReceiver[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(graded.splice(0).map((r) => r.close()));
  for (const s of servers.splice(0)) s.close();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
const receivers = useReceivers();

/** The line the command writes on stderr once it runs (in process: the emulator's URL). */
function stderrLine(stream: Readable, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms: ${seen}`)), timeoutMs);
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
  });
}

async function connect(args: string[]): Promise<{ client: Client; stderr: Readable }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'pipe' });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  clients.push(client);
  const stderr = transport.stderr as Readable;
  await client.connect(transport);
  return { client, stderr };
}

describe('onboarding-emulator mcp (stdio)', () => {
  it('in process: an emulator on 127.0.0.1 for the code under test; every tool, its effect, the resources', async () => {
    const { client, stderr } = await connect(['--port', '0', '--host', '127.0.0.1']);
    const [, url] = await stderrLine(stderr, /emulator in this process at (http:\/\/127\.0\.0\.1:\d+)/);
    const { tools } = await client.listTools();
    expect(tools.length).toBeLessThanOrEqual(15);
    const receiver = await receivers.start();
    const { called, open } = await exerciseEveryTool(client, url!, receiver);
    graded.push(...open);
    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
    await readResources(client);
    // Every other action too, an onboarding's allowed actions by their own names among them: each answer structured and valid against its tool's outputSchema.
    await callTheOtherActions(client, 'default', open[0]!.url);
    await walkAllowedActions(client, url!);
    await expectEveryAnswerChecked(client, ['workspace workspace.delete']);
    await checkHints(client);
  }, 60_000);

  it('--url attaches to a running emulator, bound to --workspace', async () => {
    const served = await serve([], children);
    const other = await jsonRequest(served.url, 'POST', '/_emulator/workspaces', {});
    const id = String(other.body.id);
    const { client } = await connect(['--url', served.url, '--workspace', id]);
    await exerciseRefusals(client, id, 'default');
    await call(client, 'clock', { action: 'clock.advance', by: '3h' });
    const [there, here] = await Promise.all([jsonRequest(served.url, 'GET', `/_emulator/workspaces/${id}/clock`), jsonRequest(served.url, 'GET', '/_emulator/clock')]);
    expect(Date.parse(String(there.body.now)) - Date.parse(String(here.body.now))).toBeGreaterThanOrEqual(3 * 3_600_000 - 60_000);
    // The running emulator's own document.
    const doc = JSON.parse(((await client.readResource({ uri: 'emulator://openapi.json' })).contents[0] as { text: string }).text) as { servers: { url: string }[] };
    expect(doc.servers[0]!.url).toBe(served.url);
    // Its own workspace it may delete: the one action the first test leaves out, its answer checked as every other.
    expect(await call(client, 'workspace', { action: 'workspace.delete', workspaceId: id })).toMatchObject({ id, deleted: true });
  });

  it('writes nothing but the protocol on stdout, and exits 0 when the agent closes stdin', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--port', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    await stderrLine(child.stderr, /MCP on stdio/);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stdout).toBe('');
  });

  it('exit codes: 2 for an emulator --url does not reach or a workspace it lacks, 1 when the port is taken', async () => {
    const unreachable = await run(['mcp', '--url', `http://127.0.0.1:${await closedPort()}`], children);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toMatch(/cannot reach the emulator/);

    const served = await serve([], children);
    const missing = await run(['mcp', '--url', served.url, '--workspace', 'ws_nope'], children);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/workspace ws_nope/);

    const alone = await run(['mcp', '--workspace', 'ws_nope'], children);
    expect(alone.code).toBe(2);

    const busy = createServer();
    servers.push(busy);
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const taken = await run(['mcp', '--port', String(port), '--host', '127.0.0.1'], children);
    expect(taken.code).toBe(1);
    expect(taken.stdout).toBe('');
    expect(taken.stderr).toMatch(/EADDRINUSE|in use/);
  });
});
