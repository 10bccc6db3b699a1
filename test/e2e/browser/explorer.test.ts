import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { KEYS } from '../../support/harness.js';

/**
 * The API explorer (README) in headless Chromium against a real emulator on
 * 127.0.0.1: it renders the OpenAPI document from the emulator's own files under its strict
 * policy with nothing refused, lists the well-known keys, and one request sent with
 * "Try it out" comes back from the emulator and is shown.
 */
const env = useBrowserAndEmulator();

// Swagger UI reads a large document: on a busy two-core machine it takes seconds to start.
const SLOW = 90_000;

interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions, CSP refusals among them. */
  errors: string[];
  /** Every request the page made that did not go to the emulator. */
  elsewhere: string[];
}

async function open(path: string): Promise<Opened> {
  const page = await env.browser.context.newPage();
  page.setDefaultTimeout(SLOW / 2);
  const errors: string[] = [];
  const elsewhere: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  // A refusal by the policy, reported by the page itself as well as by the browser's console.
  await page.addInitScript(() => {
    const doc = (globalThis as unknown as { document: { addEventListener(type: string, fn: (e: { violatedDirective: string; blockedURI: string }) => void): void } }).document;
    doc.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(env.server.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  await page.goto(`${env.server.url}${path}`);
  await page.locator('body[data-explorer="ready"]').waitFor();
  return { page, errors, elsewhere };
}

interface Doc {
  info: { title: string };
  paths: Record<string, Record<string, { tags: string[]; operationId: string }>>;
}

/** The document the explorer shows, as the emulator serves it. */
async function served(): Promise<Doc> {
  return (await (await fetch(`${env.server.url}/openapi.json`)).json()) as Doc;
}

/**
 * GET /v1/onboardings opened by its deep link, #/<tag>/<operationId> (Swagger UI draws
 * operations as they scroll into view, so a link is how a person and this test reach one far
 * down the page).
 */
async function listLink(): Promise<string> {
  const op = (await served()).paths['/v1/onboardings']!.get!;
  return `/_emulator/docs#/${encodeURIComponent(op.tags[0]!)}/${encodeURIComponent(op.operationId)}`;
}
const listOperation = (page: Page) =>
  page.locator('.opblock-get.is-open').filter({ has: page.locator('.opblock-summary-path[data-path="/v1/onboardings"]') });

describe('the API explorer in a browser', () => {
  it('renders the document under its policy with no violation, and lists the keys with the owner key in use', async () => {
    const { page, errors, elsewhere } = await open('/_emulator/docs');
    await expect(page.locator('.swagger-ui .info .title').innerText()).resolves.toContain((await served()).info.title);
    await page.locator('.opblock-summary-path[data-path="/v1/organizations"]').waitFor();
    // The keys of the workspace, each one click away; the owner's in use.
    const keys = await page.locator('#key-list code').allInnerTexts();
    expect(keys).toEqual(expect.arrayContaining(Object.values(KEYS)));
    expect(await page.locator('#key-current').innerText()).toBe(KEYS.owner);
    await expect(page.getByRole('button', { name: `Use ${KEYS.owner}` }).getAttribute('aria-pressed')).resolves.toBe('true');
    // Swagger UI's own Authorize dialog shows the key as given.
    await page.locator('.auth-wrapper .authorize').click();
    await page.locator('.modal-ux').getByRole('button', { name: 'Remove authorization' }).waitFor();
    await page.locator('.modal-ux .close-modal').click();
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
    // Control: an inline script is refused, and the refusal is seen.
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { createElement(t: string): { textContent: string }; body: { append(n: unknown): void } } }).document;
      const script = doc.createElement('script');
      script.textContent = 'void 0';
      doc.body.append(script);
    });
    await expect.poll(() => errors.some((e) => e.startsWith('CSP violation: script-src-elem inline'))).toBe(true);
    await page.close();
  }, SLOW);

  it('sends GET /v1/onboardings with the owner key through "Try it out" and shows the 200 answer', async () => {
    const { page, errors, elsewhere } = await open(await listLink());
    const op = listOperation(page);
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/v1/onboardings');
    await op.getByRole('button', { name: 'Execute' }).click();
    const request = await sent;
    expect(request.headers().authorization).toBe(`Bearer ${KEYS.owner}`);
    const live = op.locator('.live-responses-table .response');
    await expect(live.locator('.response-col_status').innerText()).resolves.toMatch(/^200/);
    await expect(live.locator('.response-col_description').innerText()).resolves.toContain('"onb_demo_jansen"');
    expect(errors).toEqual([]);
    expect(elsewhere).toEqual([]);
    await page.close();
  }, SLOW);

  it('another key from the list is used for the next request', async () => {
    const { page, errors } = await open('/_emulator/docs');
    await page.getByRole('button', { name: `Use ${KEYS.noscopes}` }).click();
    expect(await page.locator('#key-current').innerText()).toBe(KEYS.noscopes);
    // As a person finds it: the filter, then the operation.
    await page.getByPlaceholder('Filter by tag or path').fill((await served()).paths['/v1/onboardings']!.get!.tags[0]!);
    await page.locator('.opblock-get .opblock-summary-path[data-path="/v1/onboardings"]').click();
    const op = listOperation(page);
    await op.getByRole('button', { name: 'Execute' }).click();
    await expect(op.locator('.live-responses-table .response .response-col_status').innerText()).resolves.toMatch(/^403/);
    // The browser reports the refused request itself, and nothing else.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 403 (Forbidden)']);
    await page.close();
  }, SLOW);

  it('is linked from the inspector', async () => {
    const page = await env.browser.context.newPage();
    page.setDefaultTimeout(SLOW / 2);
    await page.goto(`${env.server.url}/_emulator/ui`);
    await page.getByRole('link', { name: 'API explorer' }).click();
    await page.locator('body[data-explorer="ready"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/_emulator/docs');
    await page.close();
  }, SLOW);
});
