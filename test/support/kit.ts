import { afterEach, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { httpControl } from '../../src/client/http.js';
import type { BrowserAndEmulator } from './browser.js';

/**
 * Shared by the tests of the Playwright helpers (test/e2e/browser/kit-*.test.ts): tabs closed
 * after each test, a partner's POST to /v1, and the review between the employee's form and the
 * signature done through the control API, as a partner's CI drives it.
 */

/** A new tab of the file's browser, closed after the test that opened it. */
export function useTabs(env: BrowserAndEmulator): () => Promise<Page> {
  const opened: Page[] = [];
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.close();
  });
  return async () => {
    const page = await env.browser.context.newPage();
    opened.push(page);
    return page;
  };
}

/** POST to the emulator's /v1 with `key`, expecting 201: the answer's body. */
export async function created(base: string, path: string, body: unknown, key: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` }, body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** Identity confirmed, one approval per required role by Acme's users (four-eyes), the contract sent: all through the control API. */
export async function reviewedAndSent(env: BrowserAndEmulator, id: string): Promise<void> {
  const control = httpControl({ url: env.server.url });
  const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
  const record = () => env.emulator.defaultWorkspace.store.onboardings.get(id)!;
  await control.onboardings.verifyIdentity(id, users.manager);
  for (const role of record().required_roles) await control.onboardings.approve(id, role, users[role], record().data_version);
  await control.onboardings.sendContract(id);
}
