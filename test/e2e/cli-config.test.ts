import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { otlpReceiver, type OtlpReceiver } from '../support/otlp.js';
import { run, serve } from '../support/serve.js';

/**
 * `serve` checks its whole configuration before it listens: a flag or EMULATOR_* variable it
 * cannot take stops the start with exit status 2 and one line on stderr naming it; an OTEL_*
 * value is a warning (tracing off when the endpoint or the headers cannot be used), and nothing
 * about exporting spans can end the process.
 */
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const close of closers.splice(0)) await close();
});

/** Left empty, so variables of the machine running the tests cannot turn tracing on. */
const NO_OTEL = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_EXPORTER_OTLP_HEADERS: '', OTEL_EXPORTER_OTLP_TRACES_HEADERS: '', OTEL_SDK_DISABLED: '', OTEL_TRACES_EXPORTER: '' };
/** Port 0 and loopback unless a case is about them: a value wrongly taken must not listen on 4010. */
const SAFE = ['--port', '0', '--host', '127.0.0.1'];
const stateFile = () => join(mkdtempSync(join(tmpdir(), 'config-')), 'state.json');

describe('serve: a flag or EMULATOR_* variable it cannot take stops the start, exit 2, one line naming it', () => {
  it.each<[string, string[], Record<string, string>, string]>([
    ['a port with a fraction', ['--port', '4010.5', '--host', '127.0.0.1'], {}, '--port: not a valid port (0 to 65535): 4010.5'],
    ['a port from the environment', ['--host', '127.0.0.1'], { EMULATOR_PORT: 'abc' }, 'EMULATOR_PORT: not a valid port (0 to 65535): abc'],
    ['a host that is no address or name', ['--port', '0', '--host', 'local host'], {}, '--host: not an address or host name to listen on (such as 127.0.0.1, 0.0.0.0 or ::1): "local host"'],
    ['a start time from the environment', SAFE, { EMULATOR_START_TIME: 'yesterday' }, 'EMULATOR_START_TIME: not a valid ISO 8601 instant: yesterday'],
    ['a public URL without a scheme', [...SAFE, '--public-url', 'localhost:4010'], {}, '--public-url: must be an http:// or https:// URL such as https://emulator.example.test; got "localhost:4010"'],
    ['a webhook timeout from the environment', SAFE, { EMULATOR_WEBHOOK_TIMEOUT_MS: 'soon' }, 'EMULATOR_WEBHOOK_TIMEOUT_MS: not a valid timeout in ms (1 to 600000): soon'],
    ['a rate limit', [...SAFE, '--rate-limit', 'fast'], {}, '--rate-limit: not a valid rate limit (N/s or N/m, N from 1 to 1000000): fast'],
    ['a drain timeout in exponent notation', [...SAFE, '--drain-timeout-ms', '1e3'], {}, '--drain-timeout-ms: not a valid drain timeout in ms (0 to 600000): 1e3'],
    ['a journal limit from the environment', SAFE, { EMULATOR_JOURNAL_LIMIT: 'all' }, 'EMULATOR_JOURNAL_LIMIT: not a valid journal limit (0 to 100000): all'],
    ['an allowed host with a port', [...SAFE, '--allowed-hosts', 'emulator.test:4010'], {}, '--allowed-hosts: "emulator.test:4010" is not a host name (give the name alone, without scheme, port or path: emulator.test, .example.test, or * for any)'],
    ['an allowed host with a scheme', SAFE, { EMULATOR_ALLOWED_HOSTS: 'a.test,https://b.test' }, 'EMULATOR_ALLOWED_HOSTS: "https://b.test" is not a host name (give the name alone, without scheme, port or path: emulator.test, .example.test, or * for any)'],
    ['a switch variable that is no yes or no', [...SAFE, '--state-file', stateFile()], { EMULATOR_RESET_STATE: 'maybe' }, 'EMULATOR_RESET_STATE: not a yes or no: "maybe" (use true or false)'],
    ['--reset-state without a state file', [...SAFE, '--reset-state'], {}, '--reset-state needs --state-file: it says what to do with that file'],
  ])('%s', async (_, args, env, line) => {
    const ran = await run(['serve', ...args], children, { ...NO_OTEL, ...env });
    expect(ran.code, ran.out).toBe(2);
    expect(ran.stderr).toBe(`onboarding-emulator: ${line}\n`);
    expect(ran.stdout).toBe('');
  });

  it("a choice from the environment is commander's own one-line refusal, exit 2", async () => {
    const ran = await run(['serve', ...SAFE], children, { ...NO_OTEL, EMULATOR_CLOCK: 'melting' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe("error: option '--clock <mode>' value 'melting' from env 'EMULATOR_CLOCK' is invalid. Allowed choices are realtime, frozen.\n");
  });

  it('an empty variable counts as unset, and a switch variable says yes or no', async () => {
    // EMULATOR_LOG_LEVEL= was an invalid choice; EMULATOR_NO_UI=false turned the UI off.
    const served = await serve([], children, { ...NO_OTEL, EMULATOR_LOG_LEVEL: '', EMULATOR_SEED: '', EMULATOR_NO_UI: 'false' });
    expect(served.ready).toMatchObject({ seed: null, inspector: `${served.url}/_emulator/ui` });
    expect((await fetch(`${served.url}/_emulator/ui`)).status).toBe(200);
    const off = await serve([], children, { ...NO_OTEL, EMULATOR_NO_UI: 'TRUE' });
    expect(off.ready).not.toHaveProperty('inspector');
    expect((await fetch(`${off.url}/_emulator/ui`)).status).toBe(404);
  });
});

describe('serve: OTEL_* values that cannot be used', () => {
  async function collector(): Promise<OtlpReceiver> {
    const r = await otlpReceiver();
    closers.push(r.close);
    return r;
  }
  const FAST = { OTEL_BSP_SCHEDULE_DELAY: '50' };
  /** stderr's lines: everything but the JSON log lines on stdout. */
  const warnings = (lines: string[]) => lines.filter((l) => !l.startsWith('{'));

  it.each<[string, (endpoint: string) => Record<string, string>, string]>([
    ['a space in a header name', (e) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_EXPORTER_OTLP_HEADERS: 'x team=a' }), 'OTEL_EXPORTER_OTLP_HEADERS: "x team" is not a header name; tracing is off'],
    ['CR LF in a header value', (e) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=a%0d%0ab: c' }),
      'OTEL_EXPORTER_OTLP_HEADERS: the value of x-team holds a character a header cannot carry (a line break, a control character, or one beyond Latin-1); tracing is off'],
    ['a header value beyond Latin-1', (e) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: e, OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-team=%E2%82%AC' }),
      'OTEL_EXPORTER_OTLP_TRACES_HEADERS: the value of x-team holds a character a header cannot carry (a line break, a control character, or one beyond Latin-1); tracing is off'],
    ['an ftp:// endpoint', (e) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: e.replace('http:', 'ftp:') }), 'OTEL_EXPORTER_OTLP_ENDPOINT: not an http:// or https:// URL: "ftp://'],
    ['an endpoint that is no URL', () => ({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '127.0.0.1:4318' }), 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: not an http:// or https:// URL: "127.0.0.1:4318"; tracing is off'],
  ])('%s: one warning, tracing off, and the emulator serves on', async (_, env, says) => {
    const traces = await collector();
    const served = await serve(['--log-level', 'warn'], children, { ...NO_OTEL, ...FAST, ...env(traces.url) });
    expect(served.ready).not.toHaveProperty('traces');
    const res = await fetch(`${served.url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    expect(res.status).toBe(200);
    // Tracing is off, so no export is ever scheduled (the exporter's own failures: in-process.tracing-export.test.ts).
    expect(served.child.exitCode).toBeNull();
    expect((await fetch(`${served.url}/_emulator/health`)).status).toBe(200);
    const lines = warnings(served.lines());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`onboarding-emulator: ${says}`);
    expect(lines[0]).toMatch(/; tracing is off$/);
    expect(traces.exports()).toBe(0);
  });

  it('a number it cannot read: one warning, its default holds, and tracing stays on', async () => {
    const traces = await collector();
    const served = await serve(['--log-level', 'warn'], children, { ...NO_OTEL, ...FAST, OTEL_EXPORTER_OTLP_ENDPOINT: traces.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'lots' });
    expect(served.ready).toMatchObject({ traces: 'onboarding-emulator' });
    await fetch(`${served.url}/v1/organization`, { headers: { Authorization: 'Bearer hrs_test_acme_owner' } });
    await traces.waitFor((s) => s.some((x) => x.name === 'GET /v1/organization'), 'the span of the request');
    expect(warnings(served.lines())).toEqual(['onboarding-emulator: OTEL_BSP_MAX_EXPORT_BATCH_SIZE: not a whole number of 1 or more: "lots"; ignored, 512 holds']);
  });
});
