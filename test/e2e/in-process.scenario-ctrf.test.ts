import { validate } from 'ctrf';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, httpControl, request } from '../../src/client/http.js';
import { localMethods } from '../../src/control/control.local.js';
import type { InProcessEmulator } from '../../src/index.js';
import { callTool } from '../../src/mcp/mcp.call.js';
import { reportedRun } from '../support/report-scenarios.js';

/**
 * The CTRF form of the scenario report on every way in besides HTTP itself: createEmulator()'s
 * helpers, the HTTP client (the CLI's and Testcontainers'), and the MCP tool; each the same
 * document as GET /_emulator/scenario/report?format=ctrf, and an unknown format refused on each.
 */
const START = '2026-10-05T09:00:00.000Z';
const started: InProcessEmulator[] = [];

afterEach(async () => {
  for (const em of started.splice(0)) await em.close();
});


const running = () => reportedRun(started, 'ctrf-1');

const overHttp = async (url: string, query: string) => (await (await fetch(`${url}/_emulator/scenario/report?format=ctrf${query}`)).json()) as unknown;

describe('scenario.reportCtrf()', () => {
  it('in process and over the HTTP client: the document ?format=ctrf answers, pending ones pending until final', async () => {
    const { em, url } = await running();
    const local = await em.scenario.reportCtrf();
    expect(validate(local)).toEqual({ valid: true, errors: [] });
    expect(local.results.tests.map((t) => [t.name, t.status])).toEqual([['in review within 2h', 'pending'], ['contract within 2h', 'pending']]);
    expect(local.results.summary).toMatchObject({ tests: 2, pending: 2, start: Date.parse(START), stop: Date.parse(START) });
    expect(local).toEqual(await overHttp(url, ''));
    const client = httpControl({ url });
    expect(await client.scenario.reportCtrf()).toEqual(local);

    const final = await em.scenario.reportCtrf(true);
    expect(final.results.summary).toMatchObject({ tests: 2, failed: 2, pending: 0 });
    expect(final).toEqual(await overHttp(url, '&final=true'));
    expect(await client.scenario.reportCtrf(true)).toEqual(final);

    await em.clock.advance('3h');
    const later = await client.scenario.reportCtrf();
    expect(later.results.tests.map((t) => t.status)).toEqual(['passed', 'failed']);
    expect(later.results.summary).toMatchObject({ passed: 1, failed: 1, pending: 0, stop: Date.parse('2026-10-05T12:00:00.000Z') });
    // A workspace handle reports on its own workspace, which has no scenario.
    const ws = await em.workspace.create();
    expect((await ws.handle.scenario.reportCtrf()).results.tests).toEqual([]);
    expect((await client.workspace.get(ws.id).scenario.reportCtrf()).results.tests).toEqual([]);
  });

  it('the HTTP client refuses an unknown format with the envelope as ApiError', async () => {
    const { url } = await running();
    const refused = await request({ url }, 'GET', '/_emulator/scenario/report?format=xml').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: 'parameter_invalid', param: 'format', message: 'format: must be one of: json, junit, ctrf' });
  });
});

describe('the scenario MCP tool', () => {
  it('scenario.reportCtrf answers the CTRF document; a format argument is refused as a tool error in the envelope', async () => {
    const { em, url } = await running();
    const session = { workspaceId: 'default', methods: localMethods(em.emulator, 'default', () => ({ requestId: 'req_test', baseUrl: url, head: false })) };
    const answer = await callTool(session, 'scenario', { action: 'scenario.reportCtrf', final: true });
    expect(answer.ok).toBe(true);
    const doc = (answer as { value: unknown }).value;
    expect(validate(doc).valid).toBe(true);
    expect(doc).toEqual(await overHttp(url, '&final=true'));
    for (const action of ['scenario.report', 'scenario.reportCtrf']) {
      expect(await callTool(session, 'scenario', { action, format: 'xml' }, 'req_test')).toEqual({
        ok: false,
        error: { error: expect.objectContaining({ type: 'invalid_request', code: 'parameter_unknown', param: 'format', request_id: 'req_test' }) as unknown },
      });
    }
  });
});
