import { describe, expect, it } from 'vitest';
import { expectError, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * POST /_emulator/mcp is a control row: admitted as the others, its message answered by the
 * SDK's server and written by the adapter's one writer, as any answer. A request gets 200 and
 * its JSON-RPC answer, a notification 202 and no body (as the streamable HTTP transport answers);
 * what is no MCP message, or names a protocol version the server does not speak, is refused in
 * the envelope.
 */
const ACCEPT = 'application/json, text/event-stream';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

function mcp(h: Harness, message: unknown, headers: Record<string, string> = {}, path = '/_emulator/mcp') {
  const req = h.http().post(path).set('Content-Type', 'application/json').set('Accept', ACCEPT);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send(JSON.stringify(message));
}

describe('the MCP row', () => {
  it('answers a request with 200 and its JSON-RPC answer, a notification with 202 and no body', async () => {
    const h = harness();
    const init = await mcp(h, initialize);
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toMatch(/^application\/json/);
    expect(init.headers['request-id']).toMatch(/^req_/);
    expect(init.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'onboarding-emulator' } } });

    const note = await mcp(h, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(202);
    expect(note.text).toBe('');
    expect(note.headers['content-type']).toBeUndefined();

    // A method the server does not have: its JSON-RPC error, in a 200, as the SDK's transport answered it.
    const unknown = await mcp(h, { jsonrpc: '2.0', id: 'x', method: 'prompts/nope', params: {} });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 'x', error: { code: -32601 } });
  });

  it('refuses what is no MCP message in the envelope', async () => {
    const h = harness();
    expectError(await mcp(h, {}), 422, 'invalid_request', 'parameter_missing', 'jsonrpc');
    expectError(await mcp(h, { ...toolsList, jsonrpc: '1.0' }), 422, 'invalid_request', 'parameter_invalid', 'jsonrpc');
    // Neither a request, a notification nor a response: no answer would ever come.
    const neither = expectError(await mcp(h, { jsonrpc: '2.0', id: 3 }), 422, 'invalid_request', 'parameter_invalid');
    expect(neither.message).toContain('JSON-RPC 2.0 message');
    expectError(await mcp(h, [toolsList]), 400, 'invalid_request', 'body_not_object');
  });

  it('refuses an MCP-Protocol-Version it does not speak with 400, and serves a supported one, none, or any on initialize', async () => {
    const h = harness();
    const refused = expectError(await mcp(h, toolsList, { 'MCP-Protocol-Version': '1999-01-01' }), 400, 'invalid_request', 'request_malformed', 'MCP-Protocol-Version');
    expect(refused.message).toContain('2025-06-18');
    for (const headers of [{ 'MCP-Protocol-Version': '2025-06-18' }, {}] as Record<string, string>[]) {
      const res = await mcp(h, toolsList, headers);
      expect(res.status).toBe(200);
      expect(res.body.result.tools.length).toBeGreaterThan(5);
    }
    // initialize is where the version is agreed: the header is not held against it.
    expect((await mcp(h, initialize, { 'MCP-Protocol-Version': '1999-01-01' })).status).toBe(200);
  });

  it('answers in JSON whatever Accept names', async () => {
    const h = harness();
    for (const accept of ['application/json', '*/*']) {
      const res = await mcp(h, toolsList, { Accept: accept });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 2, result: { tools: expect.any(Array) as unknown } });
    }
  });

  it('refuses a live key before its workspace is looked for, and finds a workspace by path as every control row', async () => {
    const h = harness();
    expectError(await mcp(h, toolsList, { Authorization: `Bearer ${KEYS.live}` }, '/_emulator/workspaces/ws_nope/mcp'), 403, 'permission_error', 'sandbox_test_keys_only');
    expectError(await mcp(h, toolsList, {}, '/_emulator/workspaces/ws_nope/mcp'), 404, 'not_found', 'workspace_not_found');
    expect((await mcp(h, toolsList, {}, '/_emulator/workspaces/default/mcp')).status).toBe(200);
  });

  it('with a state file, holds every answer until the commit, a 202 too, and a failed one is 500 state_not_written', async () => {
    let failing = false;
    let commits = 0;
    const commit = () => {
      commits++;
      return failing ? Promise.reject(new Error('disk full')) : Promise.resolve();
    };
    const h = harness({}, { commit });
    expect((await mcp(h, toolsList)).status).toBe(200);
    expect((await mcp(h, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect(commits).toBe(2);
    failing = true;
    expectError(await mcp(h, toolsList), 500, 'api_error', 'state_not_written');
    expectError(await mcp(h, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'clock', arguments: { action: 'clock.now' } } }), 500, 'api_error', 'state_not_written');
  });
});
