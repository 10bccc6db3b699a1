import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError as CliApiError, httpControl } from '../../src/client/http.js';
import { registerControl } from '../../src/cli/commands/control.js';
import { queryText } from '../../src/operations/control-runner.js';
import { clientCalls, pathParams, type ControlRoute } from '../../src/operations/control-row.js';
import { controlRows } from '../../src/control/control.table.js';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../src/core/errors.js';
import { snapshotStore } from '../../src/core/store.js';
import type { Workspace } from '../../src/core/workspace.js';
import { createEmulator, type InProcessEmulator } from '../../src/index.js';
import { mcpTools } from '../../src/mcp/mcp.call.js';
import { NOT_TOOLS } from '../../src/mcp/mcp.tools.js';
import { RELAY_TOKEN_HEADER } from '../../src/delivery/relay.js';
import { badCases, UNKNOWN_ID, type BadCase, type CaseKind } from '../support/bad-inputs.js';
import { FROZEN_START } from '../support/harness.js';
import { approved, submitted } from '../support/journey.js';
import { run } from '../support/serve.js';

/**
 * Every way into the control API refuses the same input the same way. The cases are made from
 * the control rows (test/support/bad-inputs.ts): each client method given what HTTP refuses.
 * HTTP's answer is the reference; the HTTP client (httpControl), the in-process helpers
 * (createEmulator()), MCP (the SDK's client over /_emulator/mcp) and the CLI must answer the
 * same status, code and (where they report one) param. Each way has an emulator of its own,
 * shared by all its cases, each with the same onboarding in review (so change-terms and the
 * other actions reach their own rules).
 *
 * The CLI: `control METHOD PATH BODY`, the one command that reaches every row (the commands with
 * flags, faults add or wait, send their body through httpControl, which every case runs). A
 * process per case would take minutes on two cores, so every case runs the CLI's command layer
 * in this process (the command as main.ts registers it, stderr and the exit code caught), and the
 * built CLI, spawned, is held to that layer on one case of each kind. Its refusal is exit 1 and
 * `error <status> <code>:` on stderr.
 */
const IN_REVIEW = 'onb_demo_jansen';
const idOf = (row: ControlRoute<never>): string => (row.path.startsWith('/_emulator/onboardings/:id') ? IN_REVIEW : UNKNOWN_ID);
const cases = badCases(idOf);

interface Outcome {
  status: number;
  code?: string | undefined;
  param?: string | undefined;
}

const children: ChildProcess[] = [];
const emulators: InProcessEmulator[] = [];
let mcp: Client;
const urls: Record<'http' | 'client' | 'mcp' | 'cli', string> = { http: '', client: '', mcp: '', cli: '' };
let local: InProcessEmulator;

/** An emulator with the onboarding IN_REVIEW opened and submitted by the employee. */
async function emulator(): Promise<InProcessEmulator> {
  const em = createEmulator({ seed: 'ways-in', clock: { mode: 'frozen', start: FROZEN_START } });
  emulators.push(em);
  await em.onboardings.employeeOpen(IN_REVIEW);
  const { onboarding } = await em.onboardings.employeeSubmit(IN_REVIEW);
  expect(onboarding.status).toBe('in_review');
  return em;
}

/** Each way's emulator as it stood before the cases: its workspaces and their stores. */
const stateOf = (em: InProcessEmulator): string => JSON.stringify(em.emulator.workspaces().map((ws) => [ws.id, snapshotStore(ws.store)]));
let before: string[] = [];

beforeAll(async () => {
  for (const way of ['http', 'client', 'mcp', 'cli'] as const) urls[way] = (await (await emulator()).start(0, '127.0.0.1')).url;
  local = await emulator();
  before = emulators.map(stateOf);
  mcp = new Client({ name: 'ways-in-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${urls.mcp}/_emulator/mcp`)));
});

afterAll(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await mcp?.close();
  for (const em of emulators.splice(0)) await em.close();
});

const pathOf = (c: BadCase): string => {
  const path = c.row.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(c.params[name]!));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...c.query, ...c.call.query })) if (value !== undefined) query.set(name, queryText(value));
  return query.size > 0 ? `${path}?${query}` : path;
};

const bodyText = (c: BadCase): string | undefined => (c.body === undefined ? undefined : JSON.stringify(c.body));

/** The reference: the request itself, over HTTP. */
async function overHttp(c: BadCase): Promise<Outcome> {
  const text = bodyText(c);
  const res = await fetch(`${urls.http}${pathOf(c)}`, {
    method: c.row.method,
    ...(text === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: text }),
  });
  const answer = (await res.json()) as { error?: { code: string; param?: string } };
  return { status: res.status, code: answer.error?.code, param: answer.error?.param };
}

function methodOf(client: object, name: string): (...args: unknown[]) => Promise<unknown> {
  let at: unknown = client;
  for (const part of name.split('.')) at = (at as Record<string, unknown>)[part];
  return at as (...args: unknown[]) => Promise<unknown>;
}

async function outcomeOf(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    await call();
    return { status: 200 };
  } catch (err) {
    if (err instanceof ApiError || err instanceof CliApiError) return { status: err.status, code: err.code, param: err.param };
    // Not a refusal at all (a crash where HTTP refuses): a mismatch to list with the others.
    return { status: -1, code: String(err) };
  }
}

const toolOf = (action: string): string => [...mcpTools().values()].find((t) => t.actions.has(action))!.name;

/**
 * A tool error's envelope; or, for a message the endpoint itself refuses before any tool runs (a
 * snapshot nested past its limit is past the endpoint's too), the envelope of its HTTP answer.
 */
async function overMcp(c: BadCase): Promise<Outcome> {
  let result: { isError?: boolean; content: { text: string }[] };
  try {
    result = (await mcp.callTool({ name: toolOf(c.call.name), arguments: { action: c.call.name, ...c.tool } })) as typeof result;
  } catch (err) {
    const answer = /(\{"error":.*\})\s*$/.exec((err as Error).message);
    if (!answer) throw err;
    const { error } = JSON.parse(answer[1]!) as { error: { code: ErrorCode; param?: string } };
    return { status: (err as { code?: number }).code ?? -1, code: error.code, param: error.param };
  }
  if (!result.isError) return { status: 200 };
  const { error } = JSON.parse(result.content[0]!.text) as { error: { code: ErrorCode; param?: string } };
  return { status: ERROR_CODES[error.code].status, code: error.code, param: error.param };
}

const cliArgs = (c: BadCase): string[] => {
  const text = bodyText(c);
  return ['control', c.row.method, pathOf(c), ...(text === undefined ? [] : [text]), '--url', urls.cli];
};

/** What the CLI printed and its exit code, as an outcome: exit 1 with `error <status> <code>:`; anything else (a usage error, exit 2) shown whole. */
function cliOutcome(exit: number | null | undefined, stderr: string): Outcome {
  if (exit === 0) return { status: 200 };
  const printed = /^error (\d+) (\S+):/m.exec(stderr);
  return printed && exit === 1 ? { status: Number(printed[1]), code: printed[2] } : { status: -1, code: `exit ${exit}: ${stderr.trim()}` };
}

/** The built CLI, a process of its own. */
async function overCli(c: BadCase): Promise<Outcome> {
  const r = await run(cliArgs(c), children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
  return cliOutcome(r.code, r.stderr);
}

/**
 * The CLI's command layer in this process: the `control` command as main.ts registers it, on a
 * program of its own, its stderr and exit code caught (process.exit, which only a usage error
 * calls, throws instead).
 */
async function overCliCommand(c: BadCase): Promise<Outcome> {
  const program = new Command('onboarding-emulator');
  registerControl(program);
  let stderr = '';
  const spies = [
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true)),
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true),
    vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    }),
  ];
  const saved = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(cliArgs(c), { from: 'user' });
    return cliOutcome(process.exitCode ?? 0, stderr);
  } catch (err) {
    return cliOutcome(undefined, `${stderr}${String(err)}`);
  } finally {
    for (const spy of spies) spy.mockRestore();
    process.exitCode = saved;
  }
}

/**
 * Where createEmulator()'s helpers give an argument a meaning of their own (ScenarioInput): a
 * list given to scenario.load names scenario files. MCP runs the row's own method on it.
 */
const helpersOwn = (c: BadCase): boolean => c.call.name === 'scenario.load' && Array.isArray(c.args?.[0]);

/** The code a case of each kind is refused with over HTTP (a row with a guard answers its own first; an unknown id, its row's 404). */
const EXPECTED: Record<Exclude<CaseKind, 'own-rule' | 'unknown-id'>, string> = {
  missing: 'parameter_missing',
  unknown: 'parameter_unknown',
  type: 'parameter_invalid',
  range: 'parameter_invalid',
  'not-object': 'body_not_object',
  'too-large': 'body_too_large',
  'too-deep': 'body_too_deep',
};

describe('every way into the control API runs the same checks', () => {
  it('has cases for every client method that takes any input; the others take none', () => {
    const covered = new Set(cases.map((c) => c.call.name));
    // The relay's methods among them, made from its rows like every other.
    expect([...covered].filter((m) => m.startsWith('relays.')).sort()).toEqual(['relays.claim', 'relays.close', 'relays.open', 'relays.report']);
    const inputless = (controlRows as ControlRoute<never>[]).flatMap((row) => clientCalls(row).filter((call) => !covered.has(call.name)).map((call) => ({ row, call })));
    for (const { row, call } of inputless) {
      expect({ method: call.name, args: call.args ?? [], query: row.query, params: pathParams(row), body: row.method === 'GET' || row.method === 'DELETE' ? undefined : row.body }).toEqual({ method: call.name, args: [], query: undefined, params: [], body: undefined });
    }
    expect(covered.size + inputless.length).toBe((controlRows as ControlRoute<never>[]).flatMap((row) => clientCalls(row)).length);
  });

  it('HTTP, the HTTP client, the in-process helpers and MCP refuse each bad input alike', async () => {
    const mismatches: string[] = [];
    const client = httpControl({ url: urls.client });
    for (const c of cases) {
      const reference = await overHttp(c);
      const expected = c.kind === 'own-rule' || c.kind === 'unknown-id' || c.row.guard ? undefined : EXPECTED[c.kind];
      if (reference.status < 400 || reference.status >= 500 || (expected && reference.code !== expected) || (c.kind === 'unknown-id' && !c.row.guard && reference.status !== 404)) {
        mismatches.push(`${c.label}: HTTP answered ${JSON.stringify(reference)}${expected ? `, not ${expected}` : ''}`);
        continue;
      }
      const ways: [string, (() => Promise<Outcome>) | undefined][] = [
        ['http client', c.args && (() => outcomeOf(() => methodOf(client, c.call.name)(...c.args!)))],
        ['in process', c.args && !helpersOwn(c) ? () => outcomeOf(() => methodOf(local, c.call.name)(...c.args!)) : undefined],
        // A group that is no MCP tool (the relays) has no MCP way in: mcp-tools.test.ts holds the list.
        ['mcp', NOT_TOOLS.has(c.call.name.split('.')[0]!) ? undefined : () => overMcp(c)],
      ];
      for (const [way, answer] of ways) {
        if (answer === undefined) continue;
        const got = await answer();
        if (got.status !== reference.status || got.code !== reference.code || got.param !== reference.param) {
          mismatches.push(`${c.label}: ${way} answered ${JSON.stringify(got)}, HTTP ${JSON.stringify(reference)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('the CLI prints the same status and code, exit 1, for every case', async () => {
    const mismatches: string[] = [];
    for (const c of cases) {
      const [reference, got] = [await overHttp(c), await overCliCommand(c)];
      if (got.status !== reference.status || got.code !== reference.code) mismatches.push(`${c.label}: cli ${JSON.stringify(got)}, HTTP ${JSON.stringify(reference)}`);
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('the built CLI answers as its command layer does, for a case of each kind', async () => {
    // A body over 1 MB is more than one argument of a process may hold: the command layer alone runs that kind.
    const picked = [...new Map(cases.filter((c) => c.kind !== 'too-large').map((c) => [c.kind, c])).values()];
    expect(picked.map((c) => c.kind).sort()).toEqual(['missing', 'not-object', 'own-rule', 'range', 'too-deep', 'type', 'unknown', 'unknown-id']);
    for (const c of picked) {
      const [reference, got] = await Promise.all([overCliCommand(c), overCli(c)]);
      expect(got, c.label).toEqual(reference);
    }
  }, 30_000);

  it('wrote nothing on any way in: each emulator holds what it held before the cases', () => {
    expect(emulators.slice(0, before.length).map(stateOf)).toEqual(before);
  });
});

describe('change-terms with no terms, the refusal MCP once skipped', () => {
  /** What the refused call must leave as it was: the status, the data version and the approvals still valid. */
  const state = (ws: Workspace) => {
    const r = ws.store.onboardings.get(IN_REVIEW)!;
    return { status: r.status, data_version: r.data_version, valid: r.approvals.filter((a) => a.data_version === r.data_version).length };
  };

  it.each([
    ['in_review', submitted],
    ['contract_ready', approved],
  ] as const)('is refused on an onboarding %s over HTTP, MCP, the HTTP client and in process, and changes nothing', async (status, drive) => {
    const em = createEmulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    emulators.push(em);
    const { url } = await em.start(0, '127.0.0.1');
    const ws = em.emulator.defaultWorkspace;
    drive(ws, IN_REVIEW);
    const before = state(ws);
    expect(before.status).toBe(status);

    const res = await fetch(`${url}/_emulator/onboardings/${IN_REVIEW}/change-terms`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('parameter_missing');

    const agent = new Client({ name: 'ways-in-change-terms', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${url}/_emulator/mcp`)));
    try {
      const result = (await agent.callTool({ name: 'onboardings', arguments: { action: 'onboardings.changeTerms', id: IN_REVIEW } })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ error: { code: 'parameter_missing' } });
    } finally {
      await agent.close();
    }
    await expect(em.onboardings.changeTerms(IN_REVIEW)).rejects.toMatchObject({ status: 422, code: 'parameter_missing' });
    await expect(httpControl({ url }).onboardings.changeTerms(IN_REVIEW)).rejects.toMatchObject({ status: 422, code: 'parameter_missing' });
    expect(state(ws)).toEqual(before);
  });
});

describe("a relay's token, an argument of its methods sent as its header", () => {
  type Way = (token: string | undefined) => Promise<Outcome>;

  it('is refused alike over HTTP, the HTTP client and in process (left out, another, one no header holds) and taken alike with spaces around it', async () => {
    const em = createEmulator({ seed: 'ways-in-relay' });
    emulators.push(em);
    const { url } = await em.start(0, '127.0.0.1');
    const client = httpControl({ url });
    const opened = await client.relays.open();
    const { id, token } = opened;
    const send = async (method: string, path: string, value: string | undefined, body?: object): Promise<Outcome> => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(value === undefined ? {} : { [RELAY_TOKEN_HEADER]: value }) };
      const res = await fetch(`${url}/_emulator/relays/${id}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      const answer = (await res.json()) as { error?: { code: string; param?: string } };
      return { status: res.status, code: answer.error?.code, param: answer.error?.param };
    };
    const report = { message_id: 'rmsg_none', status_code: 200, error: null, duration_ms: 3 };
    const actions: [string, Way, (on: typeof client) => Way][] = [
      ['claim', (t) => send('POST', '/claim', t, { wait_ms: 0 }), (on) => (t) => outcomeOf(() => on.relays.claim(id, t as string, 0))],
      ['report', (t) => send('POST', '/results', t, report), (on) => (t) => outcomeOf(() => on.relays.report(id, t as string, report.message_id, 200, null, 3))],
    ];
    const tokens: [string, string | undefined][] = [['left out', undefined], ['another', `${token}x`], ['with spaces around it', ` ${token}\t`]];
    const mismatches: string[] = [];
    for (const [action, overHttp, method] of actions) {
      for (const [what, value] of tokens) {
        const reference = await overHttp(value);
        for (const [way, on] of [['http client', client], ['in process', em]] as const) {
          const got = await method(on)(value);
          if (JSON.stringify(got) !== JSON.stringify(reference)) mismatches.push(`${action}, token ${what}: ${way} ${JSON.stringify(got)}, HTTP ${JSON.stringify(reference)}`);
        }
      }
      // A line break no request can carry (fetch refuses to send it): both clients refuse it alike, before the row.
      await expect(overHttp(`${token}\nX-Other: 1`)).rejects.toThrow();
      for (const on of [client, em]) {
        expect(await method(on)(`${token}\nX-Other: 1`)).toEqual({ status: 422, code: 'parameter_invalid', param: RELAY_TOKEN_HEADER });
      }
    }
    expect(mismatches).toEqual([]);
    // What the references were: 403 without the token or with another; with it, the empty claim and the unknown message.
    expect(await send('POST', '/claim', undefined, { wait_ms: 0 })).toEqual({ status: 403, code: 'relay_token_invalid', param: undefined });
    expect(await send('POST', '/results', ` ${token}`, report)).toEqual({ status: 404, code: 'resource_not_found', param: undefined });
    expect(await em.relays.claim(id, token, 0)).toEqual({ data: [], stopping: false });

    // Closed by the in-process method with the token, after HTTP and the HTTP client refused another.
    for (const refused of [() => client.relays.close(id, 'rtok_other'), () => em.relays.close(id, 'rtok_other')]) {
      expect(await outcomeOf(refused)).toEqual({ status: 403, code: 'relay_token_invalid', param: undefined });
    }
    expect(await em.relays.close(id, token)).toMatchObject({ id });
    expect(await client.relays.list()).toEqual([]);
  });
});
