import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { runActionScript, type ActionRun } from '../support/action-run.js';
import { createBody } from '../support/harness.js';
import { closedPort } from '../support/net.js';
import { answer, useReceivers } from '../support/receiver.js';
import { docker, IMAGE } from './docker.js';

/**
 * The GitHub Action's scripts (action/start.mjs and action/report.mjs, what action.yml and
 * report/action.yml run) for real against the engine, with the runner's files pointed at
 * temporary ones: the image under test started and waited on, a scenario loaded from the
 * "checkout", the webhook relay to a receiver on the host's 127.0.0.1, the report and the
 * stop, and the build from the checkout when the image cannot be pulled.
 */
const receivers = useReceivers();
const FALLBACK_TAG = `${IMAGE}-fallback`;
const started: string[] = [];
const SCENARIO = [
  'name: action-image',
  'rules:',
  '  - match: { all: true }',
  '    employee: { opens: 1h }',
  'expect:',
  '  - name: the onboarding is created',
  '    onboarding: { reaches: pending_employee, within: 1h }',
  '  - name: the onboarding completes',
  '    onboarding: { reaches: completed, within: 1h }',
  '',
].join('\n');

afterEach(async () => {
  if (started.length) await docker(['rm', '-f', '-v', ...started.splice(0)]);
});
afterAll(async () => {
  await docker(['image', 'rm', FALLBACK_TAG]);
});

async function start(inputs: Record<string, string>): Promise<ActionRun & { base: string }> {
  const checkout = mkdtempSync(join(tmpdir(), 'oe-action-checkout-'));
  writeFileSync(join(checkout, 'emulator.yaml'), SCENARIO);
  const run = await runActionScript('start', { GITHUB_WORKSPACE: checkout, INPUT_PORT: String(await closedPort()), ...inputs }, 300_000);
  started.push(...(run.env.ONBOARDING_EMULATOR_CONTAINERS ?? '').split(' ').filter(Boolean));
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return { ...run, base: run.outputs['base-url']! };
}

const running = async (id: string) => (await docker(['inspect', '-f', '{{.State.Running}}', id])).stdout.trim();

describe('the GitHub Action on the image under test', () => {
  it('starts the image on 127.0.0.1, loads the scenario, and the report writes verdicts, counts and HAR files, then stops it', async () => {
    const run = await start({ INPUT_IMAGE: IMAGE, INPUT_SCENARIO: 'emulator.yaml', INPUT_SEED: '7' });
    expect(run.outputs).toMatchObject({ key: 'hrs_test_acme_owner', workspace: 'default', image: IMAGE, 'image-source': 'local' });
    expect(run.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.env).toMatchObject({ EMULATOR_URL: run.base, EMULATOR_KEY: 'hrs_test_acme_owner' });
    const headers = { Authorization: `Bearer ${run.outputs.key}`, 'Content-Type': 'application/json' };
    const scenario = await fetch(`${run.base}/_emulator/scenario`, { headers });
    expect(await scenario.json()).toMatchObject({ loaded: true, name: 'action-image' });
    const created = await fetch(`${run.base}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody()) });
    expect(created.status).toBe(201);
    // A receiver nothing listens on: the delivery fails, and the counts say so.
    await fetch(`${run.base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }) });
    await fetch(`${run.base}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody({ reference: 'second' })) });
    const wait = await fetch(`${run.base}/_emulator/wait?for=delivery&count=1`, { headers });
    expect(wait.status).toBe(200);

    const report = await runActionScript('report', { ...run.env, INPUT_MAX_ROWS: '10' });
    expect(report.code, report.stdout + report.stderr).toBe(0);
    expect(report.outputs).toMatchObject({ verdict: 'failed', passed: '1', failed: '1', delivered: '0' });
    expect(Number(report.outputs['deliveries-failed']) + Number(report.outputs['deliveries-pending'])).toBe(1);
    expect(report.summary).toContain('Scenario `action-image`: **❌ failed** (1 passed, 1 failed, 0 pending)');
    expect(report.summary).toMatch(/\| ❌ failed \| the onboarding completes \| not reached by the end of the run/);
    expect(report.summary).toMatch(/\| ✅ passed \| the onboarding is created \|/);
    expect(report.summary).toContain('| delivered | failed | pending |');
    const out = report.outputs['output-dir']!;
    const har = JSON.parse(readFileSync(join(out, 'requests.har'), 'utf8'));
    expect(har.log.entries.filter((e: { request: { method: string } }) => e.request.method === 'POST')).toHaveLength(3);
    expect(JSON.parse(readFileSync(join(out, 'deliveries.har'), 'utf8')).log.entries.length).toBeGreaterThanOrEqual(1);
    expect(readFileSync(join(out, 'scenario-report.junit.xml'), 'utf8')).toContain('<testsuites');
    // The report stopped and removed the container.
    expect((await docker(['inspect', run.outputs['container-id']!])).code).not.toBe(0);
  });

  it('relays webhooks to a receiver on the host\'s 127.0.0.1 when given a relay target', async () => {
    const r = await receivers.start(answer(200));
    const run = await start({ INPUT_IMAGE: IMAGE, INPUT_RELAY_TARGET: r.url('/webhooks') });
    const relay = run.outputs['relay-container-id']!;
    expect(await running(relay)).toBe('true');
    expect(run.env.ONBOARDING_EMULATOR_CONTAINERS).toBe(`${relay} ${run.outputs['container-id']}`);
    const headers = { Authorization: `Bearer ${run.outputs.key}`, 'Content-Type': 'application/json' };
    await fetch(`${run.base}/v1/onboardings`, { method: 'POST', headers, body: JSON.stringify(createBody()) });
    const [message] = await r.waitFor(1, 15_000);
    expect(message!.path).toBe('/webhooks');
    expect(message!.headers['service-event-type']).toBe('onboarding.created');
    expect(verifySignature(message!.body, String(message!.headers['service-signature']), run.outputs['webhook-secret']!)).toBe(true);
    // The runner masks the secret in every later log line of the job.
    expect(run.stdout).toContain(`::add-mask::${run.outputs['webhook-secret']}`);
    const hooks = await (await fetch(`${run.base}/v1/webhooks`, { headers })).json() as { data: { id: string; url: string }[] };
    expect(hooks.data).toEqual([expect.objectContaining({ id: run.outputs['webhook-id'], url: r.url('/webhooks') })]);

    const report = await runActionScript('report', run.env);
    expect(report.outputs).toMatchObject({ verdict: 'none', delivered: '1', 'deliveries-failed': '0' });
    expect((await docker(['inspect', relay])).code).not.toBe(0);
  });

  it('builds the image from the action\'s checkout when the named image cannot be pulled', async () => {
    const began = performance.now();
    const run = await start({ INPUT_IMAGE: 'registry.invalid/onboarding-emulator:none', INPUT_BUILD_TAG: FALLBACK_TAG });
    console.log(`start with the fallback build: ${Math.round(performance.now() - began)} ms`);
    expect(run.outputs).toMatchObject({ image: FALLBACK_TAG, 'image-source': 'built' });
    expect(run.stdout).toMatch(/registry\.invalid\/onboarding-emulator:none cannot be pulled .*; building /);
    const health = await fetch(`${run.base}/_emulator/health`);
    expect(health.status).toBe(200);
    // The same build as the image under test: the engine's cache made it, so both are one image.
    const id = async (ref: string) => (await docker(['image', 'inspect', '-f', '{{.Id}}', ref])).stdout.trim();
    expect(await id(FALLBACK_TAG)).toBe(await id(IMAGE));
  });

  it('fails at once, with the container\'s log, when the container stops instead of answering', async () => {
    // The base image runs `node` with no input, which exits at once: nothing ever answers.
    const base = /^FROM\s+(\S+)/m.exec(readFileSync('Dockerfile', 'utf8'))![1]!;
    const began = performance.now();
    const run = await runActionScript('start', { INPUT_IMAGE: base, INPUT_PORT: String(await closedPort()), INPUT_HEALTH_TIMEOUT: '60' });
    started.push(...(run.env.ONBOARDING_EMULATOR_CONTAINERS ?? '').split(' ').filter(Boolean));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error title=onboarding-emulator::the emulator's container stopped before it answered");
    expect(performance.now() - began).toBeLessThan(20_000);
    expect(started).toHaveLength(1);
  });

  it('fails with the reason when the scenario file is not in the checkout', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'oe-action-checkout-'));
    const run = await runActionScript('start', { GITHUB_WORKSPACE: checkout, INPUT_IMAGE: IMAGE, INPUT_SCENARIO: 'missing.yaml', INPUT_PORT: String(await closedPort()) });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`::error title=onboarding-emulator::input scenario: no file ${join(checkout, 'missing.yaml')}`);
    expect(run.env).toEqual({});
  });
});
