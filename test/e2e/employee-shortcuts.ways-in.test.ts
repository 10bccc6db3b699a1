import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError as HttpApiError, httpControl } from '../../src/client/http.js';
import { ApiError, createEmulator, FIELD_VALUES, type InProcessEmulator } from '../../src/index.js';
import { FROZEN_START } from '../support/harness.js';
import { run } from '../support/serve.js';

/**
 * The employee's shortcuts refuse alike on every way in: HTTP (the reference), the HTTP client,
 * the in-process helpers, MCP (the SDK's client) and the built CLI give the same status, code,
 * param and details, with the form's messages, and none of them stores anything.
 */
const ID = 'onb_demo_partner';
const children: ChildProcess[] = [];
let em: InProcessEmulator;
let url: string;
let mcp: Client;

beforeAll(async () => {
  em = createEmulator({ seed: 'shortcut-ways', clock: { mode: 'frozen', start: FROZEN_START } });
  url = (await em.start(0, '127.0.0.1')).url;
  await em.onboardings.employeeOpen(ID);
  mcp = new Client({ name: 'shortcut-ways', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/_emulator/mcp`)));
});

afterAll(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await mcp?.close();
  await em?.close();
});

interface Refusal {
  status: number;
  code: string | undefined;
  param: string | undefined;
  details: { path: string; message: string }[] | undefined;
}

const bsn = FIELD_VALUES.bsn.invalid.find((m) => m.value === '111222334')!;
const postcode = FIELD_VALUES.postcode.invalid.find((m) => m.value === '1234 A')!;
const details = { bsn: bsn.value, postcode: postcode.value };
const body = { details };

async function overHttp(path: string, sent: object): Promise<Refusal> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(sent) });
  const { error } = (await res.json()) as { error: Omit<Refusal, 'status'> };
  return { status: res.status, code: error.code, param: error.param, details: error.details };
}

async function refusalOf(call: () => Promise<unknown>): Promise<Refusal> {
  try {
    await call();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, code: err.code, param: err.param, details: err.details };
    if (err instanceof HttpApiError) return { status: err.status, code: err.code, param: err.param, details: err.details };
    throw err;
  }
  throw new Error('not refused');
}

async function overMcp(args: Record<string, unknown>): Promise<Refusal> {
  const result = (await mcp.callTool({ name: 'onboardings', arguments: args })) as { isError?: boolean; content: { text: string }[] };
  expect(result.isError).toBe(true);
  const { error } = JSON.parse(result.content[0]!.text) as { error: Omit<Refusal, 'status'> & { type: string } };
  expect(error.type).toBe('invalid_request');
  return { status: 422, code: error.code, param: error.param, details: error.details };
}

const stored = () => JSON.stringify(em.emulator.defaultWorkspace.store.onboardings.get(ID));

describe('employee/submit refuses a form mistake alike on every way in', () => {
  it('HTTP, the HTTP client, in process, MCP and the CLI: 422 parameter_invalid, param details.postcode, a detail per wrong field with the form\'s message', async () => {
    const before = stored();
    const reference = await overHttp(`/_emulator/onboardings/${ID}/employee/submit`, body);
    expect(reference).toEqual({
      status: 422, code: 'parameter_invalid', param: 'details.postcode',
      details: [{ path: 'details.postcode', message: postcode.message }, { path: 'details.bsn', message: bsn.message }],
    });
    expect(await refusalOf(() => httpControl({ url }).onboardings.employeeSubmit(ID, details))).toEqual(reference);
    expect(await refusalOf(() => em.onboardings.employeeSubmit(ID, details))).toEqual(reference);
    expect(await overMcp({ action: 'onboardings.employeeSubmit', id: ID, details })).toEqual(reference);

    const cli = await run(['control', 'POST', `/_emulator/onboardings/${ID}/employee/submit`, JSON.stringify(body), '--url', url], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('error 422 parameter_invalid: details.postcode:');
    expect(cli.stderr).toContain(`  details.bsn: ${bsn.message}`);
    expect(stored()).toBe(before);
  }, 30_000);

  it('a document that is not base64, and an unknown test document: the same on every way in', async () => {
    const before = stored();
    for (const identity_document of [{ file_name: 'a.jpg', content_base64: 'not base64!' }, { test_document: 'nope.jpg' }]) {
      const reference = await overHttp(`/_emulator/onboardings/${ID}/employee/submit`, { identity_document });
      expect(reference.status).toBe(422);
      const strip = (r: Refusal) => ({ status: r.status, code: r.code, param: r.param });
      expect(strip(await refusalOf(() => httpControl({ url }).onboardings.employeeSubmit(ID, undefined, identity_document as never)))).toEqual(strip(reference));
      expect(strip(await refusalOf(() => em.onboardings.employeeSubmit(ID, undefined, identity_document as never)))).toEqual(strip(reference));
      expect(strip(await overMcp({ action: 'onboardings.employeeSubmit', id: ID, identity_document }))).toEqual(strip(reference));
    }
    expect(stored()).toBe(before);
  });
});

describe('employee/open counts a wrong code alike on every way in', () => {
  it('each way\'s wrong code is one attempt on the same counter; the fifth, on any way, voids the code', async () => {
    const other = createEmulator({ seed: 'shortcut-ways-open', clock: { mode: 'frozen', start: FROZEN_START } });
    const { url: otherUrl } = await other.start(0, '127.0.0.1');
    const agent = new Client({ name: 'shortcut-ways-open', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${otherUrl}/_emulator/mcp`)));
    try {
      const attempts = () => other.emulator.defaultWorkspace.store.onboardings.get(ID)!.hosted_link!.code_attempts ?? 0;
      const code = other.emulator.defaultWorkspace.store.onboardings.get(ID)!.hosted_link!.code === '000000' ? '111111' : '000000';
      const ways: (() => Promise<Refusal>)[] = [
        () => overHttpAt(otherUrl, code),
        () => refusalOf(() => httpControl({ url: otherUrl }).onboardings.employeeOpen(ID, code)),
        () => refusalOf(() => other.onboardings.employeeOpen(ID, code)),
        async () => {
          const result = (await agent.callTool({ name: 'onboardings', arguments: { action: 'onboardings.employeeOpen', id: ID, code } })) as { content: { text: string }[] };
          const { error } = JSON.parse(result.content[0]!.text) as { error: Omit<Refusal, 'status'> };
          return { status: 422, code: error.code, param: error.param, details: error.details };
        },
      ];
      for (const [i, way] of ways.entries()) {
        expect(await way(), `way ${i}`).toMatchObject({ status: 422, code: 'one_time_code_invalid', param: 'code' });
        expect(attempts()).toBe(i + 1);
      }
      const cli = await run(['control', 'POST', `/_emulator/onboardings/${ID}/employee/open`, JSON.stringify({ code }), '--url', otherUrl], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain('error 422 one_time_code_void:');
      expect(attempts()).toBe(5);
    } finally {
      await agent.close();
      await other.close();
    }
  }, 30_000);
});

async function overHttpAt(base: string, code: string): Promise<Refusal> {
  const res = await fetch(`${base}/_emulator/onboardings/${ID}/employee/open`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
  const { error } = (await res.json()) as { error: Omit<Refusal, 'status'> };
  return { status: res.status, code: error.code, param: error.param, details: error.details };
}
