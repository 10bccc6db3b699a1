import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { approve, sendContract, verifyIdentity } from '../../../src/resources/onboardings/onboardings.lifecycle.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, KEYS } from '../../support/harness.js';

/**
 * The employee's hosted pages in headless Chromium against a real server on 127.0.0.1: from
 * the link to submitted (a wrong code and a field error on the way), the contract signature,
 * the redirect to return_url through the page's form-action policy, and a name made of markup
 * that stays text (no dialog, no script). No script runs on these pages at all: plain forms.
 */
const ID_DOCUMENT = fileURLToPath(new URL('../../../fixtures/documents/identity-document.jpg', import.meta.url));

const env = useBrowserAndEmulator();

const ws = () => env.emulator.defaultWorkspace;

async function created(overrides: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const res = await fetch(`${env.server.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEYS.owner}` },
    body: JSON.stringify(createBody(overrides)),
  });
  const body = (await res.json()) as { id: string; hosted_url: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return { id: body.id, url: body.hosted_url };
}

const codeOf = (id: string) => ws().outbox.filter((m) => m.onboarding_id === id && m.kind === 'one_time_code').at(-1)!.code!;

/** A page that fails the test on any dialog (an injected alert would open one). */
async function newPage(dialogs: string[]): Promise<Page> {
  const page = await env.browser.context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return page;
}

async function confirmCode(page: Page, id: string): Promise<void> {
  await page.getByLabel('One-time code').fill(codeOf(id));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForLoadState();
}

async function fillDetails(page: Page, fields: { iban?: string } = {}): Promise<void> {
  await page.getByLabel('Street').fill('Damrak');
  await page.getByLabel('House number').fill('12A');
  await page.getByLabel('Postcode').fill('1012 AB');
  await page.getByLabel('City').fill('Amsterdam');
  await page.getByLabel('Date of birth').fill('1990-04-23');
  await page.getByLabel('IBAN').fill(fields.iban ?? 'NL91 ABNA 0417 1643 00');
  await page.getByLabel(/^BSN/).fill('111222333');
  await page.getByLabel(/passport or identity card/).setInputFiles(ID_DOCUMENT);
}

/** What the reviewers and the employer do between the form and the signature. */
function contractSent(id: string): void {
  const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
  let r = verifyIdentity(ws(), ws().store.onboardings.get(id)!);
  for (const role of r.required_roles) r = approve(ws(), r, ws().store.users.get(users[role])!, role, r.data_version);
  sendContract(ws(), r, env.server.url);
}

describe('the employee in a browser', () => {
  it('opens the link, mistypes the code, fills in the form with a wrong IBAN, corrects it and submits', async () => {
    const { id, url } = await created({ employee: { first_name: 'Sem', last_name: 'de Groot', email: 'sem@example.test' } });
    const dialogs: string[] = [];
    const page = await newPage(dialogs);
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Welcome to your onboarding at Acme Retail B.V.');
    expect(await page.locator('header.brand').textContent()).toBe('Acme Retail B.V.');
    // The brand colour comes through the hash-admitted style block.
    expect(await page.locator('header.brand').evaluate((e) => (globalThis as unknown as { getComputedStyle: (el: unknown) => { backgroundColor: string } }).getComputedStyle(e).backgroundColor)).toBe('rgb(11, 110, 79)');

    const good = codeOf(id);
    await page.getByLabel('One-time code').fill(good === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.locator('#code-error').textContent()).toContain('That code is not right. 4 attempts are left');
    expect(await page.getByLabel('One-time code').getAttribute('aria-invalid')).toBe('true');
    await confirmCode(page, id);
    expect(await page.locator('h1').textContent()).toBe('Hello Sem, welcome to Acme Retail B.V.');
    expect(ws().store.onboardings.get(id)!.started_at).not.toBeNull();

    await fillDetails(page, { iban: 'NL91 ABNA 0417 1643 01' });
    await page.getByRole('button', { name: 'Send my details' }).click();
    expect(await page.locator('#iban-error').textContent()).toContain('mod-97');
    expect(await page.getByLabel('IBAN').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.error-summary a').textContent()).toContain('IBAN:');
    expect(await page.getByLabel('Street').inputValue()).toBe('Damrak');
    expect(ws().store.onboardings.get(id)!.status).toBe('pending_employee');
    // The summary's link moves the focus to the field.
    await page.locator('.error-summary a').click();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id)).toBe('iban');

    await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
    await page.getByLabel(/passport or identity card/).setInputFiles(ID_DOCUMENT);
    await page.getByRole('button', { name: 'Send my details' }).click();
    expect(await page.locator('h1').textContent()).toBe('Thank you, Sem');
    expect(await page.locator('main').textContent()).toContain('What happens next');
    const r = ws().store.onboardings.get(id)!;
    expect(r.status).toBe('in_review');
    expect(r.employee_details).toMatchObject({ iban: 'NL91ABNA0417164300', bsn: '111222333', identity_document: { file_name: 'identity-document.jpg', content_type: 'image/jpeg' } });
    expect(dialogs).toEqual([]);
    await page.close();
  }, 60_000);

  it('reads the contract and signs it; the form redirects to the return_url', async () => {
    const { id, url } = await created({ options: { return_url: 'https://app.acme.test/welcome' } });
    const page = await newPage([]);
    // The partner's site is not reachable here: answer it in the browser to see the redirect arrive.
    await page.route('https://app.acme.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Partner welcome</h1>' }));
    await page.goto(url);
    await confirmCode(page, id);
    await fillDetails(page);
    await page.getByRole('button', { name: 'Send my details' }).click();
    await page.waitForURL('https://app.acme.test/welcome');
    expect(await page.locator('h1').textContent()).toBe('Partner welcome');

    contractSent(id);
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Your employment contract');
    const href = await page.getByRole('link', { name: 'Read the contract (PDF)' }).getAttribute('href');
    const pdf = await page.request.get(new URL(href!, url).toString());
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await page.getByRole('button', { name: 'Sign the contract' }).click();
    await page.waitForURL('https://app.acme.test/welcome');
    const r = ws().store.onboardings.get(id)!;
    expect(r.status).toBe('awaiting_employer_signature');
    expect(ws().store.events.values().filter((e) => e.data.onboarding_id === id).map((e) => e.type)).toContain('contract.signed_by_employee');
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toContain('Thank you');
    expect(await page.locator('main').textContent()).toContain('You signed your contract');
    await page.close();
  }, 60_000);

  it('an employee named <img src=x onerror=alert(1)> is shown as text on every page, and no script runs', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const { id, url } = await created({ employee: { first_name: name, last_name: '<script>alert(2)</script>', email: 'xss@example.test' } });
    const dialogs: string[] = [];
    const page = await newPage(dialogs);
    await page.goto(url);
    await confirmCode(page, id);
    expect(await page.locator('h1').textContent()).toBe(`Hello ${name}, welcome to Acme Retail B.V.`);
    expect(await page.locator('main img').count()).toBe(0);
    await fillDetails(page, { iban: 'NL00 0000' });
    await page.getByRole('button', { name: 'Send my details' }).click();
    expect(await page.locator('h1').textContent()).toBe(`Hello ${name}, welcome to Acme Retail B.V.`);
    await page.getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00');
    await page.getByLabel(/passport or identity card/).setInputFiles(ID_DOCUMENT);
    await page.getByRole('button', { name: 'Send my details' }).click();
    expect(await page.locator('h1').textContent()).toBe(`Thank you, ${name}`);
    contractSent(id);
    await page.goto(url);
    await page.getByRole('button', { name: 'Sign the contract' }).click();
    expect(await page.locator('h1').textContent()).toBe(`Thank you, ${name}`);
    expect(await page.locator('img, script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  }, 60_000);
});
