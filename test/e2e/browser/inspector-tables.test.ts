import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserAndEmulator, type PageDocument } from '../../support/browser.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';
import { closedPort, jsonRequest } from '../../support/net.js';

/**
 * The inspector's tables in headless Chromium: at the widths of a laptop screen every table
 * stays inside its panel and the page never scrolls sideways, however long the ids, URLs and
 * references; the events panel shows one page at a time and keeps an older page in place while
 * new events arrive; an action the onboarding no longer allows is not offered.
 */
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);

/** A new workspace with a frozen clock at FROZEN_START, and its Acme owner key. */
async function newWorkspace(): Promise<{ id: string; owner: string }> {
  const ws = await api('POST', '/_emulator/workspaces', { clock: { mode: 'frozen', start: FROZEN_START } });
  expect(ws.status).toBe(201);
  const keys = ws.body.keys as { key: string }[];
  return { id: ws.body.id as string, owner: keys.find((k) => k.key.startsWith(KEYS.owner))!.key };
}

/** `count` onboardings (each with its invitation: two events), the last with `last` as overrides. */
async function onboardings(ws: { owner: string }, count: number, last: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const overrides = { reference: `T-${i}`, options: { send_invitation: true }, ...(i === count - 1 ? last : {}) };
    const created = await api('POST', '/v1/onboardings', createBody(overrides), ws.owner);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ids.push(created.body.id as string);
  }
  return ids;
}

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await env.browser.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('#clock-now').waitFor();
  return { page, errors };
}

/** The events panel (the requests panel has its own "Older" and "Newer"). */
const events = (page: Page) => page.locator('#events');

/** The ids of the event rows the page shows, top to bottom. */
const shownEvents = (page: Page) => page.locator('#events-content tr[data-event]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event')));

/** The newest `limit` event ids of the workspace after skipping `skip`, as the control API lists them. */
async function eventIds(ws: string, skip: number, limit: number): Promise<string[]> {
  const res = await api('GET', `/_emulator/workspaces/${ws}/events?limit=1000`);
  return (res.body.data as { id: string }[]).slice(skip, skip + limit).map((e) => e.id);
}

/** Resolves after the page polled `n` more times. */
async function polls(page: Page, n: number): Promise<void> {
  const now = Number(await page.locator('body').getAttribute('data-polls'));
  await page.waitForFunction((target) => Number((globalThis as unknown as { document: PageDocument }).document.body.getAttribute('data-polls')) >= target, now + n);
}

const env = useBrowserAndEmulator();

describe("the inspector's tables", () => {
  it('from 1200 to 1400 px wide, with a long webhook URL, a long reference and many events, no table leaves its panel and the page does not scroll sideways', async () => {
    const ws = await newWorkspace();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/${'hooks-for-the-onboarding-emulator-'.repeat(6)}?signature_check=${'0123456789abcdef'.repeat(8)}`;
    expect((await api('POST', '/v1/webhooks', { url }, ws.owner)).status).toBe(201);
    const reference = `REF-${'X'.repeat(190)}`;
    const [id] = (await onboardings(ws, 30, {
      reference,
      employee: { first_name: 'Maximiliaan-Alexander-Bartholomeus', last_name: 'van-den-Heuvel-Oppenheimer-Tjeenk-Willink', email: 'a.very.long.address.for.the.onboarding.inspector@example.test' },
    })).slice(-1);
    // Some approvals, so the onboarding panel has its approvals table too.
    // Typed, not `as const`: a const literal with `user_id` here made TypeScript treat a missing
    // `user_id` elsewhere in the program (test/unit/fixtures.test.ts) as read-only.
    const steps: [string, Record<string, string>][] = [['employee/open', {}], ['employee/submit', {}], ['verify-identity', {}], ['approve', { user_id: 'usr_acme_mark', role: 'manager' }]];
    for (const [action, body] of steps) {
      expect((await api('POST', `/_emulator/workspaces/${ws.id}/onboardings/${id!}/${action}`, body)).status).toBe(200);
    }
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}&onboarding=${id!}`);
    await page.locator('#onboarding-content table').waitFor();
    await page.locator('#webhooks-content tr[data-delivery]').first().waitFor();
    await page.locator('#events-content tr[data-event]').first().waitFor();
    await page.locator('#outbox-content table').waitFor();
    expect(await page.locator('#onboarding-content').innerText()).toContain(reference);

    for (const width of [1200, 1280, 1300, 1320, 1340, 1366, 1400]) {
      await page.setViewportSize({ width, height: 900 });
      await polls(page, 1);
      const layout = await page.evaluate(() => {
        const g = globalThis as unknown as { innerWidth: number; document: PageDocument };
        const doc = g.document;
        const tables = [...doc.querySelectorAll('main table')].map((t) => {
          const panel = t.closest('.panel')!;
          return { panel: panel.id, right: t.getBoundingClientRect().right, panelRight: panel.getBoundingClientRect().right, wider: t.scrollWidth > t.clientWidth };
        });
        // The panels' scroll containers are a last resort: at these widths none needs to scroll.
        const boxes = [...doc.querySelectorAll('main .content')].map((c) => ({ id: c.id, scroll: c.scrollWidth, client: c.clientWidth }));
        return { scrollWidth: doc.documentElement.scrollWidth, innerWidth: g.innerWidth, tables, boxes };
      });
      expect(layout.tables.map((t) => t.panel).sort()).toEqual(expect.arrayContaining(['events', 'onboarding', 'onboardings', 'outbox', 'requests', 'webhooks']));
      expect(layout.scrollWidth, `page width at ${width}`).toBeLessThanOrEqual(layout.innerWidth);
      for (const t of layout.tables) {
        expect(t.right, `a table of ${t.panel} at ${width}`).toBeLessThanOrEqual(t.panelRight);
        expect(t.wider, `a table of ${t.panel} at ${width} overflows itself`).toBe(false);
      }
      for (const b of layout.boxes) expect(b.scroll, `${b.id} at ${width} scrolls sideways`).toBeLessThanOrEqual(b.client);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the events panel shows one page; "Older" shows the next and stays there while new events arrive; "Newer" and "Latest" go back', async () => {
    const ws = await newWorkspace();
    await onboardings(ws, 60); // 120 events, and the fixtures'
    const total = ((await api('GET', `/_emulator/workspaces/${ws.id}/events?limit=1`)).body.total as number);
    expect(total).toBeGreaterThanOrEqual(120);
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}`);
    await page.locator('#events-content tr[data-event]').first().waitFor();
    expect(await shownEvents(page)).toEqual(await eventIds(ws.id, 0, 25));
    expect(await page.locator('#events-range').innerText()).toBe(`Events 1–25 of ${total}`);
    expect(await events(page).getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);

    await events(page).getByRole('button', { name: 'Older' }).click();
    await page.locator('#events-range', { hasText: `Events 26–50 of ${total}` }).waitFor();
    const second = await eventIds(ws.id, 25, 25);
    expect(await shownEvents(page)).toEqual(second);
    await expect(events(page).getByRole('button', { name: 'Older' }).evaluate((el) => el === (globalThis as unknown as { document: PageDocument }).document.activeElement)).resolves.toBe(true);

    // New events while the viewer reads older ones: the same rows stay, only the count moves.
    await onboardings(ws, 1);
    await page.locator('#events-range', { hasText: `Events 28–52 of ${total + 2}` }).waitFor({ timeout: 10_000 });
    await polls(page, 1);
    expect(await shownEvents(page)).toEqual(second);

    await events(page).getByRole('button', { name: 'Older' }).click();
    await page.locator('#events-range', { hasText: `Events 53–77 of ${total + 2}` }).waitFor();
    expect(await shownEvents(page)).toEqual(await eventIds(ws.id, 52, 25));
    await events(page).getByRole('button', { name: 'Newer' }).click();
    await page.locator('#events-range', { hasText: `Events 28–52 of ${total + 2}` }).waitFor();
    expect(await shownEvents(page)).toEqual(second);

    // Back to the latest page, which follows new events again.
    await events(page).getByRole('button', { name: 'Latest (live)' }).click();
    await page.locator('#events-range', { hasText: `Events 1–25 of ${total + 2}` }).waitFor();
    await onboardings(ws, 1);
    await page.locator('#events-range', { hasText: `Events 1–25 of ${total + 4}` }).waitFor({ timeout: 10_000 });
    expect(await shownEvents(page)).toEqual(await eventIds(ws.id, 0, 25));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('offers employee/open until the employee opened the link, then no longer', async () => {
    const ws = await newWorkspace();
    const [id] = await onboardings(ws, 1);
    const { page, errors } = await open(`/_emulator/ui?workspace=${ws.id}&onboarding=${id!}`);
    const actions = page.locator('#onboarding-content .actions');
    await actions.getByRole('button', { name: 'employee/open' }).click();
    await page.getByRole('alert').filter({ hasText: `employee/open: ${id!} is now pending_employee.` }).waitFor();
    await actions.getByRole('button', { name: 'employee/submit' }).waitFor();
    expect(await actions.getByRole('button', { name: 'employee/open' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
