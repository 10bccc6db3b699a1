import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { approve, employeeSubmit, sendContract, verifyIdentity } from '../../../src/resources/onboardings/onboardings.lifecycle.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, KEYS } from '../../support/harness.js';
import { until } from '../../support/wait.js';

/**
 * The contract PDF behind the hosted pages carries the restrictive policy of files
 * (default-src 'none', frame-ancestors 'none'). Chrome's PDF viewer can be blocked by a policy
 * on the PDF's response: this opens the contract in headless Chromium and reads the viewer's
 * toolbar, which shows the document's own title and page count only once the PDF rendered.
 */
const env = useBrowserAndEmulator();

const ws = () => env.emulator.defaultWorkspace;

/** Created, opened and confirmed with the code in the browser, submitted, approved and the contract sent. */
async function awaitingSignature(page: Page): Promise<string> {
  const res = await fetch(`${env.server.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEYS.owner}` },
    body: JSON.stringify(createBody()),
  });
  const body = (await res.json()) as { id: string; hosted_url: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  await page.goto(body.hosted_url);
  const code = ws().outbox.filter((m) => m.onboarding_id === body.id && m.kind === 'one_time_code').at(-1)!.code!;
  await page.getByLabel('One-time code').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForLoadState();
  const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
  let r = verifyIdentity(ws(), employeeSubmit(ws(), ws().store.onboardings.get(body.id)!));
  for (const role of r.required_roles) r = approve(ws(), r, ws().store.users.get(users[role])!, role, r.data_version);
  sendContract(ws(), r, env.server.url);
  return body.hosted_url;
}

async function viewerFrame(page: Page): Promise<Frame> {
  const viewer = () => page.frames().find((f) => f.url().startsWith('chrome-extension://'));
  await until(() => viewer() !== undefined, 'the PDF viewer in the page', 10_000).catch((err: Error) => {
    throw new Error(`${err.message}; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
  });
  return viewer()!;
}

/** A node of the viewer's document (no DOM types in this project). */
interface ViewerNode {
  shadowRoot: ViewerNode | null;
  textContent: string | null;
  querySelector(selector: string): ViewerNode | null;
}

/**
 * Runs inside the viewer's frame (a function, not a string: the viewer's own policy forbids
 * eval). The toolbar shows the file name until the PDF is parsed, then the document's title and
 * its page count; undefined (falsy, so waitForFunction keeps polling) until then.
 */
function toolbar(): { title: string; pages: string } | undefined {
  const doc = (globalThis as unknown as { document: ViewerNode }).document;
  const bar = doc.querySelector('pdf-viewer')?.shadowRoot?.querySelector('viewer-toolbar')?.shadowRoot;
  const title = bar?.querySelector('#title')?.textContent ?? '';
  const pages = (bar?.querySelector('viewer-page-selector')?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');
  return title === '' || title.endsWith('.pdf') ? undefined : { title, pages };
}

describe('the contract PDF in Chromium', () => {
  it("renders in the PDF viewer under the files' Content-Security-Policy", async () => {
    const page = await env.browser.context.newPage();
    const url = await awaitingSignature(page);
    const response = await page.goto(`${url}/contract.pdf`);
    expect(response!.status()).toBe(200);
    expect((await response!.allHeaders())['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self' app.acme.test:* *.acme.test:*");
    const viewer = await viewerFrame(page);
    await viewer.waitForFunction(toolbar, null, { timeout: 15_000, polling: 100 }).catch(() => undefined);
    expect(await viewer.evaluate(toolbar)).toEqual({ title: 'Employment contract (fictitious)', pages: ' / 1 ' });
    await page.close();
  }, 60_000);
});
