import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { localMethods } from '../../src/control/control.local.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { callTool } from '../../src/mcp/mcp.call.js';
import { KEYS } from '../support/harness.js';
import { serve } from '../support/serve.js';

/**
 * The MCP tools without a transport (the function both transports call, on an in-process
 * emulator), and the SDK's cost: not loaded by a normal start of the CLI or of the package,
 * loaded by the first MCP request.
 */
const children: ChildProcess[] = [];
const emulators: InProcessEmulator[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const em of emulators.splice(0)) await em.close();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

const HOOK = fileURLToPath(new URL('../support/module-log.mjs', import.meta.url));
const INDEX = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** A log of the SDK's modules a child loads, and the environment that makes the child write it. */
function sdkLog(): { env: Record<string, string>; loaded(): string[] } {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-modules-'));
  folders.push(folder);
  const file = join(folder, 'modules.log');
  return {
    env: { NODE_OPTIONS: `--import=${HOOK}`, MODULE_LOG: file, MODULE_LOG_MATCH: '@modelcontextprotocol' },
    loaded: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []),
  };
}

const initialize = (url: string) =>
  fetch(`${url}/_emulator/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });

describe('the MCP tools in process', () => {
  it('callTool runs a control method on the bound workspace and answers refusals as the envelope', async () => {
    const em = createEmulator();
    emulators.push(em);
    const session = { workspaceId: 'default', methods: localMethods(em.emulator, 'default', () => ({ requestId: 'req_test', baseUrl: 'http://127.0.0.1', head: false })) };
    const before = Date.parse(await em.clock.now());
    const moved = await callTool(session, 'clock', { action: 'clock.advance', by: '2h' });
    expect(moved.ok).toBe(true);
    expect(Date.parse(await em.clock.now()) - before).toBeGreaterThanOrEqual(7_200_000);
    expect(await callTool(session, 'clock', { action: 'clock.set', now: 'yesterday' }, 'req_test')).toEqual({
      ok: false,
      error: { error: expect.objectContaining({ type: 'invalid_request', code: 'parameter_invalid', param: 'now', request_id: 'req_test' }) as unknown },
    });
    expect(await callTool(session, 'nope', {})).toMatchObject({ ok: false, error: { error: { code: 'parameter_invalid', param: 'name' } } });
    const keys = await callTool(session, 'workspace', { action: 'keys' });
    expect(JSON.stringify(keys)).not.toContain(KEYS.live);
  });
});

describe('the SDK is loaded on first use only', () => {
  it('serve: not after a start and ordinary requests; loaded by the first POST /_emulator/mcp', async () => {
    const log = sdkLog();
    const served = await serve(['--log-level', 'warn'], children, log.env);
    expect((await fetch(`${served.url}/_emulator/health`)).status).toBe(200);
    expect((await fetch(`${served.url}/v1/organization`, { headers: { Authorization: `Bearer ${KEYS.owner}` } })).status).toBe(200);
    expect((await fetch(`${served.url}/_emulator/clock/advance`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"by":"1h"}' })).status).toBe(200);
    expect(log.loaded()).toEqual([]);
    const res = await initialize(served.url);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: { serverInfo: { name: 'onboarding-emulator' } } });
    // The SDK's server package (2.x), and nothing of the 1.x SDK the tests' own clients use.
    expect(log.loaded().some((url) => url.includes('/@modelcontextprotocol/server/dist/index.mjs'))).toBe(true);
    expect(log.loaded().filter((url) => url.includes('/@modelcontextprotocol/sdk/'))).toEqual([]);
  });

  it('the package: createEmulator() and start() load none of it', async () => {
    const log = sdkLog();
    const script = `import { createEmulator } from ${JSON.stringify(INDEX)};
const em = createEmulator(); const { url } = await em.start(0, '127.0.0.1');
const res = await fetch(url + '/_emulator/health'); await em.close(); process.stdout.write(String(res.status));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...log.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, out }).toEqual({ code: 0, out: '200' });
    expect(log.loaded()).toEqual([]);
  });
});
