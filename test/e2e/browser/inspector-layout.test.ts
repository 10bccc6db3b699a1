import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';
import { closedPort, jsonRequest } from '../../support/net.js';

/**
 * The inspector on a laptop screen (1280 × 800): the webhook deliveries, what a partner opens it
 * for, are on the first screen however many events the workspace has, and an id (onb_…, evt_…,
 * whd_…) is never cut across two lines, where it could not be read or copied as one.
 */
const api = (method: string, path: string, body?: unknown, key?: string) => jsonRequest(env.server.url, method, path, body, key);
const env = useBrowserAndEmulator();

/** Ids as the emulator makes them: a known prefix, an underscore, then letters and digits. */
const ID = /\b(?:onb|emp|org|wh|whd|evt|req|ws|usr|rvs|mail|flt|dft)_[A-Za-z0-9]{6,}\b/g;

/** A workspace with a webhook address nobody answers and `count` onboardings, each with its invitation: deliveries and a full page of events. */
async function busyWorkspace(count: number): Promise<string> {
  const ws = await api('POST', '/_emulator/workspaces', { clock: { mode: 'frozen', start: FROZEN_START } });
  expect(ws.status).toBe(201);
  const owner = (ws.body.keys as { key: string }[]).find((k) => k.key.startsWith(KEYS.owner))!.key;
  expect((await api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${await closedPort()}/hooks` }, owner)).status).toBe(201);
  for (let i = 0; i < count; i++) {
    const created = await api('POST', '/v1/onboardings', createBody({ reference: `L-${i}`, options: { send_invitation: true } }), owner);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  return ws.body.id as string;
}

async function open(path: string, width: number, height: number): Promise<Page> {
  const page = await env.browser.context.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('#webhooks-content tr[data-delivery]').first().waitFor();
  await page.locator('#events-content tr[data-event]').first().waitFor();
  return page;
}

/** Every id shown on the page, with the number of lines its text takes (the client rects of a range around it). */
function idLines(page: Page): Promise<{ id: string; lines: number }[]> {
  return page.evaluate((source) => {
    const pattern = new RegExp(source, 'g');
    // Types of the few DOM calls made, as the tests have no DOM types.
    interface TextNode { data: string; parentElement: { closest(s: string): unknown } | null }
    interface Doc {
      body: unknown;
      createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
      createRange(): { setStart(n: TextNode, o: number): void; setEnd(n: TextNode, o: number): void; getClientRects(): { length: number; [i: number]: { top: number; height: number } } };
    }
    const doc = (globalThis as unknown as { document: Doc }).document;
    const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
    const found: { id: string; lines: number }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Hidden text (a select's options, the visually-hidden captions) is not read on screen.
      if (node.parentElement?.closest('option, .visually-hidden, [hidden]')) continue;
      for (const match of node.data.matchAll(pattern)) {
        const range = doc.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = range.getClientRects();
        // Rects on one line share their top; a wrapped id has rects on two tops.
        const tops = new Set<number>();
        for (let i = 0; i < rects.length; i++) if (rects[i]!.height > 0) tops.add(Math.round(rects[i]!.top));
        found.push({ id: match[0], lines: tops.size });
      }
    }
    return found;
  }, ID.source);
}

describe('the inspector at 1280 × 800', () => {
  it('shows the webhook deliveries without scrolling, with a full page of events', async () => {
    const ws = await busyWorkspace(15);
    const page = await open(`/_emulator/ui?workspace=${ws}`, 1280, 800);
    expect(await page.locator('#events-content tr[data-event]').count()).toBe(25);
    expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBe(0);
    const panel = (await page.locator('#webhooks').boundingBox())!;
    expect(panel.y).toBeLessThan(800);
    // Not only the heading: the first delivery's row is on the screen too.
    const row = (await page.locator('#webhooks-content tr[data-delivery]').first().boundingBox())!;
    expect(row.y + row.height).toBeLessThanOrEqual(800);
    // At this width the onboardings list has room for its ids whole (narrower, they end in an ellipsis).
    const cut = await page.locator('#onboardings-content .id').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).length);
    expect(cut).toBe(0);
    await page.close();
  });

  it.each([1280, 1024, 800])('at %i px wide, keeps every id on one line (onboarding, delivery and event ids included)', async (width) => {
    const ws = await busyWorkspace(3);
    const firstOnboarding = ((await api('GET', `/_emulator/workspaces/${ws}/onboardings`)).body.data as { id: string }[])[0]!.id;
    const page = await open(`/_emulator/ui?workspace=${ws}&onboarding=${firstOnboarding}`, width, 800);
    await page.locator('#onboarding-content dl').first().waitFor();
    const ids = await idLines(page);
    const prefixes = new Set(ids.map((i) => i.id.split('_')[0]));
    for (const p of ['onb', 'whd', 'evt', 'wh']) expect(prefixes, `an ${p}_ id on the page`).toContain(p);
    expect(ids.filter((i) => i.lines !== 1)).toEqual([]);
    await page.close();
  });
});
