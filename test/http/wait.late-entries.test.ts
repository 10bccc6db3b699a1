import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { openStateFile, type StateFile } from '../../src/persistence/state-file.js';
import { createBody, FROZEN_START, KEYS } from '../support/harness.js';
import { until } from '../support/wait.js';

/**
 * A request's journal entry is written once its answer is out, which for some answers is long
 * after the pipeline ended: one held for the state file's write, a slow one, one a fault
 * dropped, one refused before the pipeline (an injected 429) or inside it (422). A wait for
 * such a request is still told of it at once, not at its own deadline.
 */

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function serve(withStateFile = false) {
  const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
  let state: StateFile | undefined;
  if (withStateFile) state = openStateFile(emulator, { path: join(mkdtempSync(join(tmpdir(), 'wait-late-')), 'state.json') });
  const running: RunningServer = await listen(emulator, { host: '127.0.0.1', port: 0, ...(state ? { commit: () => state.commit() } : {}) });
  open.push({ close: async () => { await running.close(); await state?.close(); } });
  const { url } = running;
  const api = (method: string, path: string, body?: object) =>
    fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${KEYS.owner}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) })
      .then(async (r) => ({ status: r.status, text: await r.text() }), (err: unknown) => ({ status: 0, text: String(err) }));
  const wait = async (query: Record<string, string | number>) => {
    const res = await fetch(`${url}/_emulator/wait?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`);
    return { status: res.status, at: performance.now() };
  };
  const waitsOpen = (n: number) => until(() => emulator.waits.size >= n, `${n} open wait(s)`, 2_000);
  return { emulator, api, wait, waitsOpen };
}

/** Met within this of the request's end, against a timeout of 10 s. */
const PROMPT_MS = 1_000;

describe('a wait for a request whose journal entry comes after the pipeline', () => {
  it('is met at once for an answer held until the state file wrote it', async () => {
    const { api, wait, waitsOpen } = await serve(true);
    const pending = wait({ for: 'request', method: 'POST', path: '/v1/onboardings', status: 201, timeout_ms: 10_000 });
    await waitsOpen(1);
    expect((await api('POST', '/v1/onboardings', createBody())).status).toBe(201);
    const done = performance.now();
    const met = await pending;
    expect(met.status).toBe(200);
    expect(met.at - done).toBeLessThan(PROMPT_MS);
  });

  it('is met at once for a request refused inside the pipeline (422) and one refused before it (an injected 429)', async () => {
    const { api, wait, waitsOpen } = await serve();
    const refused = wait({ for: 'request', status: 422, timeout_ms: 10_000 });
    await waitsOpen(1);
    expect((await api('POST', '/v1/onboardings', { reference: 1 })).status).toBe(422);
    let done = performance.now();
    expect((await refused).status).toBe(200);
    expect(performance.now() - done).toBeLessThan(PROMPT_MS);

    expect((await api('POST', '/_emulator/faults', { kind: 'rate_limit', path: '/v1/onboardings' })).status).toBe(201);
    const limited = wait({ for: 'request', error_code: 'rate_limited', timeout_ms: 10_000 });
    await waitsOpen(1);
    expect((await api('GET', '/v1/onboardings')).status).toBe(429);
    done = performance.now();
    expect((await limited).status).toBe(200);
    expect(performance.now() - done).toBeLessThan(PROMPT_MS);
  });

  it('is met at once for a slow answer and for one a fault dropped', async () => {
    const { api, wait, waitsOpen } = await serve();
    expect((await api('POST', '/_emulator/faults', { kind: 'slow_response', path: '/v1/onboardings', first_byte_ms: 200, between_bytes_ms: 10 })).status).toBe(201);
    const slow = wait({ for: 'request', method: 'GET', path: '/v1/onboardings', timeout_ms: 10_000 });
    await waitsOpen(1);
    expect((await api('GET', '/v1/onboardings')).status).toBe(200);
    let done = performance.now();
    expect((await slow).status).toBe(200);
    expect(performance.now() - done).toBeLessThan(PROMPT_MS);

    expect((await api('POST', '/_emulator/faults', { kind: 'drop_response_after_commit', path: '/v1/onboardings' })).status).toBe(201);
    const dropped = wait({ for: 'request', method: 'POST', path: '/v1/onboardings', timeout_ms: 10_000 });
    await waitsOpen(1);
    expect((await api('POST', '/v1/onboardings', createBody())).status).toBe(0);
    done = performance.now();
    expect((await dropped).status).toBe(200);
    expect(performance.now() - done).toBeLessThan(PROMPT_MS);
  });
});
