import type { ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import { ACTION_NAMES } from '../../src/control/inspect.schemas.js';
import { makeAjv } from '../../src/core/ajv.js';
import { SECRET, gradedReceiver, type GradedReceiver } from './graded-receivers.js';
import { createBody, KEYS } from './harness.js';
import type { Receiver } from './receiver.js';
import { MAGIC_ADDRESSES } from '../../src/scenarios/scenario.magic.js';

/**
 * The MCP tools driven through the SDK's own client, the same way over every transport: each
 * tool called with an effect checked through the emulator's /v1 API or another tool.
 */
interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: { action?: unknown; result?: unknown };
}

/** What the helpers ask of a client: the 1.x SDK's Client and the 2.x client package's alike. */
interface McpClient {
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
}
type Client = McpClient;

interface ListedTool {
  name: string;
  description?: string;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The methods an outputSchema's `action` names. */
const actionsOf = (tool: ListedTool): string[] => (tool.outputSchema as { properties?: { action?: { enum?: string[] } } } | undefined)?.properties?.action?.enum ?? [];

/** Per client: its tools as listed (once), a validator of each tool's outputSchema, and the actions whose answers were checked. */
const seen = new WeakMap<Client, { tools: Promise<Map<string, { tool: ListedTool; valid: ValidateFunction }>>; checked: Set<string> }>();
const ajv = makeAjv(false);

function sessionOf(client: Client) {
  let session = seen.get(client);
  if (!session) {
    const tools = client.listTools().then(({ tools: listed }) => new Map(listed.map((t) => [t.name, { tool: t as ListedTool, valid: ajv.compile(t.outputSchema ?? {}) }])));
    seen.set(client, (session = { tools, checked: new Set() }));
  }
  return session;
}

/** `tool action` of every answer this client's calls checked against its tool's outputSchema. */
const checkedAnswers = (client: Client): ReadonlySet<string> => sessionOf(client).checked;

/**
 * An answer holds its structured content to the tool's outputSchema (ajv, as a client would):
 * `{action, result}`, `action` the method that ran, `result` the same JSON as the text.
 */
async function checkStructured(client: Client, name: string, args: Record<string, unknown>, result: ToolResult): Promise<void> {
  const session = sessionOf(client);
  const listed = (await session.tools).get(name);
  expect(listed, `tool ${name} is listed`).toBeDefined();
  const structured = result.structuredContent;
  expect(structured, `${name} ${String(args.action)} answers structuredContent`).toBeDefined();
  const ok = listed!.valid(structured);
  expect(ok, `${name} ${String(args.action)}: ${JSON.stringify(listed!.valid.errors?.slice(0, 3))}`).toBe(true);
  expect(structured!.result).toEqual(JSON.parse(textOf(result)));
  const methods = actionsOf(listed!.tool);
  // Named by its method, the answer names it too; named by an allowed action, it names the method behind it.
  if (methods.includes(String(args.action))) expect(structured!.action).toBe(args.action);
  else expect(methods).toContain(structured!.action);
  session.checked.add(`${name} ${String(structured!.action)}`);
}

const textOf = (result: unknown): string => {
  const r = result as ToolResult;
  expect(r.content[0]?.type).toBe('text');
  return r.content[0]!.text!;
};

/** A tool's answer, parsed; fails the test on a refusal. */
export async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  expect((result as ToolResult).isError ?? false, textOf(result)).toBe(false);
  await checkStructured(client, name, args, result as ToolResult);
  return JSON.parse(textOf(result)) as T;
}

/** A refusal: isError, with the emulator's error envelope as its text. */
async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<{ type: string; code: string; message: string; param?: string }> {
  const result = await client.callTool({ name, arguments: args });
  expect((result as ToolResult).isError, textOf(result)).toBe(true);
  const body = JSON.parse(textOf(result)) as { error: { type: string; code: string; message: string; param?: string } };
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}

const v1 = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEYS.owner}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

interface Onboarding {
  id: string;
  status: string;
  allowed_actions: { action: string }[];
}

/**
 * Every tool at least once, on a fresh default workspace of the emulator at `base`. `receiver`
 * takes webhook messages; returns the receivers it opened, for the caller to close.
 */
export async function exerciseEveryTool(client: Client, base: string, receiver: Receiver): Promise<{ called: Set<string>; open: GradedReceiver[] }> {
  const called = new Set<string>();
  const use = <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) => {
    called.add(name);
    return call<T>(client, name, args);
  };

  // workspace: the session's own, its test keys whole and its live key masked.
  const keys = await use<{ key: string; environment: string }[]>('workspace', { action: 'keys' });
  expect(keys.map((k) => k.key)).toContain(KEYS.owner);
  expect(JSON.stringify(keys)).not.toContain(KEYS.live);
  expect(keys.filter((k) => k.environment === 'live').map((k) => k.key)).toEqual(['hrs_live_…_owner']);
  expect((await use<{ id: string }[]>('workspace', { action: 'workspace.list' })).map((w) => w.id)).toEqual(['default']);

  // snapshot: taken now, restored after an onboarding was created, which is gone again.
  const snapshot = await use('snapshot', { action: 'snapshot' });
  expect(JSON.stringify(snapshot)).not.toContain(KEYS.live);

  // onboardings: created by the dashboard, the invitation read from the outbox, opened with its code.
  const created = await use<{ id: string; status: string }>('onboardings', { action: 'onboardings.create', body: { ...createBody({ options: { send_invitation: true } }), organization_id: 'org_acme' } });
  expect(created.status).toBe('pending_employee');
  const [mail] = await use<{ code: string | null }[]>('onboardings', { action: 'outbox', query: { onboarding_id: created.id } });
  await use('onboardings', { action: 'onboardings.employeeOpen', id: created.id, code: mail!.code });
  const inspected = await use<Onboarding>('onboardings', { action: 'onboardings.inspect', id: created.id });
  expect(inspected.allowed_actions.map((a) => a.action)).toContain('employee/submit');
  const submitted = await use<{ onboarding: { status: string } }>('onboardings', { action: 'onboardings.employeeSubmit', id: created.id });
  expect(submitted.onboarding.status).not.toBe('pending_employee');
  expect((await (await v1(base, 'GET', `/v1/onboardings/${created.id}`)).json()) as { status: string }).toMatchObject({ status: submitted.onboarding.status });

  const restored = await use('snapshot', { action: 'restore', body: snapshot });
  expect(restored).toBeTruthy();
  expect((await v1(base, 'GET', `/v1/onboardings/${created.id}`)).status).toBe(404);
  // The live key the snapshot showed masked was put back as it was.
  expect((await v1(base, 'GET', '/v1/onboardings')).status).toBe(200);

  // clock: an hour later.
  const before = Date.parse(await use<string>('clock', { action: 'clock.now' }));
  const moved = await use<{ now: string }>('clock', { action: 'clock.advance', by: '1h' });
  expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(3_600_000);

  // faults: the next /v1 request fails with a 500, and the fault is used up.
  await use('faults', { action: 'faults.add', body: { kind: 'error', path: '/v1/organization' } });
  expect((await v1(base, 'GET', '/v1/organization')).status).toBe(500);
  expect(await use<unknown[]>('faults', { action: 'faults.list' })).toEqual([]);
  expect(await use<unknown[]>('faults', { action: 'deliveryFaults.list' })).toEqual([]);

  // requests: the failed request was recorded, and verification counts it.
  const page = await use<{ data: { path: string; status: number }[] }>('requests', { action: 'requests.find', query: { path: '/v1/organization' } });
  expect(page.data.map((r) => r.status)).toEqual([500]);
  const verified = await use<{ ok: boolean }>('requests', { action: 'requests.verify', matcher: { path: '/v1/organization' }, expected: { exactly: 1 } });
  expect(verified.ok).toBe(true);

  // webhooks: an address gets the onboarding's event; retried, it gets the same message again.
  expect((await v1(base, 'POST', '/v1/webhooks', { url: receiver.url('/hook') })).status).toBe(201);
  const second = (await (await v1(base, 'POST', '/v1/onboardings', createBody())).json()) as { id: string };
  expect(second.id).toMatch(/^onb_/);
  await receiver.waitFor(1);
  const [address] = await use<{ deliveries: { id: string }[] }[]>('webhooks', { action: 'webhooks.list' });
  const delivery = address!.deliveries[0]!;
  await use('webhooks', { action: 'deliveries.retry', id: delivery.id });
  const [first, again] = await receiver.waitFor(2);
  expect(again!.body.equals(first!.body)).toBe(true);

  // wait: both attempts succeeded, answered once the workspace shows them; the attempts as HAR.
  const met = await use<{ count: number }>('wait', { action: 'waitFor', query: { for: 'delivery', status: 'succeeded', timeout_ms: 2_000 } });
  expect(met.count).toBeGreaterThanOrEqual(1);
  const har = await use<{ log: { entries: unknown[] } }>('webhooks', { action: 'deliveries.har' });
  expect(har.log.entries.length).toBeGreaterThanOrEqual(2);

  // trigger: one event made through the life cycle, listed by the API and delivered to the address.
  const made = await use<{ event_id: string; event_type: string; onboarding_id: string }>('trigger', { action: 'trigger', event_type: 'onboarding.approved' });
  const listed = (await (await v1(base, 'GET', '/v1/events?limit=100')).json()) as { data: { id: string; type: string; data: { onboarding_id: string } }[] };
  expect(listed.data.find((e) => e.id === made.event_id)).toMatchObject({ type: 'onboarding.approved', data: { onboarding_id: made.onboarding_id } });
  await use('wait', { action: 'waitFor', query: { for: 'delivery', event_type: 'onboarding.approved', status: 'succeeded', timeout_ms: 2_000 } });
  expect(receiver.requests.some((r) => r.headers['service-event-id'] === made.event_id)).toBe(true);
  // trigger's eventCatalog: every type once, each with a signed sample.
  const events = await use<{ data: { type: string; sample: { headers: Record<string, string> } }[] }>('trigger', { action: 'eventCatalog' });
  expect(events.data.find((e) => e.type === 'onboarding.approved')?.sample.headers['Service-Event-Type']).toBe('onboarding.approved');

  // postman: the /v1 collection with the workspace's keys as variables.
  const collection = await use<{ info: { schema: string }; variable: { key: string; value: string }[] }>('postman', { action: 'postman.collection' });
  expect(collection.info.schema).toContain('v2.1');
  expect(collection.variable.map((v) => v.value)).toContain(KEYS.owner);

  // scenario: loaded and read back, with its report.
  const scenario = { version: 1, name: 'mcp', rules: [{ name: 'all', match: { all: true }, employee: { opens: '1h' } }] };
  expect(await use('scenario', { action: 'scenario.validate', body: scenario })).toMatchObject({ valid: true });
  await use('scenario', { action: 'scenario.load', body: scenario });
  expect(await use('scenario', { action: 'scenario.get' })).toMatchObject({ loaded: true, name: 'mcp' });
  expect(await use('scenario', { action: 'scenario.report' })).toHaveProperty('expectations');

  // state_machine: the life cycle's table.
  const machine = await use<{ object: string; triggers: unknown[] }>('state_machine', { action: 'stateMachine' });
  expect(machine.object).toBe('state_machine');
  expect(machine.triggers.length).toBeGreaterThan(10);

  // catalog: the sandbox catalogue.
  const catalog = await use<{ object: string; entries: { section: string }[] }>('catalog', { action: 'catalog' });
  expect(catalog.object).toBe('catalog');
  expect(catalog.entries.filter((e) => e.section === 'control_action').length).toBeGreaterThan(10);
  // catalog's testValues: the employee form's test values, a refused value with the form's message.
  const values = await use<{ version: number; fields: { iban: { invalid: { message: string }[] } } }>('catalog', { action: 'testValues' });
  expect(values.version).toBe(1);
  expect(values.fields.iban.invalid.some((m) => m.message.includes('mod-97'))).toBe(true);

  // receiver_check: a correct receiver passes.
  const graded = await gradedReceiver('correct');
  const report = await use<{ ok: boolean }>('receiver_check', { action: 'receiverCheck', body: { url: graded.url, secret: SECRET, timeout_ms: 2_000, burst: 1 } });
  expect(report.ok).toBe(true);
  return { called, open: [graded] };
}

/** Refused calls: bad input, an unknown action or property, another workspace, a live key. */
export async function exerciseRefusals(client: Client, bound: string, other: string): Promise<void> {
  expect(await refusal(client, 'clock', { action: 'clock.advance', by: 'soon' })).toMatchObject({ type: 'invalid_request', code: 'parameter_invalid', param: 'by' });
  expect(await refusal(client, 'clock', { action: 'clock.rewind' })).toMatchObject({ code: 'parameter_invalid', param: 'action' });
  expect(await refusal(client, 'clock', { action: 'clock.now', by: '1h' })).toMatchObject({ code: 'parameter_unknown', param: 'by' });
  expect(await refusal(client, 'onboardings', { action: 'onboardings.inspect' })).toMatchObject({ code: 'parameter_missing', param: 'id' });
  expect(await refusal(client, 'onboardings', { action: 'onboardings.inspect', id: 'onb_missing' })).toMatchObject({ type: 'not_found', code: 'resource_not_found' });
  expect(await refusal(client, 'workspace', { action: 'workspace.describe', workspaceId: other })).toMatchObject({ code: 'workspace_not_found', param: 'workspace_id' });
  expect(await refusal(client, 'workspace', { action: 'workspace.delete', workspaceId: other })).toMatchObject({ code: 'workspace_not_found' });
  expect(await refusal(client, 'requests', { action: 'requests.find', query: { key: KEYS.live } })).toMatchObject({ type: 'permission_error', code: 'sandbox_test_keys_only' });
  const unknownType = await refusal(client, 'trigger', { action: 'trigger', event_type: 'onboarding.exploded' });
  expect(unknownType).toMatchObject({ type: 'invalid_request', code: 'parameter_invalid', param: 'event_type' });
  expect(unknownType.message).toContain('onboarding.completed');
  expect(await refusal(client, 'trigger', { action: 'trigger', event_type: 'onboarding.created', onboarding_id: 'onb_missing' })).toMatchObject({ code: 'resource_not_found' });
  expect(await call(client, 'workspace', { action: 'workspace.describe', workspaceId: bound })).toMatchObject({ id: bound });
  expect((await call<{ id: string }[]>(client, 'workspace', { action: 'workspace.list' })).map((w) => w.id)).toEqual([bound]);
}

/** The resources: each read, each the document it names. */
export async function readResources(client: Client): Promise<void> {
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(['emulator://openapi.json', 'emulator://state-machine.json', 'emulator://catalog.json', 'emulator://errors.json']);
  const read = async (uri: string) => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as Record<string, unknown>;
  const openapi = await read('emulator://openapi.json');
  expect(openapi.openapi).toMatch(/^3\./);
  expect(Object.keys(openapi.paths as object)).toContain('/v1/onboardings');
  expect(await read('emulator://state-machine.json')).toHaveProperty('mermaid');
  // The catalogue as GET /_emulator/catalog answers it: every magic address among its entries.
  const catalog = await read('emulator://catalog.json');
  expect(catalog.object).toBe('catalog');
  const magic = (catalog.entries as { section: string; name: string }[]).filter((e) => e.section === 'magic_address').map((e) => e.name);
  expect(magic).toEqual(Object.keys(MAGIC_ADDRESSES));
  const errors = (await read('emulator://errors.json')).data as { code: string; status: number }[];
  expect(errors).toContainEqual({ code: 'sandbox_test_keys_only', status: 403, type: 'permission_error' });
}

/**
 * The hints of a tool that only reads, of one that destroys, and of one that writes without
 * destroying, as listed; every tool has its hints and an object outputSchema.
 */
export async function checkHints(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const t of tools) {
    expect(t.outputSchema?.type, t.name).toBe('object');
    expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual(['destructiveHint', 'idempotentHint', 'readOnlyHint']);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  expect(byName.get('state_machine')!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  expect(byName.get('postman')!.annotations).toMatchObject({ readOnlyHint: true });
  // reset and delete destroy, create and reset cannot be repeated alike: the conservative hints, and the description says which.
  const workspace = byName.get('workspace')!;
  expect(workspace.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  expect(workspace.description).toMatch(/- workspace\.reset\(\) \[destructive\]/);
  expect(workspace.description).toMatch(/- workspace\.delete\(workspaceId\) \[destructive\]/);
  expect(workspace.description).toMatch(/- keys\(\): /);
  // A snapshot is read or put back whole: destructive, and the same restore twice is the same workspace.
  expect(byName.get('snapshot')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  expect(byName.get('onboardings')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  expect(byName.get('onboardings')!.description).toMatch(/- onboardings\.cancel\(id\) = cancel \[writes\]/);
}

type Step = [action: string, args?: Record<string, unknown>];

const SUBMITTED: Step[] = [['employee/open'], ['employee/submit']];
const APPROVED: Step[] = [
  ['verify-identity'],
  ['approve', { user_id: 'usr_acme_mark', role: 'manager' }],
  ['approve', { user_id: 'usr_acme_paula', role: 'payroll_reviewer' }],
  ['approve', { user_id: 'usr_acme_olivia', role: 'owner' }],
];
const SIGNED: Step[] = [...SUBMITTED, ...APPROVED, ['send-contract'], ['employee/sign'], ['employer-sign']];

/** Steps, each an allowed action by its name, that bring a new onboarding to a state where other actions are offered. */
const STATES: Record<string, Step[]> = {
  new: [],
  opened: [['employee/open']],
  submitted: SUBMITTED,
  'one approval given': [...SUBMITTED, ...APPROVED.slice(0, 2)],
  'returned to the manager': [...SUBMITTED, ['return', { to: 'manager' }]],
  'terms changed after approval': [...SUBMITTED, ...APPROVED, ['change-terms', { hours_per_week: 30 }]],
  contract_ready: [...SUBMITTED, ...APPROVED],
  'contract sent': [...SUBMITTED, ...APPROVED, ['send-contract']],
  'signed by the employee': [...SUBMITTED, ...APPROVED, ['send-contract'], ['employee/sign']],
  processing: SIGNED,
  action_required: [...SIGNED, ['payroll/fail']],
};

interface Detail {
  onboarding: { id: string; status: string; approvals: { required: string[] } };
  allowed_actions: { action: string }[];
  approvals: { role: string; user_id: string; valid: boolean }[];
  people: { id: string; roles: string[] }[];
}

/** The arguments an offered action is called with: approve gets a role still missing and a person free to give it. */
function argsFor(action: string, d: Detail): Record<string, unknown> {
  if (action === 'return') return { to: 'employee' };
  if (action === 'change-terms') return { hours_per_week: 32 };
  if (action !== 'approve') return {};
  const valid = d.approvals.filter((a) => a.valid);
  for (const role of d.onboarding.approvals.required.filter((r) => !valid.some((a) => a.role === r))) {
    const person = d.people.find((p) => p.roles.includes(role) && !valid.some((a) => a.user_id === p.id));
    if (person) return { user_id: person.id, role };
  }
  throw new Error(`approve offered with no role left to give: ${JSON.stringify(d.approvals)}`);
}

/**
 * Every action an onboarding's allowed_actions offer, in every state the walk reaches, called
 * through the `onboardings` tool by the very name allowed_actions gives it (the steps to each
 * state too), from the state it was offered in (the workspace put back by a restore between
 * calls). Answers the names offered, which must be every action there is.
 */
export async function walkAllowedActions(client: Client, base: string): Promise<string[]> {
  const offered = new Set<string>();
  const byName = (id: string, action: string, args: Record<string, unknown> = {}) => call<{ onboarding: { id: string; status: string } }>(client, 'onboardings', { action, id, ...args });
  for (const [state, steps] of Object.entries(STATES)) {
    const res = await v1(base, 'POST', '/v1/onboardings', createBody({ reference: `walk-${state}` }));
    expect(res.status, state).toBe(201);
    const { id } = (await res.json()) as { id: string };
    for (const [action, args] of steps) expect((await byName(id, action, args)).onboarding.id).toBe(id);
    const detail = await call<Detail>(client, 'onboardings', { action: 'onboardings.inspect', id });
    const names = detail.allowed_actions.map((a) => a.action);
    expect(names.length, `${state}: something is offered`).toBeGreaterThan(0);
    const snapshot = await call(client, 'snapshot', { action: 'snapshot' });
    for (const action of names) {
      offered.add(action);
      await call(client, 'snapshot', { action: 'restore', body: snapshot });
      expect((await byName(id, action, argsFor(action, detail))).onboarding.id, `${state}: ${action}`).toBe(id);
    }
  }
  expect([...offered].sort()).toEqual([...ACTION_NAMES].sort());
  return [...offered];
}

/**
 * The actions exerciseEveryTool and walkAllowedActions leave out, each called once with input
 * that succeeds, so that every action's answer is held to its tool's outputSchema; the reset
 * last. `receiverUrl`: a receiver that passes the check. workspace.delete is left out: a session
 * may delete its own workspace only, after which it has none (callers do that last, apart).
 */
export async function callTheOtherActions(client: Client, workspaceId: string, receiverUrl: string): Promise<void> {
  await call(client, 'workspace', { action: 'workspace.describe', workspaceId });
  await call(client, 'workspace', { action: 'workspace.create', body: {} });
  const { now } = await call<{ now: string }>(client, 'clock', { action: 'clock.state' });
  await call(client, 'clock', { action: 'clock.set', now: new Date(Date.parse(now) + 86_400_000).toISOString() });

  const [address] = await call<{ id: string }[]>(client, 'webhooks', { action: 'webhooks.list' });
  await call(client, 'webhooks', { action: 'webhooks.enable', id: address!.id });
  await call(client, 'webhooks', { action: 'webhooks.deliveries', id: address!.id, limit: 5 });
  await call(client, 'webhooks', { action: 'deliveries.list', query: { limit: 5 } });

  const fault = await call<{ id: string }>(client, 'faults', { action: 'faults.add', body: { kind: 'error', path: '/v1/organization' } });
  expect(await call(client, 'faults', { action: 'faults.get', id: fault.id })).toMatchObject({ id: fault.id });
  await call(client, 'faults', { action: 'faults.remove', id: fault.id });
  await call(client, 'faults', { action: 'faults.add', body: { kind: 'error', path: '/v1/organization' } });
  await call(client, 'faults', { action: 'faults.clear' });
  const late = await call<{ id: string }>(client, 'faults', { action: 'deliveryFaults.add', body: { kind: 'delay', delay_ms: 1_000 } });
  await call(client, 'faults', { action: 'deliveryFaults.remove', id: late.id });
  await call(client, 'faults', { action: 'deliveryFaults.add', body: { kind: 'duplicate' } });
  await call(client, 'faults', { action: 'deliveryFaults.clear' });

  await call(client, 'onboardings', { action: 'onboardings.list', query: { limit: 5 } });
  await call(client, 'scenario', { action: 'scenario.reportCtrf', final: true });
  await call(client, 'scenario', { action: 'scenario.clear' });
  await call(client, 'requests', { action: 'requests.har', query: { limit: 5 } });
  await call(client, 'requests', { action: 'requests.clear' });
  await call(client, 'receiver_check', { action: 'receiverCheckCtrf', body: { url: receiverUrl, secret: SECRET, timeout_ms: 2_000, burst: 1 } });
  await call(client, 'workspace', { action: 'workspace.reset' });
}

/** Every action of every listed tool whose answer the client's calls held to its outputSchema; those left out are named. */
export async function expectEveryAnswerChecked(client: Client, except: readonly string[] = []): Promise<void> {
  const { tools } = await client.listTools();
  const all = tools.flatMap((t) => actionsOf(t).map((a) => `${t.name} ${a}`));
  const missing = all.filter((a) => !checkedAnswers(client).has(a) && !except.includes(a));
  expect(missing).toEqual([]);
  expect(all.length).toBeGreaterThan(50);
}
