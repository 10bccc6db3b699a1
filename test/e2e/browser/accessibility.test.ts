import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { approve, sendContract, verifyIdentity } from '../../../src/resources/onboardings/onboardings.lifecycle.js';
import { DETAIL_FIELDS } from '../../../src/resources/onboardings/onboardings.employee-form.js';
import { axeViolations, describeViolations, isBlocking } from '../../support/axe.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { approved, submitted } from '../../support/journey.js';
import { createBody, KEYS } from '../../support/harness.js';

/**
 * Every page and state of the employee's hosted pages and of the review page, checked with
 * axe-core (WCAG 2.x A and AA, best practices) in headless Chromium: none may have a serious or
 * critical violation. Beside axe: every form control has an accessible name, a field in error
 * points at its message, the error summary's links move the focus, Tab follows the visual
 * order, and no element has a positive tabindex.
 */
const ID_DOCUMENT = fileURLToPath(new URL('../../../fixtures/documents/identity-document.jpg', import.meta.url));
const HOUR = 60 * 60 * 1000;

const env = useBrowserAndEmulator();
const ws = () => env.emulator.defaultWorkspace;

let shared: Page | undefined;
/** One tab for the whole file: every state is a navigation in it. */
async function tab(): Promise<Page> {
  shared ??= await env.browser.context.newPage();
  return shared;
}
afterAll(async () => {
  await shared?.close();
});

/** What axe found per page, for the summary printed when AXE_SUMMARY is set. */
const found = new Map<string, string>();
afterAll(() => {
  if (process.env.AXE_SUMMARY) console.log([...found].map(([page, v]) => `${page}: ${v}`).join('\n'));
});

/** The page as it is now: no serious or critical violation; the rest named in the message. */
async function expectAccessible(page: Page, name: string, status?: number): Promise<void> {
  const violations = await axeViolations(page);
  found.set(name, describeViolations(violations));
  expect.soft(violations.filter(isBlocking).map((v) => `${v.id} (${v.impact})`), `${name}: ${describeViolations(violations)}`).toEqual([]);
  expect.soft(await positiveTabindex(page), `${name}: positive tabindex`).toEqual([]);
  if (status !== undefined) expect.soft(await statusOf(page), `${name}: status`).toBe(status);
}

/** The status the last navigation answered, read from the browser's own timing entry. */
const statusOf = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { performance: { getEntriesByType(t: string): { responseStatus: number }[] } }).performance.getEntriesByType('navigation')[0]!.responseStatus);

/** The page's document as the functions run in it use it (the tests have no DOM types). */
interface Element {
  id: string;
  tagName: string;
  getAttribute(name: string): string | null;
}
interface Doc {
  activeElement: Element | null;
  body: Element & { appendChild(e: unknown): void };
  querySelectorAll(selector: string): Iterable<Element>;
  createElement(tag: string): Element & { setAttribute(n: string, v: string): void; appendChild(e: unknown): void; submit(): void };
}

function positiveTabindex(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<{ outerHTML: string; getAttribute(n: string): string | null }> } }).document;
    return [...d.querySelectorAll('[tabindex]')].filter((e) => Number(e.getAttribute('tabindex')) > 0).map((e) => e.outerHTML);
  });
}

/**
 * A form posted from the page itself (same origin, so form-action admits it): for states only a
 * post reaches, such as a body that is not a web form, rendered by the browser as a person sees it.
 */
async function postFromPage(page: Page, action: string, fields: Record<string, string>, enctype = 'application/x-www-form-urlencoded'): Promise<void> {
  await Promise.all([
    page.waitForNavigation(),
    page.evaluate(({ action, fields, enctype }) => {
      const d = (globalThis as unknown as { document: Doc }).document;
      const form = d.createElement('form');
      form.setAttribute('method', 'post');
      form.setAttribute('action', action);
      form.setAttribute('enctype', enctype);
      for (const [name, value] of Object.entries(fields)) {
        const input = d.createElement('input');
        input.setAttribute('type', 'hidden');
        input.setAttribute('name', name);
        input.setAttribute('value', value);
        form.appendChild(input);
      }
      d.body.appendChild(form);
      form.submit();
    }, { action, fields, enctype }),
  ]);
}

/**
 * Every input, select and textarea with the name assistive technology reads for it, from
 * Chromium's accessibility tree: `data-testid` (or the name attribute) and the accessible name.
 */
async function controlNames(page: Page): Promise<{ control: string; name: string }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: { nodeId: number } };
    const { nodeIds } = (await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: 'input:not([type=hidden]), select, textarea' })) as { nodeIds: number[] };
    const out: { control: string; name: string }[] = [];
    for (const nodeId of nodeIds) {
      const { node } = (await cdp.send('DOM.describeNode', { nodeId })) as { node: { backendNodeId: number; attributes?: string[] } };
      const attrs = node.attributes ?? [];
      const attr = (n: string) => { const i = attrs.indexOf(n); return i >= 0 && i % 2 === 0 ? attrs[i + 1] : undefined; };
      const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: node.backendNodeId, fetchRelatives: false })) as { nodes: { name?: { value?: string } }[] };
      out.push({ control: `${attr('data-testid') ?? attr('name') ?? '?'}${attr('value') && attr('type') === 'radio' ? `=${attr('value')}` : ''}`, name: String(nodes[0]?.name?.value ?? '').trim() });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

async function expectNamedControls(page: Page, name: string): Promise<number> {
  const controls = await controlNames(page);
  expect.soft(controls.filter((c) => c.name === '').map((c) => c.control), `${name}: controls without an accessible name`).toEqual([]);
  return controls.length;
}

/**
 * The data-testid (else tag#id[href=…]) of each element Tab reaches on a page just loaded, from where the
 * page put the focus (the top, or an autofocus field), until the focus leaves the page.
 */
async function tabOrder(page: Page): Promise<string[]> {
  const active = () => page.evaluate(() => {
    const a = (globalThis as unknown as { document: Doc }).document.activeElement;
    if (!a || a.tagName === 'BODY') return null;
    const href = a.getAttribute('href');
    return a.getAttribute('data-testid') ?? `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}${href ? `[href=${href}]` : ''}`;
  });
  const order: string[] = [];
  const first = await active();
  if (first !== null) order.push(first);
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const at = await active();
    if (at === null) break;
    if (at === order.at(-1)) continue; // a date input's parts: one element
    if (order.includes(at)) break;
    order.push(at);
  }
  return order;
}

/** For each error message on the page: the control that says it is invalid and is described by it. */
async function errorAssociations(page: Page): Promise<{ error: string; control: string | null; invalid: string | null; describedBy: boolean }[]> {
  return page.evaluate(() => {
    const d = (globalThis as unknown as { document: Doc }).document;
    const errors = [...d.querySelectorAll('[data-testid^="field-error-"], [data-testid="code-error"], [data-testid="document-error"]')];
    return errors.map((e) => {
      const control = [...d.querySelectorAll('input, select, textarea')].find((c) => (c.getAttribute('aria-describedby') ?? '').split(/\s+/).includes(e.id));
      return {
        error: e.getAttribute('data-testid')!,
        control: control?.getAttribute('data-testid') ?? null,
        invalid: control?.getAttribute('aria-invalid') ?? null,
        describedBy: e.id !== '',
      };
    });
  });
}

async function api(method: string, path: string, body?: unknown, key: string = KEYS.owner): Promise<Record<string, unknown>> {
  const res = await fetch(`${env.server.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

async function created(overrides: Record<string, unknown> = {}): Promise<{ id: string; url: string }> {
  const body = await api('POST', '/v1/onboardings', createBody(overrides));
  return { id: body.id as string, url: body.hosted_url as string };
}

const codeOf = (id: string) => ws().outbox.filter((m) => m.onboarding_id === id && m.kind === 'one_time_code').at(-1)!.code!;
const wrongCode = (id: string) => (codeOf(id) === '000000' ? '111111' : '000000');

async function signIn(page: Page, o: { id: string; url: string }): Promise<void> {
  await page.goto(o.url);
  await page.getByTestId('code-input').fill(codeOf(o.id));
  await Promise.all([page.waitForNavigation(), page.getByTestId('code-submit').click()]);
}

async function fillDetails(page: Page): Promise<void> {
  const good = { street: 'Damrak', house_number: '12A', postcode: '1012 AB', city: 'Amsterdam', birth_date: '1990-04-23', iban: 'NL91 ABNA 0417 1643 00', bsn: '111222333' };
  for (const [f, v] of Object.entries(good)) await page.getByTestId(`field-${f}` as 'field-street').fill(v);
  await page.getByTestId('document-input').setInputFiles(ID_DOCUMENT);
}

/** WCAG 2's contrast ratio of an `rgb(r, g, b)` colour against white. */
function contrastWithWhite(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

describe('the checker', () => {
  it('finds the violations of a page made to have them, through the strict policy of a real page', async () => {
    const page = await tab();
    await page.goto(`${env.server.url}/hosted/no-such-link`);
    // The page's policy admits no script; the checker runs all the same (DevTools evaluation).
    expect(await page.evaluate(() => 'axe' in globalThis)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto('about:blank');
    await page.setContent('<html><body><div><input type="text"><img src="data:,"><p style="color:#777;background:#888">faint</p></div></body></html>');
    const ids = (await axeViolations(page)).map((v) => `${v.id} (${v.impact})`);
    for (const id of ['label (critical)', 'image-alt (critical)', 'color-contrast (serious)', 'html-has-lang (serious)', 'document-title (serious)', 'region (moderate)']) {
      expect(ids).toContain(id);
    }
  }, 60_000);
});

describe('the hosted pages', () => {
  it('the code page: fresh, wrong code, a new code sent, void after 5 wrong; Tab order code-input → code-submit → code-resend', async () => {
    const page = await tab();
    const o = await created();
    await page.goto(o.url);
    await expectAccessible(page, 'hosted: code', 200);
    expect(await expectNamedControls(page, 'hosted: code')).toBe(1);
    expect(await tabOrder(page)).toEqual(['code-input', 'code-submit', 'code-resend']);
    // The focus ring stands out from the white page: at least 3:1 (non-text contrast).
    await page.getByTestId('code-input').focus();
    const ring = await page.getByTestId('code-input').evaluate((e) => {
      const style = (globalThis as unknown as { getComputedStyle(el: unknown): { outlineStyle: string; outlineWidth: string; outlineColor: string } }).getComputedStyle(e);
      return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
    });
    expect(ring).toMatchObject({ style: 'solid', width: '3px' });
    expect(contrastWithWhite(ring.color)).toBeGreaterThanOrEqual(3);

    await page.getByTestId('code-input').fill(wrongCode(o.id));
    await Promise.all([page.waitForNavigation(), page.getByTestId('code-submit').click()]);
    await expectAccessible(page, 'hosted: code, wrong', 422);
    await expectNamedControls(page, 'hosted: code, wrong');
    expect(await errorAssociations(page)).toEqual([{ error: 'code-error', control: 'code-input', invalid: 'true', describedBy: true }]);
    expect(await tabOrder(page)).toEqual(['code-input', 'code-submit', 'code-resend']);

    await Promise.all([page.waitForNavigation(), page.getByTestId('code-resend').click()]);
    expect(await page.getByTestId('notice').textContent()).toContain('A new code is on its way');
    await expectAccessible(page, 'hosted: code, new code sent', 200);

    for (let i = 0; i < 5; i++) {
      await page.getByTestId('code-input').fill(wrongCode(o.id));
      await Promise.all([page.waitForNavigation(), page.getByTestId('code-submit').click()]);
    }
    expect(await page.getByTestId('code-input').count()).toBe(0);
    await expectAccessible(page, 'hosted: code, void', 422);
    expect(await tabOrder(page)).toEqual(['code-resend']);
  }, 60_000);

  it('the details form: empty, every field wrong (summary, messages tied to their fields), returned with a reason', async () => {
    const page = await tab();
    const o = await created();
    await signIn(page, o);
    expect(await page.getByTestId('details-form').count()).toBe(1);
    await expectAccessible(page, 'hosted: details', 200);
    expect(await expectNamedControls(page, 'hosted: details')).toBe(DETAIL_FIELDS.length + 1);
    const fieldOrder = [...DETAIL_FIELDS.map((f) => `field-${f}`), 'document-input', 'details-submit'];
    expect(await tabOrder(page)).toEqual(fieldOrder);

    const wrong = { street: ' ', house_number: 'x', postcode: '0000', city: '', birth_date: '', iban: 'NL00 0000', bsn: '123' };
    for (const [f, v] of Object.entries(wrong)) await page.getByTestId(`field-${f}` as 'field-street').fill(v);
    await Promise.all([page.waitForNavigation(), page.getByTestId('details-submit').click()]);
    await expectAccessible(page, 'hosted: details, every field wrong', 422);
    await expectNamedControls(page, 'hosted: details, every field wrong');
    const expected = [...DETAIL_FIELDS.map((f) => ({ error: `field-error-${f}`, control: `field-${f}` })), { error: 'document-error', control: 'document-input' }];
    expect(await errorAssociations(page)).toEqual(expected.map((e) => ({ ...e, invalid: 'true', describedBy: true })));
    // The summary's links come first, in the form's order, then the form in the visual order.
    const summaryLinks = [...DETAIL_FIELDS, 'identity_document'].map((f) => `a[href=#${f}]`);
    expect(await tabOrder(page)).toEqual([...summaryLinks, ...fieldOrder]);
    // Each of the summary's links moves the focus to its field.
    const links = page.getByTestId('error-summary').locator('a');
    expect(await links.count()).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) {
      await links.nth(i).click();
      expect(await page.evaluate(() => (globalThis as unknown as { document: Doc }).document.activeElement?.getAttribute('data-testid'))).toBe(expected[i]!.control);
    }

    await fillDetails(page);
    await Promise.all([page.waitForNavigation(), page.getByTestId('details-submit').click()]);
    expect(await page.getByTestId('submitted-status').count()).toBe(1);
    await expectAccessible(page, 'hosted: in review', 200);

    const review = await reviewUrl(o.id, 'hosted-return');
    await page.goto(review);
    await Promise.all([page.waitForNavigation(), page.getByTestId('sign-in-submit').click()]);
    await page.getByTestId('return-reason').fill('The IBAN belongs to someone else.');
    await Promise.all([page.waitForNavigation(), page.getByTestId('return-button').click()]);
    await page.goto(o.url);
    expect(await page.getByTestId('returned-notice').textContent()).toContain('The IBAN belongs to someone else.');
    await expectAccessible(page, 'hosted: details, returned with a reason', 200);
    await expectNamedControls(page, 'hosted: details, returned');
  }, 60_000);

  it('the contract to sign and the signed page', async () => {
    const page = await tab();
    const o = await created();
    await signIn(page, o);
    sendContract(ws(), approved(ws(), o.id), env.server.url);
    await page.goto(o.url);
    expect(await page.getByTestId('sign-button').count()).toBe(1);
    await expectAccessible(page, 'hosted: contract', 200);
    await Promise.all([page.waitForNavigation(), page.getByTestId('sign-button').click()]);
    expect(await page.getByTestId('signed-status').count()).toBe(1);
    await expectAccessible(page, 'hosted: signed', 200);
  }, 60_000);

  it('the error pages: 403 without a session, 404 unknown link, form not read, 410 cancelled and expired', async () => {
    const page = await tab();
    const o = await created();
    await page.goto(`${o.url}/contract.pdf`); // no session in this browser for this link
    expect(await page.getByTestId('back-link').count()).toBe(1);
    await expectAccessible(page, 'hosted: 403 no session', 403);

    await page.goto(`${env.server.url}/hosted/no-such-link`);
    await expectAccessible(page, 'hosted: 404 unknown link', 404);

    await page.goto(o.url);
    await postFromPage(page, `${new URL(o.url).pathname}/code`, { code: '123456' }, 'text/plain');
    expect(await page.getByTestId('notice').textContent()).toContain('web form');
    await expectAccessible(page, 'hosted: form not read', 415);

    await api('POST', `/v1/onboardings/${o.id}/cancel`);
    await page.goto(o.url);
    await expectAccessible(page, 'hosted: 410 cancelled', 410);

    const expiring = await created({ options: { expires_in_hours: 1 } });
    ws().clock.advance(2 * HOUR);
    await page.goto(expiring.url);
    expect(await page.getByTestId('page-title').textContent()).toBe('This link has expired');
    await expectAccessible(page, 'hosted: 410 expired', 410);
  }, 60_000);

  it('the brand header is readable in any brand colour, dark or light', async () => {
    const page = await tab();
    const o = await created();
    for (const color of ['#0B6E4F', '#FFE066', '#777777', '#00FF00', '#000', '#fff']) {
      await api('PATCH', '/_emulator/organizations/org_acme', { branding: { color } });
      await page.goto(o.url);
      const contrast = (await axeViolations(page)).filter((v) => v.id === 'color-contrast');
      found.set(`hosted: code, brand ${color}`, describeViolations(contrast));
      expect.soft(contrast.map((v) => v.nodes.map((n) => n.target)), `brand ${color}`).toEqual([]);
      // axe leaves text in the colour of its background undecided (hidden on purpose?): the header's are never the same.
      const header = await page.locator('header.brand').evaluate((e) => {
        const style = (globalThis as unknown as { getComputedStyle: (el: unknown) => { color: string; backgroundColor: string } }).getComputedStyle(e);
        return { color: style.color, background: style.backgroundColor };
      });
      expect.soft(['rgb(0, 0, 0)', 'rgb(255, 255, 255)'], `brand ${color}`).toContain(header.color);
      expect.soft(header.color, `brand ${color}`).not.toBe(header.background);
    }
    await api('PATCH', '/_emulator/organizations/org_acme', { branding: { color: '#0B6E4F' } });
  }, 60_000);
});

async function reviewUrl(onboardingId: string, externalId: string, email = 'mark.manager@acme.test'): Promise<string> {
  const body = await api('POST', `/v1/onboardings/${onboardingId}/review-sessions`, { reviewer: { email, external_id: externalId } }, KEYS.manager);
  return body.review_url as string;
}

describe('the review page', () => {
  it('sign-in, the review with the identity to confirm, after confirm, after approve, a four-eyes refusal, returned, over', async () => {
    const page = await tab();
    const o = await created();
    submitted(ws(), o.id);
    const first = await reviewUrl(o.id, 'a11y-dana', 'dana.double@acme.test');
    await page.goto(first);
    expect(await page.getByTestId('sign-in-form').count()).toBe(1);
    await expectAccessible(page, 'review: sign-in', 200);
    await expectNamedControls(page, 'review: sign-in');

    await Promise.all([page.waitForNavigation(), page.getByTestId('sign-in-submit').click()]);
    expect(await page.getByTestId('identity-confirm').count()).toBe(1);
    await expectAccessible(page, 'review: identity to confirm', 200);
    expect(await expectNamedControls(page, 'review: identity to confirm')).toBeGreaterThan(2);

    await Promise.all([page.waitForNavigation(), page.getByTestId('identity-confirm').click()]);
    expect(await page.getByTestId('approve-button').count()).toBe(1);
    await expectAccessible(page, 'review: after confirm', 200);
    await expectNamedControls(page, 'review: after confirm');

    // A second page for the same reviewer (linked now: it opens directly), still offering the owner's approval.
    const second = await env.browser.context.newPage();
    await second.goto(await reviewUrl(o.id, 'a11y-dana', 'dana.double@acme.test'));
    await second.getByTestId('approve-role').nth(1).check();

    await Promise.all([page.waitForNavigation(), page.getByTestId('approve-button').click()]);
    expect(await page.getByTestId('notice').textContent()).toContain('Approved as manager');
    await expectAccessible(page, 'review: after approve', 200);

    await Promise.all([second.waitForNavigation(), second.getByTestId('approve-button').click()]);
    expect(await second.getByTestId('notice').textContent()).toContain('four_eyes_violation');
    await expectAccessible(second, 'review: four-eyes refusal', 409);
    await second.close();

    await page.getByTestId('return-to-manager').check();
    await Promise.all([page.waitForNavigation(), page.getByTestId('return-button').click()]);
    expect(await page.getByTestId('review-over').textContent()).toContain('returned to the manager');
    await expectAccessible(page, 'review: returned', 200);

    // Every approval given while a review link was still unopened: the review is over.
    const done = await created();
    let r = submitted(ws(), done.id);
    const over = await reviewUrl(done.id, 'a11y-over');
    r = verifyIdentity(ws(), r);
    const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
    for (const role of r.required_roles) r = approve(ws(), r, ws().store.users.get(users[role])!, role, r.data_version);
    await page.goto(over);
    expect(await page.getByTestId('page-title').textContent()).toBe('This onboarding is no longer in review');
    await expectAccessible(page, 'review: over (410)', 410);
  }, 60_000);

  it("inside a partner's frame, mounted by embed.js: the sign-in and the review", async () => {
    const o = await created();
    submitted(ws(), o.id);
    // The partner's page on another port of 127.0.0.1, an origin allowed_origins admits.
    await api('PATCH', '/_emulator/organizations/org_acme', { allowed_origins: ['127.0.0.1'] });
    const url = await reviewUrl(o.id, 'a11y-frame');
    const partner = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Partner</title><script src="${env.server.url}/embed.js"></script></head><body><main><h1>Partner</h1><div id="review"></div></main>
<script>OnboardingReview.mount('#review', ${JSON.stringify(url)});</script></body></html>`);
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => {
      partner.close(() => resolve());
      partner.closeAllConnections(); // the browser keeps its connection open
    }));
    const page = await env.browser.context.newPage();
    await page.goto(`http://127.0.0.1:${(partner.address() as AddressInfo).port}/`);
    await expect.poll(() => page.frames().length).toBe(2);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await frame.waitForSelector('[data-testid="sign-in-submit"]');
    const signIn = await axeViolations(frame);
    found.set('review in a frame: sign-in', describeViolations(signIn));
    expect(signIn.filter(isBlocking), describeViolations(signIn)).toEqual([]);
    await Promise.all([frame.waitForNavigation(), frame.click('[data-testid="sign-in-submit"]')]);
    await frame.waitForSelector('[data-testid="identity-confirm"]');
    const review = await axeViolations(frame);
    found.set('review in a frame: identity to confirm', describeViolations(review));
    expect(review.filter(isBlocking), describeViolations(review)).toEqual([]);
    await page.close();
  }, 60_000);

  it('the error pages: 410 used, 404 unknown, 403 bad action token, form not read, 410 timed out and expired', async () => {
    const page = await tab();
    const o = await created();
    submitted(ws(), o.id);
    const url = await reviewUrl(o.id, 'a11y-errors');
    await page.goto(url);
    const path = new URL(url).pathname;

    await postFromPage(page, `${path}/sign-in`, { action_token: 'not-the-token', user_id: 'usr_acme_mark' });
    await expectAccessible(page, 'review: 403 bad action token', 403);

    await page.goto(url);
    await expectAccessible(page, 'review: 410 used', 410);

    await page.goto(`${env.server.url}/review/no-such-link`);
    await expectAccessible(page, 'review: 404 unknown', 404);

    const fresh = await reviewUrl(o.id, 'a11y-errors-2');
    await page.goto(fresh);
    const token = await page.locator('input[name=action_token]').first().inputValue();
    await postFromPage(page, `${new URL(fresh).pathname}/sign-in`, { action_token: token }, 'text/plain');
    expect(await page.getByTestId('page-title').textContent()).toBe('The form was not sent');
    await expectAccessible(page, 'review: form not read', 415);

    const late = await reviewUrl(o.id, 'a11y-errors-3');
    await page.goto(late);
    ws().clock.advance(31 * 60 * 1000);
    await Promise.all([page.waitForNavigation(), page.getByTestId('sign-in-submit').click()]);
    expect(await page.getByTestId('page-title').textContent()).toBe('This review has timed out');
    await expectAccessible(page, 'review: 410 timed out', 410);

    const expired = await reviewUrl(o.id, 'a11y-errors-4');
    ws().clock.advance(16 * 60 * 1000);
    await page.goto(expired);
    expect(await page.getByTestId('page-title').textContent()).toBe('This review link has expired');
    await expectAccessible(page, 'review: 410 expired', 410);
  }, 60_000);
});
