import { describe, expect, it } from 'vitest';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { pathOf, ws, eventTypes, contractSent, lastCode, signedIn, details } from '../support/hosted-flow.js';

/** The contract page behind hosted_url: the employee's signature through the life cycle and the return_url redirect. */

describe('the contract', () => {
  /** Submitted through the form, approved and the contract sent: awaiting the employee's signature. */
  async function awaitingSignature(h: Harness, overrides: Record<string, unknown> = {}) {
    const s = await signedIn(h, overrides);
    expect((await details(h, s)).status).toBe(303);
    contractSent(h, s.id);
    return s;
  }

  it('shows the contract to read and a Sign button; signing goes through the life cycle', async () => {
    const h = harness();
    const s = await awaitingSignature(h);
    const page = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="${s.path}/contract.pdf"`);
    expect(page.text).toContain('Sign the contract');
    const pdf = await h.http().get(`${s.path}/contract.pdf`).set('Cookie', s.cookie).buffer(true);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // The policy of files (checked in Chromium's PDF viewer, test/e2e/browser/contract-pdf.test.ts), framed as the link's pages.
    expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self' app.acme.test:* *.acme.test:*");
    expect(Buffer.from(pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await h.http().get(`${s.path}/contract.pdf`)).status).toBe(403);
    const signed = await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie);
    expect(signed.status).toBe(303);
    expect(signed.headers.location).toBe(s.path);
    expect(ws(h).store.onboardings.get(s.id)!.status).toBe('awaiting_employer_signature');
    expect(eventTypes(h, s.id)).toContain('contract.signed_by_employee');
    const thanks = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(thanks.text).toContain('You signed your contract');
    // Signing twice is the life cycle's 409.
    expect((await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie)).status).toBe(409);
  });

  it('signing redirects to the return_url when one was given', async () => {
    const h = harness();
    const s = await awaitingSignature(h, { options: { return_url: 'https://app.acme.test/signed' } });
    const res = await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('https://app.acme.test/signed');
  });

  it('there is no contract before it is sent, and no signing without a session', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect((await h.http().get(`${s.path}/contract.pdf`).set('Cookie', s.cookie)).status).toBe(404);
    expect((await h.http().post(`${s.path}/sign`)).status).toBe(403);
    expect((await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie)).status).toBe(409);
  });

  it('a new link for the signature is confirmed with a code, without a second onboarding.started', async () => {
    const h = harness();
    const s = await awaitingSignature(h);
    const renewed = await h.as(KEYS.owner).post(`/v1/onboardings/${s.id}/hosted-link`, {});
    expect(renewed.status).toBe(201);
    const path = pathOf(renewed.body.hosted_url as string);
    await h.http().get(path);
    const res = await h.http().post(`${path}/code`).type('form').send({ code: lastCode(h, s.id) });
    expect(res.status).toBe(303);
    expect(eventTypes(h, s.id).filter((t) => t === 'onboarding.started')).toHaveLength(1);
    const cookie = res.headers['set-cookie']![0]!.split(';')[0]!;
    expect((await h.http().get(path).set('Cookie', cookie)).text).toContain('Sign the contract');
    // The replaced link is gone (410), and the old cookie belonged to it.
    const old = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(old.status).toBe(410);
    expect(old.text).toContain('replaced by a newer one');
  });
});
