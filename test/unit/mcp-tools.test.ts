import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES } from '../../src/control/inspect.schemas.js';
import { makeAjv } from '../../src/core/ajv.js';
import { Type } from '../../src/core/schema.js';
import { clientCalls, defineControlRoute, type ControlRoute } from '../../src/operations/control-row.js';
import { controlRows } from '../../src/control/control.table.js';
import { ok } from '../../src/operations/reply.js';
import { buildTools, NOT_TOOLS, type McpTool } from '../../src/mcp/mcp.tools.js';

/**
 * The MCP tools are made from the control rows: every client method of every row is an action
 * of one tool, a row added later is one too without a change to the MCP code, and docs/mcp.md
 * lists the tools as the code makes them.
 */
const rows = controlRows as ControlRoute<never>[];
const actionsOf = (tools: McpTool[]) => tools.flatMap((t) => [...t.actions.keys()].map((a) => [a, t.name] as const));

/** The tool list of docs/mcp.md, between its markers, as the code makes it. */
function toolsMarkdown(tools: McpTool[]): string {
  const lines = ['| tool | hints | actions |', '| --- | --- | --- |'];
  for (const t of tools) {
    const aliasOf = new Map([...t.aliases].map(([alias, name]) => [name, alias]));
    const { readOnlyHint, destructiveHint, idempotentHint } = t.annotations;
    const hints = [readOnlyHint ? 'read-only' : destructiveHint ? 'destructive' : 'writes', ...(idempotentHint && !readOnlyHint ? ['idempotent'] : [])].join(', ');
    const actions = [...t.actions.values()].map((a) => `\`${a.name}(${a.args.map((n) => (a.required.includes(n) ? n : `${n}?`)).join(', ')})\`${aliasOf.has(a.name) ? ` = \`${aliasOf.get(a.name)}\`` : ''}`);
    lines.push(`| \`${t.name}\` | ${hints} | ${actions.join(', ')} |`);
  }
  return lines.join('\n');
}

describe('MCP tools from the control rows', () => {
  const tools = buildTools();

  it('reach every client method of every row but the groups left out, each through exactly one tool, at most 15 tools', () => {
    const all = rows.flatMap((r) => clientCalls(r).map((c) => c.name));
    const methods = all.filter((m) => !NOT_TOOLS.has(m.split('.')[0]!));
    expect(methods.length).toBeGreaterThan(40);
    // The relay's methods are client methods, and no tool's action.
    expect(all.filter((m) => m.startsWith('relays.')).sort()).toEqual(['relays.claim', 'relays.close', 'relays.list', 'relays.open', 'relays.report']);
    expect([...NOT_TOOLS]).toEqual(['relays']);
    const reached = actionsOf(tools);
    expect(reached.map(([a]) => a).sort()).toEqual([...methods].sort());
    expect(new Set(reached.map(([a]) => a)).size).toBe(reached.length);
    expect(tools.length).toBeLessThanOrEqual(15);
  });

  it('take each method\'s arguments as named properties, with the schemas of its row', () => {
    for (const tool of tools) {
      const { properties, required, additionalProperties } = tool.inputSchema;
      expect(additionalProperties).toBe(false);
      expect(required).toEqual(['action']);
      // Some clients refuse a tool whose input schema branches at its top.
      expect(Object.keys(tool.inputSchema).sort()).toEqual(['additionalProperties', 'properties', 'required', 'type']);
      expect((properties.action as { enum: string[] }).enum).toEqual([...tool.actions.keys(), ...tool.aliases.keys()]);
      for (const action of tool.actions.values()) {
        for (const arg of action.args) expect(properties, `${tool.name} ${action.name} ${arg}`).toHaveProperty(arg);
        const { call } = action;
        expect(action.args).toEqual(call.args === 'body' ? ['body'] : call.args === 'query' ? ['query'] : [...(call.args ?? [])]);
      }
    }
    const clock = tools.find((t) => t.name === 'clock')!;
    expect(clock.actions.get('clock.advance')!.required).toEqual(['by']);
    expect(clock.inputSchema.properties.by).toMatchObject({ description: expect.stringContaining('(clock.advance)') });
    const faults = tools.find((t) => t.name === 'faults')!;
    expect((faults.inputSchema.properties.body as { anyOf?: { title?: string }[] }).anyOf?.map((s) => s.title)).toEqual(['CreateFaultRequest', 'CreateDeliveryFaultRequest']);
    // An agent reads the list whole: it stays short.
    expect(JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length).toBeLessThan(40_000);
  });

  it('take in a row added later (a wait, a new group) with no change to the MCP code', () => {
    const wait = defineControlRoute({
      kind: 'control', perWorkspace: true, tag: 'Control', method: 'GET', path: '/_emulator/wait', operationId: 'waitFor', summary: 'Wait until a condition holds',
      query: Type.Object({ onboarding_id: Type.String(), status: Type.String(), timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })) }),
      responses: { 200: { description: 'Reached' } },
      client: { name: 'waitFor', args: ['onboarding_id', 'status', 'timeout_ms'] },
      handle: () => ok({}),
    }) as ControlRoute<never>;
    const fresh = defineControlRoute({
      kind: 'control', perWorkspace: true, tag: 'Control', method: 'POST', path: '/_emulator/things', operationId: 'addThing', summary: 'Add a thing',
      body: Type.Object({ name: Type.String() }),
      responses: { 201: { description: 'Added' } },
      client: { name: 'things.add', args: 'body' },
      handle: () => ok({}, 201),
    }) as ControlRoute<never>;
    const more = buildTools([...rows, wait, fresh]);
    expect(more.length).toBeLessThanOrEqual(15);
    const waitTool = more.find((t) => t.actions.has('waitFor'))!;
    expect(waitTool.name).toBe('wait');
    expect(waitTool.actions.get('waitFor')!.required).toEqual(['onboarding_id', 'status']);
    expect(waitTool.inputSchema.properties.timeout_ms).toMatchObject({ type: 'integer', minimum: 1 });
    const things = more.find((t) => t.actions.has('things.add'))!;
    expect(things.name).toBe('things');
    expect(things.description).toContain('Add a thing');
    expect(things.inputSchema.properties.body).toMatchObject({ type: 'object', required: ['name'] });
  });

  it("take an onboarding's allowed actions by their own names, each the method of its row", () => {
    const onboardings = tools.find((t) => t.name === 'onboardings')!;
    expect([...onboardings.aliases.keys()].sort()).toEqual([...ACTION_NAMES].sort());
    for (const [alias, name] of onboardings.aliases) expect(onboardings.actions.get(name)!.row.path).toBe(`/_emulator/onboardings/:id/${alias}`);
    expect(onboardings.aliases.get('verify-identity')).toBe('onboardings.verifyIdentity');
    expect(onboardings.description).toContain('- onboardings.verifyIdentity(id, user_id?) = verify-identity [writes]: ');
    expect(tools.filter((t) => t.aliases.size > 0).map((t) => t.name)).toEqual(['onboardings']);
  });

  it('declare an outputSchema per tool, {action, result}, result held to the answer of the action named', () => {
    const ajv = makeAjv(false);
    for (const tool of tools) {
      expect(tool.outputSchema).toMatchObject({ type: 'object', required: ['action', 'result'], additionalProperties: false });
      expect((tool.outputSchema.properties.action as { enum: string[] }).enum).toEqual([...tool.actions.keys()]);
      ajv.compile(tool.outputSchema);
    }
    const clock = ajv.compile(tools.find((t) => t.name === 'clock')!.outputSchema);
    const state = { now: '2026-01-01T00:00:00.000Z', mode: 'frozen', timers: 0, next: null, fired: [] };
    expect(clock({ action: 'clock.now', result: '2026-01-01T00:00:00.000Z' })).toBe(true);
    // clock.now answers the time alone, clock.state the object: neither passes for the other.
    expect(clock({ action: 'clock.now', result: state })).toBe(false);
    expect(clock({ action: 'clock.state', result: '2026-01-01T00:00:00.000Z' })).toBe(false);
    expect(clock({ action: 'clock.rewind', result: '2026-01-01T00:00:00.000Z' })).toBe(false);
    expect(clock({ result: '2026-01-01T00:00:00.000Z' })).toBe(false);
    // The list a workspace's keys are: an array, not the row's {data} around it.
    const workspace = ajv.compile(tools.find((t) => t.name === 'workspace')!.outputSchema);
    expect(workspace({ action: 'keys', result: [] })).toBe(true);
    expect(workspace({ action: 'keys', result: { data: [] } })).toBe(false);
    // An answer too long to list whole (an onboarding) is held to its outline: its required properties and their types.
    const onboardings = ajv.compile(tools.find((t) => t.name === 'onboardings')!.outputSchema);
    expect(onboardings({ action: 'onboardings.cancel', result: { onboarding: {} } })).toBe(true);
    expect(onboardings({ action: 'onboardings.cancel', result: {} })).toBe(false);
    expect(onboardings({ action: 'onboardings.cancel', result: { onboarding: 'onb_1' } })).toBe(false);
  });

  it('carry the hints of what their actions do: GET reads; DELETE, PUT and a reset destroy; a mixed tool the conservative ones', () => {
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['state_machine', 'wait', 'postman']) expect(hints[name], name).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    for (const name of ['workspace', 'faults', 'scenario', 'requests']) expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(hints.snapshot).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    for (const name of ['clock', 'onboardings', 'webhooks', 'trigger', 'receiver_check']) expect(hints[name], name).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    for (const tool of tools) {
      for (const a of tool.actions.values()) {
        const mark = a.effect.destructive ? '[destructive]' : a.effect.readOnly ? undefined : '[writes]';
        const line = tool.description.split('\n').find((l) => l.startsWith(`- ${a.name}(`))!;
        if (mark) expect(line, a.name).toContain(mark);
        else expect(line, a.name).not.toMatch(/\[(writes|destructive)\]/);
      }
    }
  });

  it('docs/mcp.md lists the tools and their actions as the code makes them', () => {
    const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const block = /<!-- tools:start -->\n([\s\S]*?)\n<!-- tools:end -->/.exec(doc)?.[1];
    expect(block, `docs/mcp.md between its tools markers:\n${toolsMarkdown(tools)}`).toBe(toolsMarkdown(tools));
  });
});
