import type { Frame, Locator, Page } from 'playwright-core';
import type { PageTestId } from '../pages/test-ids.js';

/**
 * Where the emulator's pages are shown: a tab (a Page) or a frame of a partner's page (a Frame).
 * The helpers find every element by the selector contract's data-testid attribute, written out
 * as CSS, so a suite that set another test id attribute for its own markup still finds ours.
 */
export type Surface = Page | Frame;

export const byTestId = (surface: Surface, id: PageTestId, value?: string): Locator =>
  surface.locator(`[data-testid="${id}"]${value === undefined ? '' : `[value="${value.replace(/["\\]/g, '\\$&')}"]`}`);

const frameOfSurface = (surface: Surface): Frame => ('mainFrame' in surface ? surface.mainFrame() : surface);

/** A helper's bound on each wait: its `timeout` option, else Playwright's own default. */
export const within = (timeout: number | undefined): { timeout?: number } => (timeout === undefined ? {} : { timeout });

/**
 * Clicks a button of a form and waits for the document it leads to: the form posts and the
 * emulator answers with a page, or redirects to one (the link's next page, a return_url).
 */
export async function submitWith(surface: Surface, button: Locator, timeout?: number): Promise<void> {
  const frame = frameOfSurface(surface);
  const navigated = frame.page().waitForEvent('framenavigated', { predicate: (f) => f === frame, ...within(timeout) });
  // Awaited below; when the click fails first, its error is the one thrown and this wait's own end must not go unhandled.
  navigated.catch(() => undefined);
  await button.click(within(timeout));
  await navigated;
  await frame.waitForLoadState('domcontentloaded', within(timeout));
}

/** The text of the first element `locator` finds, or null at once when the page has none. */
export async function textIfShown(locator: Locator, timeout?: number): Promise<string | null> {
  if ((await locator.count()) === 0) return null;
  return ((await locator.first().textContent(within(timeout))) ?? '').trim();
}

/** The page's notice, when it shows one: what just happened (status) or what went wrong (alert). */
export async function noticeOf(surface: Surface, timeout?: number): Promise<{ kind: 'ok' | 'error'; text: string } | null> {
  const notice = byTestId(surface, 'notice');
  const text = await textIfShown(notice, timeout);
  if (text === null) return null;
  return { kind: (await notice.first().getAttribute('role', within(timeout))) === 'alert' ? 'error' : 'ok', text };
}

/** The page's heading; empty at once on a page without one (not the emulator's). */
export async function titleOf(surface: Surface, timeout?: number): Promise<string> {
  return (await textIfShown(byTestId(surface, 'page-title'), timeout)) ?? '';
}

/**
 * The frame of a partner's page that shows one of the emulator's pages: the first iframe whose
 * src is a hosted_url or review_url (embed.js sets the review's), or the iframe `selector` names.
 * It is handed over once the frame has the emulator's page, not the blank document an iframe
 * starts with (a page that adds its frame after loading is still navigating it).
 */
export async function frameShowing(page: Page, kind: 'hosted' | 'review', options: { selector?: string; timeout?: number } = {}): Promise<Frame> {
  const selector = options.selector ?? `iframe[src*="/${kind}/"]`;
  const element = await page.locator(selector).first().elementHandle(within(options.timeout));
  const frame = await element?.contentFrame();
  if (!frame) throw new Error(`no frame matching ${selector} on ${page.url()}`);
  await frame.waitForURL((url) => url.pathname.startsWith(`/${kind}/`), { ...within(options.timeout), waitUntil: 'domcontentloaded' });
  return frame;
}

/** A page said no: the alert's words, and for a form the message at each field it named. */
export class PageRefusal extends Error {
  constructor(message: string, readonly fields: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'PageRefusal';
  }
}
