import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { frameShowing, HostedPages, ReviewPage } from '../../../src/playwright/index.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, KEYS } from '../../support/harness.js';
import { created, reviewedAndSent, useTabs } from '../../support/kit.js';
import { PARTNER_SITE_ARGS, partnerSite, type PartnerSite } from '../../support/partner-site.js';

/**
 * The Playwright helpers inside a partner's page on another site: the partner's page is served
 * from http://localhost:<port>, the emulator from http://127.0.0.1:<port>, so the frames are
 * cross-origin and cross-site, as a partner's product and the real service are. The employee's
 * pages run in a plain iframe (their session a partitioned cookie), the review in the frame
 * embed.js mounts; a host outside allowed_origins is refused framing.
 */
const env = useBrowserAndEmulator({}, PARTNER_SITE_ARGS);
let RETURN_URL = '';
let partner: { server: Server; origin: string };
let site: PartnerSite;

/** The partner's product: the hosted link in an iframe, or the review mounted with embed.js. */
function partnerPage(path: string, params: URLSearchParams): string {
  const url = params.get('url') ?? '';
  const body = path === '/review'
    ? `<div id="review"></div><script src="${env.server.url}/embed.js"></script>
<script>window.messages = []; OnboardingReview.mount('#review', ${JSON.stringify(url)}, { onMessage: function (m) { window.messages.push(m); } });</script>`
    : `<iframe src="${url.replace(/"/g, '&quot;')}" title="Your onboarding" width="800" height="900"></iframe>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner product</title></head><body><h1>Partner product</h1>${body}</body></html>`;
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(partnerPage(url.pathname, url.searchParams));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  partner = { server, origin: `http://localhost:${(server.address() as AddressInfo).port}` };
  site = await partnerSite();
  RETURN_URL = site.returnUrl;
});
afterAll(async () => {
  await site?.close();
  // The browser still holds its keep-alive connections: close them, or close() waits for them.
  partner?.server.closeAllConnections();
  await new Promise<void>((resolve) => (partner ? partner.server.close(() => resolve()) : resolve()));
});

const tab = useTabs(env);
const record = (id: string) => env.emulator.defaultWorkspace.store.onboardings.get(id)!;
const api = (path: string, body: unknown, key: string) => created(env.server.url, path, body, key);

async function patchOrigins(origins: string[]): Promise<void> {
  const res = await fetch(`${env.server.url}/_emulator/organizations/org_acme`, {
    method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ allowed_origins: origins }),
  });
  expect(res.status).toBe(200);
}

/** The partner's page showing `url` (hosted) or mounting it (review). */
async function partnerShowing(kind: 'hosted' | 'review', url: string): Promise<Page> {
  const page = await tab();
  await page.goto(`${partner.origin}/${kind}?url=${encodeURIComponent(url)}`);
  return page;
}

describe('the employee\'s pages in a frame of a partner\'s page on another site', () => {
  it('code, form and document in the frame, to the return_url; the contract signed in the frame on a later visit without a new code', async () => {
    await patchOrigins(['localhost', 'app.acme.test', '*.acme.test']);
    const made = await api('/v1/onboardings', createBody({ options: { return_url: RETURN_URL } }), KEYS.owner);
    const id = made.id as string;
    const page = await partnerShowing('hosted', made.hosted_url as string);
    const employee = new HostedPages(await frameShowing(page, 'hosted'));
    await employee.enterCode();
    // The session is a partitioned cookie, kept for the partner's site (a cookie without a partition would be a third-party cookie).
    const [session] = (await env.browser.context.cookies()).filter((c) => c.name === 'hosted_session' && c.domain === '127.0.0.1');
    expect(session).toMatchObject({ sameSite: 'None', secure: true, httpOnly: true, partitionKey: expect.stringContaining('localhost') });
    await employee.completeDetails();
    await employee.followReturn(RETURN_URL);
    expect(record(id).status).toBe('in_review');
    expect(await page.locator('h1').textContent()).toBe('Partner product');

    await reviewedAndSent(env, id);

    // The partitioned cookie is sent again in this partner's frames: the contract shows, no code asked.
    const later = await partnerShowing('hosted', made.hosted_url as string);
    const signing = new HostedPages(await frameShowing(later, 'hosted'));
    expect(await signing.title()).toBe('Your employment contract');
    // The contract opens in the frame, where the session is sent, and may be framed there.
    const frame = signing.surface as Frame;
    const pdf = frame.locator('[data-testid="contract-pdf"]');
    expect(await pdf.getAttribute('target')).toBeNull();
    const opened = await frame.goto(new URL((await pdf.getAttribute('href'))!, frame.url()).href);
    expect([opened?.status(), opened?.headers()['content-type']]).toEqual([200, 'application/pdf']);
    expect(opened?.headers()['content-security-policy']).toContain("frame-ancestors 'self' localhost:*");
    await frame.goto(made.hosted_url as string);
    await signing.sign();
    await signing.followReturn(RETURN_URL);
    expect(record(id).status).toBe('awaiting_employer_signature');
  }, 60_000);

  it('a partner page on a host outside allowed_origins is refused framing by frame-ancestors', async () => {
    await patchOrigins(['app.acme.test', '*.acme.test']);
    const made = await api('/v1/onboardings', createBody(), KEYS.owner);
    const page = await tab();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('frame-ancestors')) violations.push(m.text());
    });
    await page.goto(`${partner.origin}/hosted?url=${encodeURIComponent(made.hosted_url as string)}`);
    await expect.poll(() => violations.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(violations[0]).toContain("frame-ancestors 'self' app.acme.test:* *.acme.test:*");
  }, 60_000);
});

describe('the review in the frame embed.js mounts on a partner\'s page on another site', () => {
  const reviewOf = async (id: string, email: string, externalId: string) =>
    (await api(`/v1/onboardings/${id}/review-sessions`, { reviewer: { email, external_id: externalId } }, KEYS.manager)).review_url as string;

  it('sign in, confirm, approve in the frame, the partner receives the messages; a return with a reason in another session', async () => {
    await patchOrigins(['localhost', 'app.acme.test', '*.acme.test']);
    const made = await api('/v1/onboardings', createBody(), KEYS.owner);
    const id = made.id as string;
    const employeePage = await partnerShowing('hosted', made.hosted_url as string);
    const employee = new HostedPages(await frameShowing(employeePage, 'hosted'));
    await employee.enterCode();
    await employee.completeDetails();

    const page = await partnerShowing('review', await reviewOf(id, 'mark.manager@acme.test', 'kit-frame-mark'));
    const review = new ReviewPage(await frameShowing(page, 'review'));
    await review.signIn();
    expect(await review.confirmIdentity()).toBe('Identity check confirmed. The approvals are open.');
    expect(await review.approve('manager')).toBe('Approved as manager.');
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { messages: { outcome: string }[] }).messages.map((m) => m.outcome)))
      .toEqual(['identity_verified', 'approved']);

    const again = await partnerShowing('review', await reviewOf(id, 'mark.manager@acme.test', 'kit-frame-mark'));
    const second = new ReviewPage(await frameShowing(again, 'review'));
    expect(await second.returnData('employee', 'Please upload a sharper photo.')).toBe('Returned to the employee for correction.');
    expect(record(id)).toMatchObject({ status: 'pending_employee', returned_to: 'employee', return_reason: 'Please upload a sharper photo.' });
  }, 60_000);
});
