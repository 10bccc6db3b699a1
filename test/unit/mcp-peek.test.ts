import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { peekCall } from '../../src/mcp/mcp.peek.js';

/**
 * The method, tool and action of an MCP message, read from its bytes without parsing them (a
 * message over 1 MB must be a restore): the same as JSON.parse finds, whatever the order of the
 * keys, their spacing and escapes, and whatever else the message holds.
 */

/** What JSON.parse says, as peekCall() reports it: strings only, a long one as ''. */
function parsed(text: string) {
  const name = (v: unknown) => (typeof v !== 'string' ? undefined : JSON.stringify(v).length - 2 > 256 ? '' : v);
  const m = JSON.parse(text) as unknown;
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return {};
  const { method, params } = m as { method?: unknown; params?: { name?: unknown; arguments?: { action?: unknown } } };
  const p = params !== null && typeof params === 'object' && !Array.isArray(params) ? params : undefined;
  const a = p?.arguments !== null && typeof p?.arguments === 'object' && !Array.isArray(p.arguments) ? p.arguments : undefined;
  return { ...(Object.hasOwn(m, 'method') ? { method: name(method) } : {}), ...(p ? { tool: name(p.name) } : {}), ...(a ? { action: name(a.action) } : {}) };
}

const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
const value = fc.oneof(fc.constantFrom('tools/call', 'snapshot', 'restore', 'scenario', 'x"y\\z', 'ré', '\u2028'), fc.jsonValue({ maxDepth: 2 }));

describe('peekCall', () => {
  it('reads what JSON.parse reads, in any order, among any other members', () => {
    const message = fc.record({ method: value, tool: value, action: value, body: fc.jsonValue({ maxDepth: 3 }), extra: fc.jsonValue({ maxDepth: 2 }) }).chain((m) =>
      fc.tuple(
        shuffled([['jsonrpc', '2.0'], ['id', 1], ['method', m.method], ['extra', m.extra]] as [string, unknown][]),
        shuffled([['name', m.tool], ['arguments', null], ['more', m.extra]] as [string, unknown][]),
        shuffled([['action', m.action], ['body', m.body]] as [string, unknown][]),
        fc.boolean(),
      ).map(([top, params, args, spaced]) => {
        const argsObject = Object.fromEntries(args);
        const paramsObject = Object.fromEntries(params.map(([k, v]) => [k, k === 'arguments' ? argsObject : v]));
        const whole = Object.fromEntries([...top, ['params', paramsObject]]);
        return JSON.stringify(whole, null, spaced ? 2 : undefined);
      }),
    );
    fc.assert(fc.property(message, (text) => {
      const peeked = peekCall(Buffer.from(text));
      const expected = parsed(text);
      for (const key of ['method', 'tool', 'action'] as const) expect(peeked[key]).toEqual(expected[key as keyof typeof expected]);
    }), { numRuns: 1_000 });
  });

  it('takes the last of a key given twice, and reads escaped names', () => {
    const text = '{"params":{"name":"scenario","arguments":{"action":"restore"}},"method":"tools/call","params":{"arguments":{"action":"restore","body":{}},"name":"snap\\u0073hot"}}';
    expect(peekCall(Buffer.from(text))).toEqual({ method: 'tools/call', tool: 'snapshot', action: 'restore' });
    expect(peekCall(Buffer.from('{"method":"tools/call","params":{"name":"snapshot","arguments":{"action":"restore"},"arguments":{"body":{}}}}'))).toEqual({ method: 'tools/call', tool: 'snapshot', action: undefined });
  });

  it('reads a batch, or anything that is no JSON object, as no call', () => {
    expect(peekCall(Buffer.from('[{"method":"tools/call"}]'))).toEqual({});
    expect(peekCall(Buffer.from('{"method":"tools/call","params":{"name":"snapshot"'))).toEqual({});
    expect(peekCall(Buffer.from('"restore"'))).toEqual({});
  });
});
