import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';
import { closedPort, jsonRequest } from '../../support/net.js';

/**
 * The inspector in headless Chromium against a real emulator on 127.0.0.1 (README,
 * Inspector): it moves the clock with its buttons, retries a dead delivery, shows a new event
 * without a reload, and renders an employee named like markup as text.
 */
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);

async function open(path = '/'): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await env.browser.context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('#clock-now').waitFor();
  return { page, dialogs, errors };
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

/** A new workspace with a frozen clock at FROZEN_START, and its Acme owner key. */
async function newWorkspace(): Promise<{ id: string; owner: string }> {
  const ws = await api('POST', '/_emulator/workspaces', { clock: { mode: 'frozen', start: FROZEN_START } });
  expect(ws.status).toBe(201);
  const keys = ws.body.keys as { key: string }[];
  return { id: ws.body.id as string, owner: keys.find((k) => k.key.startsWith(KEYS.owner))!.key };
}

/** Waits until the clock the page shows reads `ms` (the callback runs in the page). */
const clockShows = (page: Page, ms: number) =>
  page.waitForFunction((t) => {
    const doc = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document;
    return Date.parse((doc.getElementById('clock-now')?.textContent ?? '').replace(' ', 'T')) === t;
  }, ms);
type Marked = { marker?: number };

const env = useBrowserAndEmulator();

describe('the inspector in a browser', () => {
  it('/ opens the inspector; the +1 hour button moves the clock it shows; custom and settle work too', async () => {
    const { page, errors } = await open('/');
    expect(new URL(page.url()).pathname).toBe('/_emulator/ui');
    const before = Date.parse((await text(page, '#clock-now')).replace(' ', 'T'));
    await page.getByRole('button', { name: '+1 hour' }).click();
    await clockShows(page, before + 3_600_000);
    await expect(page.getByRole('alert').innerText()).resolves.toMatch(/^Clock at /);
    // Custom amount, by keyboard only: type and press Enter.
    await page.getByLabel('Advance by').fill('90m');
    await page.getByLabel('Advance by').press('Enter');
    await clockShows(page, before + 3_600_000 + 5_400_000);
    await page.getByRole('button', { name: 'Settle (by 0)' }).click();
    await page.getByRole('alert').filter({ hasText: '0 timers fired' }).waitFor();
    expect(await text(page, '#clock-mode')).toBe('frozen');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('retries a dead delivery: the delivery shows a new attempt', async () => {
    const port = await closedPort();
    const hook = await api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['onboarding.created'] }, KEYS.owner);
    expect(hook.status).toBe(201);
    const created = await api('POST', '/v1/onboardings', createBody({ reference: 'DEAD-1' }), KEYS.owner);
    expect(created.status).toBe(201);
    const { page, errors } = await open();
    // Advance through the whole retry schedule (about 44 hours) with the inspector's own control.
    await page.getByLabel('Advance by').fill('3d');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    const delivery = env.emulator.defaultWorkspace.store.deliveries.values().find((d) => d.endpoint_id === hook.body.id)!;
    const row = page.locator(`tr[data-delivery="${delivery.id}"]`);
    await row.locator('.badge', { hasText: 'dead' }).waitFor();
    expect(await row.locator('.attempt-count').innerText()).toBe('8');
    await page.getByRole('button', { name: `Retry delivery ${delivery.id}` }).click();
    await row.locator('.attempt-count', { hasText: '9' }).waitFor();
    const attempts = row.locator('xpath=following-sibling::tr[1]').locator('ol.attempts > li');
    expect(await attempts.count()).toBe(9);
    expect(await attempts.last().innerText()).toContain('manual retry');
    await expect(page.getByRole('alert').innerText()).resolves.toContain(`Retried ${delivery.id}`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the next due timer with its kind (a scenario step: onboarding and step); +1 day moves the clock by one day', async () => {
    const ws = await newWorkspace();
    const created = await api('POST', '/v1/onboardings', createBody({ employee: { first_name: 'Hanna', last_name: 'Happy', email: 'happy-path@example.test' } }), ws.owner);
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}`);
    const next = page.locator('#clock-next-timer');
    await next.locator('.timer-kind', { hasText: 'scenario.step' }).waitFor();
    expect(await next.innerText()).toBe(`scenario.step · onboarding ${id} · step employee_opened`);
    expect(await text(page, '#clock-next')).toBe('2026-10-05 10:00:00Z');
    const before = Date.parse((await text(page, '#clock-now')).replace(' ', 'T'));
    expect(before).toBe(Date.parse(FROZEN_START));
    await page.getByRole('button', { name: '+1 day' }).click();
    await clockShows(page, before + 86_400_000);
    // The happy path ran its whole journey within the day; the page shows what is next now, as the clock read says.
    const clock = (await api('GET', `/_emulator/workspaces/${ws.id}/clock`)).body as { now: string; next_timer: { kind: string } };
    expect(clock.now).toBe(new Date(before + 86_400_000).toISOString());
    await page.locator('#clock-next-timer[data-kind]').filter({ hasNotText: 'scenario.step' }).waitFor();
    expect(await next.getAttribute('data-kind')).toBe(clock.next_timer.kind);
    expect(await next.locator('.timer-kind').innerText()).toBe(clock.next_timer.kind);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an older delivery, beyond the latest 5, shows up after "Show all" and can be retried there', async () => {
    const ws = await newWorkspace();
    const port = await closedPort();
    const hook = await api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/old`, events: ['onboarding.created'] }, ws.owner);
    expect(hook.status).toBe(201);
    expect((await api('POST', '/v1/onboardings', createBody({ reference: 'OLD-0' }), ws.owner)).status).toBe(201);
    expect((await api('POST', `/_emulator/workspaces/${ws.id}/clock/advance`, { by: '3d' })).status).toBe(200); // the oldest ends dead
    for (let i = 1; i <= 5; i++) expect((await api('POST', '/v1/onboardings', createBody({ reference: `OLD-${i}` }), ws.owner)).status).toBe(201);
    const oldest = env.emulator.workspace(ws.id).store.deliveries.values().find((d) => d.endpoint_id === hook.body.id)!;
    expect(oldest.status).toBe('dead');

    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}`);
    const webhooks = page.locator('#webhooks-content');
    const row = page.locator(`tr[data-delivery="${oldest.id}"]`);
    await webhooks.locator('tr[data-delivery]').first().waitFor();
    expect(await webhooks.locator('tr[data-delivery]').count()).toBe(5);
    expect(await row.count()).toBe(0);
    const showAll = page.getByRole('button', { name: `Show all 6 deliveries to http://127.0.0.1:${port}/old` });
    expect(await showAll.getAttribute('aria-expanded')).toBe('false');
    await showAll.click();
    await row.locator('.badge', { hasText: 'dead' }).waitFor();
    expect(await webhooks.locator('tr[data-delivery]').count()).toBe(6);
    expect(await row.locator('.attempt-count').innerText()).toBe('8');
    const collapse = page.getByRole('button', { name: `Show the latest 5 deliveries to http://127.0.0.1:${port}/old` });
    expect(await collapse.getAttribute('aria-expanded')).toBe('true');
    await expect(collapse.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).resolves.toBe(true);
    // Retry it from the page: a new manual attempt, and the full list stays open across the update.
    await page.getByRole('button', { name: `Retry delivery ${oldest.id}` }).click();
    await row.locator('.attempt-count', { hasText: '9' }).waitFor();
    const attempts = row.locator('xpath=following-sibling::tr[1]').locator('ol.attempts > li');
    expect(await attempts.count()).toBe(9);
    expect(await attempts.last().innerText()).toContain('manual retry');
    await expect(page.getByRole('alert').innerText()).resolves.toContain(`Retried ${oldest.id}`);
    // Back to the latest 5.
    await collapse.click();
    await row.waitFor({ state: 'detached' });
    expect(await webhooks.locator('tr[data-delivery]').count()).toBe(5);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a new event without a reload', async () => {
    const { page, errors } = await open();
    await page.evaluate(() => ((globalThis as Marked).marker = 42));
    const polls = Number(await page.locator('body').getAttribute('data-polls'));
    const created = await api('POST', '/v1/onboardings', createBody({ reference: 'LIVE-EVENT' }), KEYS.owner);
    expect(created.status).toBe(201);
    await page.locator('#events-content').getByRole('button', { name: `Show onboarding ${created.body.id as string}` }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (globalThis as Marked).marker)).toBe(42);
    expect(Number(await page.locator('body').getAttribute('data-polls'))).toBeGreaterThan(polls);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders an employee named <img src=x onerror=alert(1)> as text: no dialog, no image, the literal name visible', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const created = await api('POST', '/v1/onboardings', createBody({ employee: { first_name: name, last_name: '<script>alert(2)</script>', email: 'x@example.test' } }), KEYS.owner);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const { page, dialogs } = await open(`/_emulator/ui?onboarding=${id}`);
    const heading = page.locator('#onboarding-heading');
    await heading.waitFor();
    expect(await heading.innerText()).toBe(`${id} · ${name} <script>alert(2)</script>`);
    await page.locator('#onboardings-content td', { hasText: name }).first().waitFor();
    // Use the actions too: the name stays text after a redraw.
    await page.getByRole('button', { name: 'cancel' }).click();
    await page.locator('#onboarding-content .badge', { hasText: 'cancelled' }).waitFor();
    expect(await heading.innerText()).toContain(name);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('main script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
