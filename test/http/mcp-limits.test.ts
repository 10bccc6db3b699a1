import { describe, expect, it } from 'vitest';
import { createBody, expectError, harness, KEYS, type Harness } from '../support/harness.js';

/**
 * POST /_emulator/mcp takes 1 MB, as every other body, except a restore, which carries a
 * snapshot and takes what PUT /_emulator/snapshot takes: which one a message is, is read from
 * its bytes before they are parsed (a 30 MB argument once took seconds to parse and check).
 */
const MB = 1024 * 1024;
const call = (id: number, tool: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } });

function mcp(h: Harness, text: string) {
  return h.http().post('/_emulator/mcp').set('Content-Type', 'application/json').set('Accept', 'application/json, text/event-stream').send(text);
}

describe('the MCP endpoint and the size of a message', () => {
  it('refuses any message over 1 MB but a restore with 413 in the envelope; under 1 MB it answers', async () => {
    const h = harness();
    const big = JSON.stringify(call(1, 'scenario', { action: 'scenario.validate', body: { version: 1, rules: [], description: 'x'.repeat(MB) } }));
    const refused = await mcp(h, big);
    expectError(refused, 413, 'invalid_request', 'body_too_large');
    expect(refused.body.error.message).toBe('The body is larger than 1 MB; only a restore (tools/call of snapshot, action restore) takes more, up to 32 MB.');
    // Named as a restore, but by a key the parser would overwrite: still refused.
    const twice = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snapshot","arguments":{"action":"restore","action":"snapshot","body":{"x":"${'y'.repeat(MB)}"}}}}`;
    expectError(await mcp(h, twice), 413, 'invalid_request', 'body_too_large');
    expectError(await mcp(h, JSON.stringify([call(3, 'snapshot', { action: 'restore', body: { x: 'y'.repeat(MB) } })])), 413, 'invalid_request', 'body_too_large');
    const small = await mcp(h, JSON.stringify(call(4, 'scenario', { action: 'scenario.validate', body: { version: 1, rules: [], description: 'x'.repeat(1000) } })));
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body.result.content[0].text)).toMatchObject({ valid: true });
  });

  it('takes a restore over 1 MB, its action written before or after the snapshot', async () => {
    const h = harness();
    // A journal of 24 bodies of 60 KB: a snapshot of about 1.5 MB.
    for (let i = 0; i < 24; i++) expect((await h.as(KEYS.owner).post('/v1/onboardings', { ...createBody({ reference: `big-${i}` }), notes: 'n'.repeat(60 * 1024) })).status).toBe(422);
    // Taken through MCP, as an agent would: its live keys masked (a restore puts them back).
    const taken = await mcp(h, JSON.stringify(call(4, 'snapshot', { action: 'snapshot' })));
    const snapshot = JSON.parse(taken.body.result.content[0].text) as Record<string, unknown>;
    const text = JSON.stringify(snapshot);
    expect(text.length).toBeGreaterThan(1.2 * MB);
    for (const message of [
      JSON.stringify(call(5, 'snapshot', { action: 'restore', body: snapshot })),
      `{"params":{"arguments":{"body":${text},"action":"restore"},"name":"snapshot"},"id":6,"jsonrpc":"2.0","method":"tools/call"}`,
    ]) {
      const restored = await mcp(h, message);
      expect(restored.status).toBe(200);
      expect(restored.body.result.isError ?? false, restored.body.result.content[0].text).toBe(false);
      expect(JSON.parse(restored.body.result.content[0].text)).toMatchObject({ restored: true });
    }
  });
});
