#!/usr/bin/env node
/**
 * npm run screenshots: starts the built emulator (dist/) on 127.0.0.1 with a seed and a frozen
 * clock, fills a workspace through the control API and /v1 like a developer would, and drives
 * Debian's chromium (playwright-core, headless) through the inspector and the employee's hosted
 * flow, writing 1280x800 PNGs to docs/images/. Nothing is fetched from the network.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OWNER = 'hrs_test_acme_owner';
const VIEWPORT = { width: 1280, height: 800 };

if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: npm run build first');
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);

/** Starts `serve` and resolves with its URL from the ready line. */
function startEmulator() {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '--port', '0', '--seed', 'screenshots',
    '--clock', 'frozen', '--start-time', '2026-10-05T09:00:00Z', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (const line of buffer.split('\n')) {
        try {
          const entry = JSON.parse(line);
          if (entry.url) return resolve({ url: entry.url, stop: () => child.kill('SIGTERM') });
        } catch { /* a partial line */ }
      }
    });
  });
}

/** A webhook receiver on 127.0.0.1 that accepts everything. */
async function receiver() {
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hooks`, close: () => server.close() };
}

async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function client(base) {
  return async (method, path, body, key) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

const onboarding = (first, last, reference, extra = {}) => ({
  reference,
  employee: { first_name: first, last_name: last, email: `${first.toLowerCase()}@example.test` },
  employment: {
    position: 'Baker', start_date: '2026-12-01', location_id: 'loc_acme_utrecht', template_id: 'tpl_acme_flex',
    hours_per_week: 32, hourly_wage_cents: 1500,
  },
  ...extra,
});

async function main() {
  mkdirSync(OUT, { recursive: true });
  const emulator = await startEmulator();
  const hooks = await receiver();
  const api = client(emulator.url);
  const profile = mkdtempSync(join(tmpdir(), 'onboarding-screenshots-'));
  let browser;
  try {
    // A workspace a developer would have after a morning of trying things.
    await api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${await closedPort()}/down`, events: ['onboarding.created'], description: 'a receiver that is down' }, OWNER);
    await api('POST', '/v1/webhooks', { url: hooks.url, description: 'our receiver' }, OWNER);
    const ada = await api('POST', '/v1/onboardings', onboarding('Ada', 'Visser', 'HR-1001', { options: { send_invitation: true } }), OWNER);
    await api('POST', '/_emulator/clock/advance', { by: '20m' });
    const sem = await api('POST', '/v1/onboardings', onboarding('Sem', 'Bos', 'HR-1002'), OWNER);
    for (const step of ['employee/open', 'employee/submit']) await api('POST', `/_emulator/onboardings/${sem.id}/${step}`, {});
    await api('POST', '/_emulator/clock/advance', { by: '1h' });
    await api('POST', `/_emulator/onboardings/${sem.id}/verify-identity`, {});
    await api('POST', `/_emulator/onboardings/${sem.id}/approve`, { role: 'manager', user_id: 'usr_acme_mark' });
    await api('POST', '/_emulator/clock/advance', { by: '3h' });
    const noor = await api('POST', '/v1/onboardings', onboarding('Noor', 'Jansen', 'HR-1003', { options: { send_invitation: true } }), OWNER);

    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: VIEWPORT,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage();

    await page.goto(`${emulator.url}/`);
    await page.locator('tr[data-delivery]').first().waitFor();
    await page.getByRole('button', { name: `Show onboarding ${sem.id}` }).first().click();
    await page.locator('#onboarding-heading').waitFor();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(OUT, 'inspector-overview.png') });
    console.log('docs/images/inspector-overview.png');

    await page.locator('#onboarding').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('onboarding').scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(OUT, 'inspector-timeline.png') });
    console.log('docs/images/inspector-timeline.png');

    // The employee's hosted flow: the code page and the data form. Missing pages fail the run:
    // the docs must not quietly keep old pictures of them.
    const link = (await api('GET', `/_emulator/outbox?onboarding_id=${noor.id}`)).data.find((m) => m.link)?.link;
    if (!link) throw new Error(`no mail with a link for ${noor.id} in the outbox: cannot take the hosted-flow screenshots`);
    const hosted = await page.goto(link);
    if (!hosted || hosted.status() !== 200) throw new Error(`the hosted page ${link} answered ${hosted?.status() ?? 'nothing'}, not 200`);
    if ((await page.locator('#code').count()) === 0) throw new Error(`the hosted page ${link} has no one-time code field (#code)`);
    await page.screenshot({ path: join(OUT, 'hosted-code.png') });
    console.log('docs/images/hosted-code.png');
    const mails = (await api('GET', `/_emulator/outbox?onboarding_id=${noor.id}`)).data;
    const code = mails.filter((m) => m.code).at(-1)?.code;
    if (!code) throw new Error(`no one-time code was mailed for ${noor.id}`);
    await page.locator('#code').fill(code);
    await Promise.all([page.waitForLoadState('load'), page.locator('#code').press('Enter')]);
    await page.locator('input[name="iban"], input[type="file"]').first().waitFor();
    await page.screenshot({ path: join(OUT, 'hosted-form.png') });
    console.log('docs/images/hosted-form.png');
    void ada;
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    hooks.close();
    emulator.stop();
  }
}

try {
  await main();
} catch (err) {
  console.error(`screenshots failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
