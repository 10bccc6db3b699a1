import { ApiError, errorBody, fail, type ErrorBody } from '../core/errors.js';
import type { ControlMethods } from '../control/control.client.js';
import { refuseLiveKeys, unmaskKeyTable, withLiveKeysMasked } from './mcp.keys.js';
import { buildTools, type McpTool, type ToolAction } from './mcp.tools.js';

/**
 * A tool call: the action and its arguments checked (which properties it takes, the ids its path
 * needs, the session's workspace, no live key), the control method run on the session's client
 * (in process or over HTTP, both giving the row its input as a request carries it and checking
 * it there, so a refusal is HTTP's), and its answer with live keys masked.
 */
export interface McpSession {
  /** The one workspace the session acts on. */
  workspaceId: string;
  /** The control methods bound to that workspace. */
  methods: ControlMethods;
}

/** `action`: the method that ran, by its client name, also when the call named an allowed action. */
export type ToolAnswer = { ok: true; action: string; value: unknown } | { ok: false; error: ErrorBody };

let tools: Map<string, McpTool> | undefined;
/** Made once, on first use: the rows do not change while the process runs. */
export const mcpTools = (): Map<string, McpTool> => (tools ??= new Map(buildTools().map((t) => [t.name, t])));

/** Arguments that name a workspace: only the session's own can be reached. */
const WORKSPACE_ARGS = new Set(['workspaceId']);

/** Answers trimmed to the session's workspace, where a method lists every workspace. */
const OWN_ONLY: Record<string, (value: unknown, workspaceId: string) => unknown> = {
  'workspace.list': (value, id) => (value as { id: string }[]).filter((w) => w.id === id),
};

function checkedAction(tool: McpTool, input: Record<string, unknown>): ToolAction {
  const name = input.action;
  if (name === undefined) throw fail('parameter_missing', `action is required: one of ${[...tool.actions.keys()].join(', ')}.`, 'action');
  const action = typeof name === 'string' ? tool.actions.get(tool.aliases.get(name) ?? name) : undefined;
  if (!action) throw fail('parameter_invalid', `action must be one of ${[...tool.actions.keys(), ...tool.aliases.keys()].join(', ')}.`, 'action');
  for (const prop of Object.keys(input)) {
    if (prop !== 'action' && !action.args.includes(prop)) {
      throw fail('parameter_unknown', `${action.name} takes no ${prop}; it takes ${action.args.length ? action.args.join(', ') : 'nothing besides action'}.`, prop);
    }
  }
  // The rest of the arguments the row checks itself, with HTTP's words.
  for (const prop of action.pathArgs) if (input[prop] === undefined) throw fail('parameter_missing', `${action.name} needs ${prop}.`, prop);
  return action;
}

function methodOf(methods: ControlMethods, name: string): (...args: unknown[]) => Promise<unknown> {
  let at: unknown = methods;
  for (const part of name.split('.')) at = (at as Record<string, unknown>)[part];
  return at as (...args: unknown[]) => Promise<unknown>;
}

/** Runs one tool call; a refusal is the emulator's error envelope, never a throw. */
export async function callTool(session: McpSession, toolName: string, input: Record<string, unknown> = {}, requestId = ''): Promise<ToolAnswer> {
  try {
    const tool = mcpTools().get(toolName);
    if (!tool) throw fail('parameter_invalid', `No tool ${toolName}; the tools are ${[...mcpTools().keys()].join(', ')}.`, 'name');
    const action = checkedAction(tool, input);
    refuseLiveKeys(input);
    for (const prop of action.args) {
      if (WORKSPACE_ARGS.has(prop) && input[prop] !== undefined && input[prop] !== session.workspaceId) {
        // Named as the emulator names a workspace it does not find, whoever asks.
        throw fail('workspace_not_found', `This MCP session is bound to workspace ${session.workspaceId}; connect to /_emulator/workspaces/${String(input[prop])}/mcp (or mcp --workspace) to act on another.`, 'workspace_id');
      }
    }
    // A snapshot the session took showed its live keys masked: a restore puts them back in its key table, and nowhere else.
    const given = action.name === 'restore' ? { ...input, body: unmaskKeyTable(input.body, (await session.methods.keys()).map((k) => k.key)) } : input;
    // With a state file, the answer waits for the write where every answer does: in the HTTP writer.
    const value = await methodOf(session.methods, action.name)(...action.args.map((prop) => given[prop]));
    const own = OWN_ONLY[action.name];
    return { ok: true, action: action.name, value: withLiveKeysMasked(own ? own(value, session.workspaceId) : value) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: withLiveKeysMasked(errorBody(err, requestId)) };
    throw err;
  }
}
