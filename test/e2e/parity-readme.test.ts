import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, WELL_KNOWN_KEYS, type InProcessEmulator } from '../../src/index.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { readCorpus } from '../../src/parity/corpus.js';
import { operationsOf } from '../../src/parity/coverage.js';
import { runParity } from '../../src/parity/parity.js';
import { startParityProxy } from '../../src/parity/proxy.js';
import { readmeScript } from '../support/readme-script.js';

/**
 * The README's journeys (its shell examples and those of the pages it links to) run through
 * `parity proxy` against one emulator, recorded as a corpus, and replayed against a fresh one:
 * nothing drifts, and no key or secret of theirs is in the files.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function emulator(seed: string): Promise<{ em: InProcessEmulator; url: string }> {
  const em = createEmulator({ seed });
  const { url } = await em.start(0, '127.0.0.1');
  cleanups.push(() => em.close());
  return { em, url };
}

describe('a recording of the README journeys', () => {
  it('replays against a fresh emulator with no drift', async () => {
    const recorded = await emulator('readme-a');
    const dir = process.env.PARITY_README_KEEP ?? mkdtempSync(join(tmpdir(), 'parity-readme-'));
    if (!process.env.PARITY_README_KEEP) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const proxy = await startParityProxy({ target: recorded.url, port: 0, record: dir, document: buildOpenApi(recorded.url), roles: WELL_KNOWN_KEYS, log: () => {} });
    const { script, examples } = readmeScript();
    // Run beside the proxy, not blocking it: it serves in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', script.replaceAll('localhost:4010', proxy.url.replace('http://', ''))], { encoding: 'utf8', timeout: 60_000 });
    expect(out.trim().split('\n').map(Number)).toEqual(examples.map((e) => e.expected));
    await proxy.close();

    const flows = readCorpus(dir);
    expect(flows.reduce((n, f) => n + f.steps.length, 0)).toBeGreaterThan(50);
    const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    for (const key of Object.values(WELL_KNOWN_KEYS)) expect(text).not.toContain(key);
    expect(text).not.toMatch(/whsec_[A-Za-z0-9]/);

    const fresh = await emulator('readme-b');
    const report = await runParity(flows, { url: fresh.url, keys: WELL_KNOWN_KEYS }, operationsOf(buildOpenApi()));
    const drifted = report.flows.flatMap((f) => f.steps.flatMap((s) => (s.verdict.kind === 'drift' ? s.verdict.drifts.map((d) => `${s.name} ${s.request} ${d.path}: ${JSON.stringify(d.recorded)} -> ${JSON.stringify(d.actual)}`) : [])));
    expect(drifted).toEqual([]);
    const unchecked = report.flows.flatMap((f) => f.steps.flatMap((s) => (s.verdict.kind === 'unchecked' ? [`${s.name} ${s.request}: ${s.verdict.why}`] : [])));
    expect(unchecked).toEqual([]);
  }, 120_000);
});
