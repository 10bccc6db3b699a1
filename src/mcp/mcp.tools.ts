import type { JsonSchema } from '../core/schema.js';
import { clientCalls, pathParams, type ClientCall, type ControlRoute } from '../operations/control-row.js';
import { controlRows } from '../control/control.table.js';
import { ACTION_NAMES } from '../control/inspect.schemas.js';
import { annotationsOf, effectMark, effectOf, outputSchemaOf, type ActionEffect, type ToolAnnotations, type ToolOutputSchema } from './mcp.contract.js';

/**
 * The MCP tools, made from the control rows: each row's client methods (`client` in the row)
 * grouped by the first segment of their name, a group joined to a tool by TOOL_OF_GROUP. A tool
 * takes `action` (one of its methods, by its client name) and the method's arguments as named
 * properties, its input schema assembled from the rows' own schemas, its output schema and hints
 * from their answers and methods (mcp.contract.ts); a call runs the method (src/mcp/mcp.call.ts).
 * An action an onboarding's `allowed_actions` names (`verify-identity`) is an action of its tool
 * by that name too. A row added later with a client method is a tool action from then on:
 * a group the table does not name is a tool of its own.
 */
interface ToolGroup {
  tool: string;
  about: string;
}

/** Related groups share a tool, to keep the list short for an agent (at most 15 tools). */
const TOOL_OF_GROUP: Record<string, ToolGroup> = {
  workspace: { tool: 'workspace', about: "The session's workspace: describe, reset, its keys (test keys; live ones masked), and other isolated workspaces." },
  keys: { tool: 'workspace', about: '' },
  snapshot: { tool: 'snapshot', about: 'The whole workspace as one JSON document, and restoring one.' },
  restore: { tool: 'snapshot', about: '' },
  clock: { tool: 'clock', about: 'The workspace clock: read it, advance it or set it, firing every due timer (webhook retries, expiries, scenario steps).' },
  onboardings: { tool: 'onboardings', about: "Onboardings as the dashboard, the employee, the back office and payroll see them: list, inspect (with the allowed actions now), create, and play each step of the life cycle; the intercepted e-mails (outbox) with their links and one-time codes." },
  outbox: { tool: 'onboardings', about: '' },
  scenario: { tool: 'scenario', about: 'Scenarios: load, read, clear or validate one, and its report (each expectation passed, failed or pending).' },
  requests: { tool: 'requests', about: 'The recorded /v1 requests of the workspace: find them, verify how many match, clear the journal.' },
  webhooks: { tool: 'webhooks', about: 'Webhook addresses with their deliveries and attempts; retry a delivery, enable a disabled address.' },
  deliveries: { tool: 'webhooks', about: '' },
  faults: { tool: 'faults', about: 'Injected faults: request faults on /v1 (latency, 429, 500, dropped or slow answers, payroll down) and delivery faults on webhook messages.' },
  deliveryFaults: { tool: 'faults', about: '' },
  receiverCheck: { tool: 'receiver_check', about: 'Grade a webhook receiver: real signed messages, good and bad, and a verdict on each answer.' },
  receiverCheckCtrf: { tool: 'receiver_check', about: '' },
  stateMachine: { tool: 'state_machine', about: 'The onboarding life cycle as its transition table, with a Mermaid diagram.' },
  catalog: { tool: 'catalog', about: 'The sandbox catalogue: every magic input (e-mail addresses, test values, payroll failures) and control action, with its outcome and an example; the employee form\'s test values.' },
  testValues: { tool: 'catalog', about: '' },
  waitFor: { tool: 'wait', about: 'Wait, bounded in time, until the workspace reaches a condition.' },
  trigger: { tool: 'trigger', about: 'Make one webhook event of a type happen, through the life cycle (a new onboarding, or one named, played forward), delivered and signed like any other; ping goes to every enabled test address. The event catalog: every type, when it is sent, its schema and a signed sample.' },
  eventCatalog: { tool: 'trigger', about: '' },
};

/**
 * Groups of client methods that are no tool. Relays: a relay is a process beside the receiver
 * (docs/decisions.md); an agent's open would hold the workspace's deliveries for claims that
 * long-poll and hand out signed messages, which no tool call can carry on to a receiver.
 */
export const NOT_TOOLS: ReadonlySet<string> = new Set(['relays']);

/** A schema longer than this is shown by its name only: an agent reads the tool list whole. Calls are still checked against the full schema. */
const SCHEMA_TEXT_LIMIT = 4_000;

export interface ToolAction {
  /** The client method's name, dotted: the value of `action`. */
  name: string;
  row: ControlRoute<never>;
  call: ClientCall;
  /** The tool's properties this action takes, in the order of the method's arguments. */
  args: string[];
  /** Those it cannot do without. */
  required: string[];
  /**
   * Those that fill the row's path (`id`): checked by the call, as the row cannot tell one left
   * out (it would look up "undefined"). The rest go to the row, which checks them as over HTTP.
   */
  pathArgs: string[];
  effect: ActionEffect;
}

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  outputSchema: ToolOutputSchema;
  annotations: ToolAnnotations;
  actions: Map<string, ToolAction>;
  /** Other names of actions (an onboarding's allowed actions), each to its action's name. */
  aliases: Map<string, string>;
}

const propertiesOf = (schema: unknown): Record<string, JsonSchema> => ((schema as { properties?: Record<string, JsonSchema> } | undefined)?.properties ?? {});
const requiredOf = (schema: unknown): readonly string[] => ((schema as { required?: string[] } | undefined)?.required ?? []);

/** Plain JSON (the builder's run-time marks are symbols), shortened when too long to read. */
function shown(schema: unknown, what: string): JsonSchema {
  const plain = JSON.parse(JSON.stringify(schema ?? { type: 'object' })) as JsonSchema;
  if (JSON.stringify(plain).length <= SCHEMA_TEXT_LIMIT) return plain;
  const name = typeof plain.title === 'string' ? plain.title : what;
  return { type: 'object', description: `${name}: a large document, checked against its full schema when called (see the openapi resource for it)` };
}

/** What one method takes: a tool property per argument, with its schema. */
function argumentsOf(row: ControlRoute<never>, call: ClientCall): { args: [string, JsonSchema][]; required: string[] } {
  if (call.args === 'body') {
    const required = requiredOf(row.body).length > 0 ? ['body'] : [];
    return { args: [['body', shown(row.body, 'body')]], required };
  }
  if (call.args === 'query') return { args: [['query', shown(row.query, 'query')]], required: [] };
  const params = pathParams(row);
  const args: [string, JsonSchema][] = [];
  const required: string[] = [];
  for (const name of call.args ?? []) {
    if (params.includes(name)) {
      args.push([name, shown(propertiesOf(row.params)[name] ?? { type: 'string' }, name)]);
      required.push(name);
    } else if (name in propertiesOf(row.query)) {
      args.push([name, shown(propertiesOf(row.query)[name], name)]);
      if (requiredOf(row.query).includes(name)) required.push(name);
    } else {
      args.push([name, shown(propertiesOf(row.body)[name] ?? {}, name)]);
      if (requiredOf(row.body).includes(name)) required.push(name);
    }
  }
  return { args, required };
}

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tool whose action a client method is (restore: snapshot). */
export function toolOfMethod(method: string): string {
  const first = method.split('.')[0]!;
  return TOOL_OF_GROUP[first]?.tool ?? snakeCase(first);
}

const ALLOWED_ACTIONS: ReadonlySet<string> = new Set(ACTION_NAMES);
const ONBOARDING_ACTION_PATH = /^\/_emulator\/onboardings\/:id\/(.+)$/;

/** The name an onboarding's allowed_actions give this row's action (the rest of its path), if any. */
function allowedActionName(row: ControlRoute<never>): string | undefined {
  const suffix = ONBOARDING_ACTION_PATH.exec(row.path)?.[1];
  return row.method === 'POST' && suffix !== undefined && ALLOWED_ACTIONS.has(suffix) ? suffix : undefined;
}

/** One property of a tool, from the schemas the actions taking it give it. */
function mergedProperty(uses: { action: string; schema: JsonSchema }[]): JsonSchema {
  const distinct = [...new Map(uses.map((u) => [JSON.stringify(u.schema), u.schema])).values()];
  const actions = uses.map((u) => u.action).join(', ');
  if (distinct.length === 1) {
    const one = distinct[0]!;
    const about = typeof one.description === 'string' ? `${one.description} ` : '';
    return { ...one, description: `${about}(${actions})` };
  }
  return { anyOf: distinct, description: `by action: ${uses.map((u) => u.action).join(', ')}` };
}

const ALIASES_NOTE = "\nAn onboarding's allowed_actions name its actions as after `=` (`{\"action\": \"verify-identity\", \"id\": ...}`): call them by either name.";

/** The tools, in the order their first row comes in the control table. */
export function buildTools(rows: readonly ControlRoute<never>[] = controlRows as ControlRoute<never>[]): McpTool[] {
  const tools = new Map<string, { group: ToolGroup; lines: string[]; actions: Map<string, ToolAction>; aliases: Map<string, string>; props: Map<string, { action: string; schema: JsonSchema }[]> }>();
  for (const row of rows) {
    for (const call of clientCalls(row)) {
      const first = call.name.split('.')[0]!;
      if (NOT_TOOLS.has(first)) continue;
      const group = TOOL_OF_GROUP[first] ?? { tool: toolOfMethod(call.name), about: row.summary };
      const tool = tools.get(group.tool) ?? tools.set(group.tool, { group, lines: [], actions: new Map(), aliases: new Map(), props: new Map() }).get(group.tool)!;
      if (group.about && !tool.group.about) tool.group = group;
      const { args, required } = argumentsOf(row, call);
      const effect = effectOf(row);
      tool.actions.set(call.name, { name: call.name, row, call, args: args.map(([n]) => n), required, pathArgs: required.filter((n) => pathParams(row).includes(n)), effect });
      const alias = allowedActionName(row);
      if (alias !== undefined) tool.aliases.set(alias, call.name);
      for (const [name, schema] of args) (tool.props.get(name) ?? tool.props.set(name, []).get(name)!).push({ action: call.name, schema });
      const shownArgs = args.map(([n]) => (required.includes(n) ? n : `${n}?`)).join(', ');
      tool.lines.push(`- ${call.name}(${shownArgs})${alias === undefined ? '' : ` = ${alias}`}${effectMark(effect)}: ${row.summary}`);
    }
  }
  return [...tools].map(([name, t]) => {
    const annotations = annotationsOf([...t.actions.values()].map((a) => a.effect));
    return {
      name,
      description: `${t.group.about}\n${annotations.readOnlyHint ? 'Actions (each only reads)' : 'Actions (unmarked ones only read)'}:\n${t.lines.join('\n')}${t.aliases.size ? ALIASES_NOTE : ''}`,
      inputSchema: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: [...t.actions.keys(), ...t.aliases.keys()], description: t.aliases.size ? 'the control method to run (its name in the in-process client), or the name an allowed action gives it' : 'the control method to run (its name in the in-process client)' },
          ...Object.fromEntries([...t.props].map(([prop, uses]) => [prop, mergedProperty(uses)])),
        },
        required: ['action'],
        additionalProperties: false,
      },
      outputSchema: outputSchemaOf([...t.actions.values()]),
      annotations,
      actions: t.actions,
      aliases: t.aliases,
    };
  });
}
