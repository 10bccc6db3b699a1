import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_VALUES, HostedPages, PageRefusal, ReviewPage, TEST_DOCUMENTS, VALID_DETAILS } from '../../../src/playwright/index.js';
import { DETAIL_FIELDS } from '../../../src/resources/onboardings/onboardings.employee-form.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, KEYS } from '../../support/harness.js';
import { created as posted, reviewedAndSent, useTabs } from '../../support/kit.js';
import { PARTNER_SITE_ARGS, partnerSite, type PartnerSite } from '../../support/partner-site.js';

/**
 * The Playwright helpers (onboarding-emulator/playwright) in Debian's Chromium against a real
 * server on 127.0.0.1, top-level: the employee's whole journey (the code read from the outbox,
 * the catalogue's valid values, the signature, the return_url), every mistake of the catalogue
 * a browser can send answered at its field with the catalogue's message, the code's refusals,
 * and the reviewer's actions with a four-eyes refusal. The review between the form and the
 * signature goes through the control API, as a partner's CI would drive it.
 */
const env = useBrowserAndEmulator({}, PARTNER_SITE_ARGS);
let RETURN_URL = '';
let site: PartnerSite;
beforeAll(async () => {
  site = await partnerSite();
  RETURN_URL = site.returnUrl;
});
afterAll(async () => site?.close());

const record = (id: string) => env.emulator.defaultWorkspace.store.onboardings.get(id)!;
const eventTypes = (id: string) => env.emulator.defaultWorkspace.store.events.values().filter((e) => e.data.onboarding_id === id).map((e) => e.type);
const api = (path: string, body: unknown, key: string) => posted(env.server.url, path, body, key);

const created = async (overrides: Record<string, unknown> = {}) => {
  const body = await api('/v1/onboardings', createBody(overrides), KEYS.owner);
  return { id: body.id as string, url: body.hosted_url as string };
};

const tab = useTabs(env);

describe('the employee through the helpers', () => {
  it('opens the link, enters the code from the outbox, sends the form with a document, signs and follows the return_url', async () => {
    const { id, url } = await created({ options: { return_url: RETURN_URL } });
    const page = await tab();
    const employee = new HostedPages(page);
    await employee.open(url);
    await employee.enterCode();
    expect(record(id).started_at).not.toBeNull();
    await employee.completeDetails();
    await employee.followReturn(RETURN_URL);
    expect(record(id)).toMatchObject({ status: 'in_review', employee_details: { iban: VALID_DETAILS.iban.replace(/ /g, ''), bsn: VALID_DETAILS.bsn } });

    await reviewedAndSent(env, id);
    await employee.open(url);
    await employee.sign();
    await employee.followReturn(RETURN_URL);
    expect(record(id).status).toBe('awaiting_employer_signature');
    expect(eventTypes(id)).toEqual(expect.arrayContaining(['onboarding.started', 'onboarding.employee_submitted', 'contract.signed_by_employee']));
  }, 60_000);

  it('every mistake of the catalogue a browser can send is refused at its field with the catalogue\'s message, and nothing is stored', async () => {
    const { id, url } = await created();
    const page = await tab();
    const employee = new HostedPages(page);
    await employee.open(url);
    await employee.enterCode();
    // A date input holds only real dates: the other shapes are for the control API.
    const typeable = (value: string, field: string) => field !== 'birth_date' || /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value);
    const rounds = Math.max(...DETAIL_FIELDS.map((f) => FIELD_VALUES[f].invalid.length));
    let tried = 0;
    for (let round = 0; round < rounds; round++) {
      const mistakes = DETAIL_FIELDS.map((f) => FIELD_VALUES[f].invalid.filter((m) => typeable(m.value, f))[round]).filter((m) => m !== undefined);
      if (mistakes.length === 0) continue;
      await employee.fillDetails(Object.fromEntries(mistakes.map((m) => [m.field, m.value])));
      await employee.upload();
      const refusal = await employee.submitDetails().then(() => null, (err: unknown) => err);
      expect(refusal).toBeInstanceOf(PageRefusal);
      expect((refusal as PageRefusal).fields).toEqual(Object.fromEntries(mistakes.map((m) => [m.field, m.message])));
      tried += mistakes.length;
    }
    expect(tried).toBeGreaterThanOrEqual(15);
    for (const document of TEST_DOCUMENTS.invalid) {
      await employee.fillDetails();
      await employee.upload(document);
      await expect(employee.submitDetails()).rejects.toMatchObject({ fields: { identity_document: document.message } });
    }
    await expect(employee.fillDetails({ birth_date: '23-04-1990' })).rejects.toThrow('a date input cannot hold "23-04-1990"');
    expect(record(id)).toMatchObject({ status: 'pending_employee', data_version: 1 });
    expect(record(id).employee_details ?? null).toBeNull();
    // Every valid document of the catalogue is taken.
    await employee.completeDetails({}, TEST_DOCUMENTS.valid.at(-1));
    expect(record(id).employee_details?.identity_document).toMatchObject({ content_type: TEST_DOCUMENTS.valid.at(-1)!.content_type });
  }, 60_000);

  it('a wrong code is refused with the attempts left; five void it; a new code from the outbox works', async () => {
    const { url } = await created();
    const page = await tab();
    const employee = new HostedPages(page);
    await employee.open(url);
    const good = await employee.readCode();
    const wrong = good === '000000' ? '111111' : '000000';
    await expect(employee.enterCode(wrong)).rejects.toThrow('4 attempts are left');
    for (let i = 0; i < 3; i++) await expect(employee.enterCode(wrong)).rejects.toThrow(PageRefusal);
    await expect(employee.enterCode(wrong)).rejects.toThrow('no longer works');
    await expect(employee.enterCode(good)).rejects.toThrow('no longer works');
    await employee.requestNewCode();
    const fresh = await employee.readCode();
    expect(fresh).not.toBe(good);
    await employee.enterCode();
    expect(await employee.title()).toMatch(/^Hello .+, welcome to Acme Retail B\.V\.$/);
  }, 60_000);
});

describe('the reviewer through the helpers', () => {
  async function reviewOf(id: string, email: string, externalId: string): Promise<string> {
    const body = await api(`/v1/onboardings/${id}/review-sessions`, { reviewer: { email, external_id: externalId } }, KEYS.manager);
    return body.review_url as string;
  }

  async function reviewTab(id: string, email: string, externalId: string): Promise<ReviewPage> {
    const review = new ReviewPage(await tab());
    await review.open(await reviewOf(id, email, externalId));
    return review;
  }

  it("signs in, confirms the identity, approves; a stale page's four-eyes refusal throws; a return reaches the employee's form", async () => {
    const { id, url } = await created();
    const employeePage = await tab();
    const employee = new HostedPages(employeePage);
    await employee.open(url);
    await employee.enterCode();
    await employee.completeDetails();

    const mark = await reviewTab(id, 'mark.manager@acme.test', 'kit-mark');
    expect(await mark.title()).toBe('Sign in to review');
    await mark.signIn();
    expect(await mark.confirmIdentity()).toBe('Identity check confirmed. The approvals are open.');

    // Dana holds manager and owner: two pages of hers offer both roles; once one approves, the other page's approval is refused.
    const dana = await reviewTab(id, 'dana.double@acme.test', 'kit-dana');
    await dana.signIn({ userId: 'usr_acme_dana' });
    const stale = await reviewTab(id, 'dana.double@acme.test', 'kit-dana');
    expect(await dana.approve('manager')).toBe('Approved as manager.');
    await expect(stale.approve('owner')).rejects.toThrow(/one person cannot fulfil two roles/i);
    expect(record(id).approvals).toMatchObject([{ role: 'manager', user_id: 'usr_acme_dana' }]);

    expect(await mark.returnData('employee', 'The photo of your passport is blurred.')).toBe('Returned to the employee for correction.');
    expect(await mark.outcome()).toContain('The data was returned to the employee for correction.');
    await employee.open(url);
    expect(await employeePage.locator('[data-testid="returned-notice"]').textContent()).toContain('The photo of your passport is blurred.');
  }, 60_000);
});
