import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../../src/index.js';
import { closedPort } from '../../support/net.js';
import { useReceivers } from '../../support/receiver.js';

/**
 * The HAR exports opened where a person opens them: the network panel of Chromium's own
 * DevTools. Headless Chromium has no DevTools window, but with a debugging port (on 127.0.0.1)
 * it serves its DevTools front end at /devtools/inspector.html; that page, attached to a blank
 * tab, imports a file through its "Import HAR file…" button as the desktop one does.
 */
const OWNER = 'hrs_test_acme_owner';
const receivers = useReceivers();
let context: BrowserContext;
let profile: string;
let port: string;
let em: InProcessEmulator;

beforeAll(async () => {
  profile = mkdtempSync(join(tmpdir(), 'onboarding-har-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--remote-debugging-port=0'],
  });
  // Chromium writes the port it chose (it listens on 127.0.0.1) into the profile.
  port = readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0]!;
  em = createEmulator({ clock: { mode: 'frozen', start: '2026-10-05T09:00:00.000Z' } });
  await em.start(0);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await em?.close();
  rmSync(profile, { recursive: true, force: true });
});

/** DevTools attached to a blank tab, on its network panel, with this file imported; answers the panel's page and a way to close both. */
async function importInDevTools(har: object, name: string): Promise<{ panel: Page; close: () => Promise<void> }> {
  const file = join(profile, name);
  writeFileSync(file, JSON.stringify(har));
  const blank = await context.newPage();
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { id: string; type: string; url: string }[];
  const target = targets.find((t) => t.type === 'page' && t.url === 'about:blank')!;
  const devtools = await context.newPage();
  await devtools.goto(`http://127.0.0.1:${port}/devtools/inspector.html?ws=127.0.0.1:${port}/devtools/page/${target.id}&panel=network`);
  const button = devtools.locator('[aria-label="Import HAR file…"]').first();
  await button.waitFor({ timeout: 20_000 });
  const [chooser] = await Promise.all([devtools.waitForEvent('filechooser'), button.click()]);
  await chooser.setFiles(file);
  return { panel: devtools, close: async () => (await devtools.close(), await blank.close()) };
}

describe('Chromium DevTools imports the HAR exports', () => {
  it('lists every recorded request and every webhook attempt in its network panel', async () => {
    const url = em.url!;
    const receiver = await receivers.start();
    const headers = { Authorization: `Bearer ${OWNER}`, 'Content-Type': 'application/json' };
    const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await post('/v1/webhooks', { url: receiver.url('/hook') })).status).toBe(201);
    expect((await post('/v1/webhooks', { url: `http://127.0.0.1:${await closedPort()}/down` })).status).toBe(201);
    expect((await post('/v1/onboardings', { reference: 'incomplete' })).status).toBe(422);
    const created = await post('/v1/onboardings', {
      employee: { first_name: 'Lotte', last_name: 'de Boer', email: 'lotte@example.test' },
      employment: { position: 'Cashier', start_date: '2026-12-01', location_id: 'loc_acme_amsterdam', template_id: 'tpl_acme_standard', hours_per_week: 24, hourly_wage_cents: 1450 },
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${url}/v1/onboardings/onb_devtools_missing`, { headers })).status).toBe(404);
    const ping = (await (await post('/v1/webhooks', { url: receiver.url('/ping') })).json()) as { id: string };
    expect((await post(`/v1/webhooks/${ping.id}/test`, {})).status).toBe(200);

    const requests = await em.requests.har();
    const first = await importInDevTools(requests, 'requests.har');
    await expect.poll(() => first.panel.getByText(`${requests.log.entries.length} requests`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => first.panel.getByText('onb_devtools_missing').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await first.close();

    const attempts = await em.deliveries.har();
    const second = await importInDevTools(attempts, 'deliveries.har');
    await expect.poll(() => second.panel.getByText(`${attempts.log.entries.length} request`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // The address's message, the test ping, and the attempt to the closed port: status 0 with
    // `_error`, as Chromium exports a failed request; its importer keeps `_error` but shows the
    // row as "Finished" without a status, where a recorded failure would read "(failed)".
    expect(attempts.log.entries.some((e) => e.response.status === 0)).toBe(true);
    const names = await second.panel.locator('td.name-column').allInnerTexts();
    for (const name of ['hook', 'ping', 'down']) expect(names.some((n) => n.split('\n')[0]!.trim() === name), `${name} in ${names.join(' | ')}`).toBe(true);
    const statuses = await second.panel.locator('td.status-column').allInnerTexts();
    expect(statuses.filter((t) => t === '200')).toHaveLength(attempts.log.entries.filter((e) => e.response.status === 200).length);
    expect(statuses.filter((t) => !/^\d+$/.test(t))).toHaveLength(attempts.log.entries.filter((e) => e.response.status === 0).length);
    await second.close();
  });
});
