import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
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
