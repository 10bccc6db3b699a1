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
import { createBody } from '../support/harness.js';
import type { ParityReport } from '../../src/parity/parity.js';

/**
 * Journeys recorded through `parity proxy` against one emulator and replayed against a fresh
 * one: the README's (its shell examples and those of the pages it links to), and the ready
 * scenarios' (each loaded, an onboarding made for it, the clock moved, the outcome read).
 * Nothing drifts, every step is checked, and no key or secret of theirs is in the files.
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

/** Every drift and every step that could not be checked, in words. */
function findings(report: ParityReport): string[] {
  return report.flows.flatMap((f) => f.steps.flatMap((s) => {
    if (s.verdict.kind === 'drift') return s.verdict.drifts.map((d) => `${f.flow} ${s.name} ${s.request} ${d.path}: ${JSON.stringify(d.recorded)} -> ${JSON.stringify(d.actual)}`);
    if (s.verdict.kind === 'unchecked') return [`${f.flow} ${s.name} ${s.request}: ${s.verdict.why}`];
    return [];
  }));
}

const SCENARIOS = readdirSync(new URL('../../scenarios/', import.meta.url)).filter((f) => f.endsWith('.yaml')).sort();

describe('a recording of the ready scenarios', () => {
  it('replays against a fresh emulator with no drift, a flow a scenario', async () => {
    const recorded = await emulator('scenarios-a');
    const dir = mkdtempSync(join(tmpdir(), 'parity-scenarios-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const proxy = await startParityProxy({ target: recorded.url, port: 0, record: dir, document: buildOpenApi(recorded.url), roles: WELL_KNOWN_KEYS, log: () => {} });
    const owner = { authorization: `Bearer ${WELL_KNOWN_KEYS.owner}`, 'content-type': 'application/json' };
    for (const file of SCENARIOS) {
      const flow = { 'parity-flow': `scenario-${file.replace(/\.yaml$/, '')}` };
      const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${proxy.url}${path}`, { method, headers: { ...flow, ...headers }, ...(body === undefined ? {} : { body }) });
        const text = await res.text();
        expect(res.status, `${file}: ${method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(300);
        return text ? (JSON.parse(text) as Record<string, unknown>) : {};
      };
      await call('POST', '/_emulator/reset');
      await call('PUT', '/_emulator/scenario', readFileSync(new URL(`../../scenarios/${file}`, import.meta.url), 'utf8'), { 'content-type': 'application/yaml' });
      // The partner's scenario plays what the partner's app makes; the others, any onboarding.
      const made = await call('POST', '/v1/onboardings', JSON.stringify({ ...createBody({ reference: file }), metadata: { source: 'partner-app' } }), owner);
      await call('POST', '/_emulator/clock/advance', JSON.stringify({ by: '10d' }), { 'content-type': 'application/json' });
      await call('GET', `/v1/onboardings/${String(made.id)}`, undefined, owner);
      await call('GET', '/_emulator/scenario/report');
    }
    await proxy.close();

    const flows = readCorpus(dir);
    expect(flows.map((f) => f.flow)).toEqual(SCENARIOS.map((f) => `scenario-${f.replace(/\.yaml$/, '')}`));
    // Each flow holds the events its onboarding went through, read before the next flow's reset.
    for (const f of flows) expect(f.events?.data.length, f.flow).toBeGreaterThan(0);
    expect(flows.find((f) => f.flow === 'scenario-happy-path')!.events!.data.length).toBeGreaterThan(10);
    const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(text).not.toContain(WELL_KNOWN_KEYS.owner);

    const fresh = await emulator('scenarios-b');
    const report = await runParity(flows, { url: fresh.url, keys: WELL_KNOWN_KEYS }, operationsOf(buildOpenApi()));
    expect(findings(report)).toEqual([]);
  }, 120_000);
});

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
    expect(findings(report)).toEqual([]);
  }, 120_000);
});
