import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Emulator } from '../../../src/emulator.js';
import { listen, type RunningServer } from '../../../src/http/server.js';
import { openBrowser } from '../../support/browser.js';
import { submitted } from '../../support/journey.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';

/**
 * The embedded review in headless Chromium: a partner's page served from another 127.0.0.1
 * port includes /embed.js and mounts review_url; the reviewer signs in, confirms the identity
 * check and approves inside the iframe, and the parent receives the postMessage. A parent on
 * an origin outside allowed_origins is refused framing by frame-ancestors.
 */
const ONB = 'onb_demo_jansen';

let browser: { context: BrowserContext; close: () => Promise<void> };
let emulator: Emulator;
let server: RunningServer;
let parent: { server: Server; origin: string };

/** The partner's page: includes embed.js from the emulator and mounts the review it is told. */
function partnerPage(emulatorUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner product</title></head><body>
<h1>Partner product</h1><div id="review"></div>
<script src="${emulatorUrl}/embed.js"></script>
<script>
  window.messages = [];
  window.domEvents = [];
  document.getElementById('review').addEventListener('onboarding-review', function (e) { window.domEvents.push(e.detail); });
  OnboardingReview.mount('#review', new URLSearchParams(location.search).get('review'), {
    onMessage: function (m) { window.messages.push(m); }
  });
</script></body></html>`;
}

async function api(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function newReview(onboardingId = ONB, externalId = 'partner-user-1'): Promise<string> {
  const res = await api('POST', `/v1/onboardings/${onboardingId}/review-sessions`, { reviewer: { email: 'mark.manager@acme.test', external_id: externalId } }, KEYS.manager);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.review_url as string;
}

async function allowOrigins(origins: string[]): Promise<void> {
  expect((await api('PATCH', '/_emulator/organizations/org_acme', { allowed_origins: origins })).status).toBe(200);
}

async function mount(url: string, before?: (page: Page) => void): Promise<Page> {
  const page = await browser.context.newPage();
  before?.(page);
  await page.goto(`${parent.origin}/?review=${encodeURIComponent(url)}`);
  return page;
}

beforeAll(async () => {
  emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
  server = await listen(emulator, { port: 0 });
  const s = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(partnerPage(server.url));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  parent = { server: s, origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
  browser = await openBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (parent ? parent.server.close(() => resolve()) : resolve()));
  await server?.close();
});

describe('the review embedded with embed.js', () => {
  it('on a page whose origin is in allowed_origins: sign in, confirm, approve; the parent receives the messages', async () => {
    submitted(emulator.defaultWorkspace, ONB);
    await allowOrigins(['127.0.0.1']);
    const page = await mount(await newReview());
    const frame = page.frameLocator('iframe[title="Onboarding review"]');

    await expect.poll(() => frame.locator('h1').textContent()).toBe('Sign in to review');
    // Mark is preselected from the session's e-mail: the sign-in links the partner's user.
    await frame.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Review the onboarding of Eva Jansen');
    expect(emulator.defaultWorkspace.store.reviewerLinks.values()).toMatchObject([{ external_id: 'partner-user-1', user_id: 'usr_acme_mark' }]);

    await frame.getByRole('button', { name: 'Confirm identity check' }).click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { messages: unknown[] }).messages.length)).toBe(1);
    await frame.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { messages: unknown[] }).messages.length)).toBe(2);

    const messages = await page.evaluate(() => (globalThis as unknown as { messages: unknown[] }).messages);
    const common = { type: 'onboarding-review', onboarding_id: ONB, review_session_id: expect.stringMatching(/^rvs_/), data_version: 2, status: 'in_review' };
    expect(messages).toEqual([
      { ...common, outcome: 'identity_verified', role: null, returned_to: null },
      { ...common, outcome: 'approved', role: 'manager', returned_to: null },
    ]);
    // The same messages as a DOM event on the container.
    expect(await page.evaluate(() => (globalThis as unknown as { domEvents: unknown[] }).domEvents)).toEqual(messages);
    await expect.poll(() => frame.getByRole('status').textContent()).toContain('Approved as manager.');
    expect(emulator.defaultWorkspace.store.onboardings.get(ONB)!.approvals).toMatchObject([{ role: 'manager', user_id: 'usr_acme_mark' }]);
    // embed.js sized the frame to the page.
    const height = await page.locator('iframe').evaluate((f) => (f as unknown as { style: { height: string } }).style.height);
    expect(height).not.toBe('640px');

    // The next review for the linked user opens directly, as Mark: four-eyes shows on the page.
    const again = await mount(await newReview());
    const second = again.frameLocator('iframe');
    await expect.poll(() => second.locator('h1').textContent()).toBe('Review the onboarding of Eva Jansen');
    expect(await second.locator('main').textContent()).toContain('opened directly');
    expect(await second.locator('main').textContent()).toContain('Four-eyes: one person cannot fulfil two roles, so the');
    await page.close();
    await again.close();
  }, 60_000);

  it('on a page whose origin is not in allowed_origins: framing is refused by frame-ancestors', async () => {
    await allowOrigins(['app.acme.test', '*.acme.test']);
    const page = await browser.context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('frame-ancestors')) violations.push(m.text());
    });
    const reviewUrl = await newReview(ONB, 'partner-user-2');
    await page.goto(`${parent.origin}/?review=${encodeURIComponent(reviewUrl)}`);
    await expect.poll(() => violations.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(violations[0]).toContain("frame-ancestors 'self' app.acme.test:* *.acme.test:*");
    // The frame shows no review: Chromium replaced it by its error page.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(frame.url()).not.toContain('/review/');
    expect(await page.evaluate(() => (globalThis as unknown as { messages: unknown[] }).messages)).toEqual([]);
    await page.close();
  }, 60_000);

  it('renders an employee named <img src=x onerror=alert(1)> as text: no dialog, no script runs', async () => {
    await allowOrigins(['127.0.0.1']);
    const created = await api('POST', '/v1/onboardings', createBody({
      employee: { first_name: '<img src=x onerror=alert(1)>', last_name: '<script>alert(2)</script>', email: 'xss@example.test' },
    }), KEYS.owner);
    expect(created.status).toBe(201);
    submitted(emulator.defaultWorkspace, created.body.id as string);
    const dialogs: string[] = [];
    const page = await mount(await newReview(created.body.id as string, 'partner-user-3'), (p) =>
      p.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      }));
    const frame = page.frameLocator('iframe');
    await frame.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Review the onboarding of <img src=x onerror=alert(1)> <script>alert(2)</script>');
    expect(await frame.locator('main img').count()).toBe(0);
    expect(await frame.locator('main script').count()).toBe(0);
    // Once the frame has loaded whole (a broken image has failed by then), a dialog of our own: one the page opened would have come first.
    const review = page.frames().find((f) => f !== page.mainFrame())!;
    await review.waitForLoadState('load');
    await review.evaluate(() => (globalThis as unknown as { alert(message: string): void }).alert('probe'));
    expect(dialogs).toEqual(['probe']);
    await page.close();
  }, 60_000);
});
