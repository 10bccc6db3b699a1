import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve } from '../support/serve.js';

/** `onboarding-emulator wait` against a built server: the flags made from the query, its output and its exit codes. */
const children: ChildProcess[] = [];
const cli = (args: string[]) => run([...args, '--url', url], children, { EMULATOR_URL: '', EMULATOR_KEY: '' });
let url = '';

beforeAll(async () => {
  url = (await serve(['--log-level', 'warn', '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z'], children)).url;
});

afterAll(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('onboarding-emulator wait', () => {
  it('exits 0 once the status is reached, with the match as a table or as JSON', async () => {
    const waiting = cli(['wait', 'status', '--onboarding-id', 'onb_demo_jansen', '--status', 'cancelled', '--timeout-ms', '10000']);
    // Whether the command is already waiting or starts after the cancel, it is met (test/http/wait.test.ts times the change).
    expect((await fetch(`${url}/_emulator/onboardings/onb_demo_jansen/cancel`, { method: 'POST' })).status).toBe(200);
    const met = await waiting;
    expect(met.code, met.stderr).toBe(0);
    expect(met.stdout).toMatch(/^met after [\d.]+ ms \(workspace clock 2026-10-05T09:00:00.000Z\): 1 match$/m);
    expect(met.stdout).toMatch(/^onb_demo_jansen\s+onboarding\s+cancelled$/m);

    const json = await cli(['wait', 'request', '--method', 'POST', '--path', '/_emulator/*', '--timeout-ms', '0', '--json']);
    // Control requests are not journaled: only /v1 requests are.
    expect(json.code).toBe(1);
    const events = await cli(['wait', 'event', '--type', 'onboarding.cancelled', '--onboarding-id', 'onb_demo_jansen', '--json']);
    expect(events.code, events.stderr).toBe(0);
    expect(JSON.parse(events.stdout)).toMatchObject({ object: 'wait', for: 'event', count: 1, data: [{ type: 'onboarding.cancelled' }] });
  });

  it('exits 1 when not met, printing the nearest candidates; 1 at once for a final status; 2 for usage mistakes', async () => {
    const timedOut = await cli(['wait', 'event', '--type', 'onboarding.completed', '--onboarding-id', 'onb_demo_partner', '--timeout-ms', '100']);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toMatch(/^error 409 wait_timeout: for=event: not met within 100 ms; 0 of 1 event\(s\) matched/);
    expect(timedOut.stderr).toMatch(/^ {2}evt_\w+: onboarding\.created for onb_demo_partner at .*; differs in type$/m);

    const unreachable = await cli(['wait', 'status', '--onboarding-id', 'onb_demo_jansen', '--status', 'completed']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('wait_unreachable');

    const stray = await cli(['wait', 'settled', '--type', 'ping']);
    expect(stray.code).toBe(1);
    expect(stray.stderr).toContain('error 422 parameter_unknown: type: not read by for=settled');
    expect((await cli(['wait', 'forever'])).code).toBe(2);
    expect((await cli(['wait', 'event', '--timeout-ms', 'soon'])).code).toBe(2);
    const help = await run(['wait', '--help'], children);
    expect(help.stdout).toContain('request: --method --path --status --error-code --with-key');
  });
});
