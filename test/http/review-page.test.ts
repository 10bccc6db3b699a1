import { describe, expect, it } from 'vitest';
import { createBody, FROZEN_START, harness, KEYS, type Harness } from '../support/harness.js';
import { submitted } from '../support/journey.js';
import { employeeOpen, employeeSubmit, verifyIdentity } from '../../src/resources/onboardings/onboardings.lifecycle.js';

/**
 * The embedded review page behind review_url: the sign-in the first time, the linked user
 * opening directly, the employee's data without the national ID number and the identity
 * document, the three actions with their refusals on the page, the page session's action
 * token and its time, framing and the message for the parent page.
 */
const ONB = 'onb_demo_jansen'; // Eva Jansen, created by hrs_test_acme_owner; template needs manager, payroll_reviewer, owner
const MINUTE = 60_000;

function inReview(options?: Parameters<typeof harness>[0], appOptions?: Parameters<typeof harness>[1]) {
  const h = harness(options, appOptions);
  submitted(h.emulator.defaultWorkspace, ONB);
  return h;
}

async function newSession(h: Harness, externalId = 'user-42', email = 'mark.manager@acme.test', id = ONB) {
  const res = await h.as(KEYS.manager).post(`/v1/onboardings/${id}/review-sessions`, { reviewer: { email, external_id: externalId, name: 'Mark' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; review_url: string; reviewer: { linked: boolean } };
}

const pathOf = (url: string) => new URL(url).pathname;
const tokenIn = (text: string): string => {
  const m = /name="action_token" value="([^"]+)"/.exec(text);
  if (!m) throw new Error(`no action token in the page:\n${text}`);
  return m[1]!;
};

/** A page opened once, with its action token, and a form poster for it. */
async function opened(h: Harness, s: { review_url: string }, origin?: string) {
  const page = await h.http().get(pathOf(s.review_url)).query(origin ? { origin } : {});
  expect(page.status, page.text).toBe(200);
  const actionToken = tokenIn(page.text);
  const post = (suffix: string, fields: Record<string, string> = {}) =>
    h.http().post(`${pathOf(s.review_url)}/${suffix}`).type('form').send({ action_token: actionToken, ...fields });
  return { page, actionToken, post };
}

/** Opened and signed in as one of Acme's users. */
async function signedIn(h: Harness, userId: string, externalId = `ext-${userId}`, origin?: string) {
  const o = await opened(h, await newSession(h, externalId), origin);
  const res = await o.post('sign-in', { user_id: userId });
  expect(res.status, res.text).toBe(200);
  return { ...o, signIn: res };
}

const record = (h: Harness) => h.emulator.defaultWorkspace.store.onboardings.get(ONB)!;

describe('the first opening: sign in, then linked', () => {
  it('asks the reviewer to sign in, shows no employee data yet and links nobody', async () => {
    const h = inReview();
    const o = await opened(h, await newSession(h));
    expect(o.page.text).toContain('Sign in to review');
    // Acme's reviewers to pick from, the session's e-mail preselected; Rick holds no reviewing role.
    expect(o.page.text).toContain('value="usr_acme_mark" checked');
    for (const u of ['usr_acme_olivia', 'usr_acme_paula', 'usr_acme_dana']) expect(o.page.text).toContain(`value="${u}"`);
    expect(o.page.text).not.toContain('usr_acme_rick');
    expect(o.page.text).toContain('<input id="email" name="email" type="email"');
    for (const data of ['Jansen', 'Eva', 'eva.jansen@example.test', 'Sales associate']) expect(o.page.text).not.toContain(data);
    expect(h.emulator.defaultWorkspace.store.reviewerLinks.size).toBe(0);
    expect(o.page.headers['set-cookie']).toBeUndefined();
  });

  it('signing in links the external_id for 30 days and shows the review; the next review opens directly', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const o = await opened(h, await newSession(h));
    ws.clock.advance(2 * MINUTE);
    const res = await o.post('sign-in', { user_id: 'usr_acme_mark' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Review the onboarding of Eva Jansen');
    expect(res.text).toContain('Signed in as Mark Manager (manager)');
    expect(res.text).toContain('now linked');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(ws.store.reviewerLinks.values()).toMatchObject([
      { external_id: 'user-42', user_id: 'usr_acme_mark', email: 'mark.manager@acme.test', linked_at: '2026-10-05T09:02:00.000Z', expires_at: '2026-11-04T09:02:00.000Z' },
    ]);

    const next = await newSession(h);
    expect(next.reviewer.linked).toBe(true);
    const direct = await opened(h, next);
    expect(direct.page.text).toContain('Review the onboarding of Eva Jansen');
    expect(direct.page.text).toContain('Signed in as Mark Manager');
    expect(direct.page.text).toContain('opened directly');
    expect(direct.page.text).not.toContain('Sign in to review');
  });

  it('signs in by a typed e-mail address (any case), as the account it names', async () => {
    const h = inReview();
    const o = await opened(h, await newSession(h));
    const res = await o.post('sign-in', { email: ' Paula.Payroll@ACME.test ', user_id: 'usr_acme_mark' });
    expect(res.text).toContain('Signed in as Paula Payroll (payroll reviewer)');
    expect(h.emulator.defaultWorkspace.store.reviewerLinks.values()[0]!.user_id).toBe('usr_acme_paula');
  });

  it.each([
    ['an unknown e-mail', { email: 'nobody@acme.test' }, 422, 'user_unknown', 'There is no account of Acme Retail B.V. with that e-mail address'],
    ['a user of another employer', { user_id: 'usr_bakker_bram' }, 422, 'user_unknown', 'There is no account of Acme Retail B.V. with that id'],
    ['a user without a reviewing role', { email: 'rick.recruiter@acme.test' }, 403, 'role_not_held', 'Rick Recruiter holds no reviewing role'],
    ['nothing picked', {}, 422, 'parameter_missing', 'Pick your account or type its e-mail address'],
  ])('refuses %s on the sign-in page, linking nobody', async (_name, fields, status, code, message) => {
    const h = inReview();
    const o = await opened(h, await newSession(h));
    const res = await o.post('sign-in', fields as Record<string, string>);
    expect(res.status).toBe(status);
    expect(res.text).toContain('Sign in to review');
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain(message);
    expect(res.text).toContain(`<code>${code}</code>`);
    expect(h.emulator.defaultWorkspace.store.reviewerLinks.size).toBe(0);
    // The same page may try again.
    expect((await o.post('sign-in', { user_id: 'usr_acme_mark' })).status).toBe(200);
  });

  it('refuses the actions before the sign-in (403, the sign-in again)', async () => {
    const h = inReview();
    const o = await opened(h, await newSession(h));
    const res = await o.post('identity-verification');
    expect(res.status).toBe(403);
    expect(res.text).toContain('Sign in first');
    expect(record(h).identity_verified_at).toBeNull();
  });
});

describe("the employee's data", () => {
  it('shows the data but not the national ID number or the identity document', async () => {
    const h = inReview();
    const { signIn } = await signedIn(h, 'usr_acme_mark');
    const r = record(h);
    for (const shown of ['Eva Jansen', 'eva.jansen@example.test', 'Sales associate', 'Amsterdam', '1 December 2026', '32 hours a week', '€ 15.25', 'Photo for the staff pass', 'Payroll tax form']) {
      expect(signIn.text, shown).toContain(shown);
    }
    const idDoc = r.documents.find((d) => d.kind === 'identity_document')!;
    expect(idDoc).toBeDefined();
    for (const hidden of [idDoc.id, idDoc.title!, idDoc.file, 'identity_document']) expect(signIn.text, hidden).not.toContain(hidden);
    expect(signIn.text).toContain('The national ID number and the identity document stay with the service');
  });

  it('escapes every name it shows: an employee named <img src=x onerror=alert(1)>', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const created = await h.as(KEYS.owner).post('/v1/onboardings', createBody({
      employee: { first_name: '<img src=x onerror=alert(1)>', last_name: '"><script>alert(2)</script>', email: 'x@example.test' },
    }));
    submitted(ws, created.body.id);
    const s = await newSession(h, `"'><b>`, 'mark.manager@acme.test', created.body.id);
    const o = await opened(h, s);
    const res = await o.post('sign-in', { user_id: 'usr_acme_mark' });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<img');
    expect(res.text).not.toMatch(/<script(?! type="application\/json")(?! src="\/embed\/review-page\.js")/);
    expect(res.text).not.toContain('<b>');
    expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(res.text).toContain('&quot;&#39;&gt;&lt;b&gt;');
  });
});

describe('the actions, through the same life cycle as the API', () => {
  it('confirms the identity check as a manager; others are refused with role_not_held', async () => {
    const h = inReview();
    const paula = await signedIn(h, 'usr_acme_paula');
    expect(paula.signIn.text).toContain('Waiting for a manager to confirm the identity check');
    const refused = await paula.post('identity-verification');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Paula Payroll does not hold the role manager');
    expect(refused.text).toContain('<code>role_not_held</code>');
    expect(record(h).identity_verified_at).toBeNull();

    const mark = await signedIn(h, 'usr_acme_mark');
    const res = await mark.post('identity-verification');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Identity check confirmed');
    expect(record(h).identity_verified_at).toBe(FROZEN_START);
    const again = await mark.post('identity-verification');
    expect(again.status).toBe(409);
    expect(again.text).toContain('<code>identity_already_verified</code>');
  });

  it('approves in a role the reviewer holds; four-eyes refuses a second role with a clear message', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const dana = await signedIn(h, 'usr_acme_dana');
    const early = await dana.post('approvals', { role: 'manager', data_version: '2' });
    expect(early.status).toBe(409);
    expect(early.text).toContain('<code>identity_not_verified</code>');

    await dana.post('identity-verification');
    const asManager = await dana.post('approvals', { role: 'manager', data_version: '2' });
    expect(asManager.status).toBe(200);
    expect(asManager.text).toContain('Approved as manager.');
    expect(asManager.text).toContain('Four-eyes: one person cannot fulfil two roles, so the');
    expect(record(h).approvals).toMatchObject([{ role: 'manager', user_id: 'usr_acme_dana', data_version: 2 }]);
    expect(ws.store.events.values().filter((e) => e.type === 'onboarding.approval_given')).toHaveLength(1);

    const asOwner = await dana.post('approvals', { role: 'owner', data_version: '2' });
    expect(asOwner.status).toBe(409);
    expect(asOwner.text).toContain('role="alert"');
    expect(asOwner.text).toContain('This person already approved as manager; one person cannot fulfil two roles.');
    expect(asOwner.text).toContain('<code>four_eyes_violation</code>');
    expect(record(h).approvals).toHaveLength(1);

    const notHeld = await dana.post('approvals', { role: 'payroll_reviewer', data_version: '2' });
    expect(notHeld.status).toBe(403);
    expect(notHeld.text).toContain('Dana Double does not hold the role payroll_reviewer');
  });

  it('refuses a stale data_version and a missing role on the page, never a 500', async () => {
    const h = inReview();
    verifyIdentity(h.emulator.defaultWorkspace, record(h));
    const paula = await signedIn(h, 'usr_acme_paula');
    const stale = await paula.post('approvals', { role: 'payroll_reviewer', data_version: '1' });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('<code>data_version_mismatch</code>');
    for (const fields of [{ data_version: '2' }, { role: 'boss', data_version: '2' }, { role: 'payroll_reviewer' }] as Record<string, string>[]) {
      const res = await paula.post('approvals', fields);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.text).toContain('<code>parameter_invalid</code>');
    }
  });

  it('the last approval approves the onboarding (contract_ready) and the page says the review is done', async () => {
    const h = inReview();
    verifyIdentity(h.emulator.defaultWorkspace, record(h));
    for (const [user, role] of [['usr_acme_mark', 'manager'], ['usr_acme_paula', 'payroll_reviewer']]) {
      expect((await (await signedIn(h, user!)).post('approvals', { role: role!, data_version: '2' })).status).toBe(200);
    }
    const olivia = await signedIn(h, 'usr_acme_olivia');
    const res = await olivia.post('approvals', { role: 'owner', data_version: '2' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Every approval is given');
    expect(res.text).not.toContain('Return for correction');
    expect(record(h).status).toBe('contract_ready');
  });

  it.each([
    ['employee', 'pending_employee', 'Returned to the employee for correction.'],
    ['manager', 'in_review', 'Returned to the manager for correction.'],
  ])('returns the data to the %s', async (to, status, text) => {
    const h = inReview();
    const mark = await signedIn(h, 'usr_acme_mark');
    const res = await mark.post('return', { to });
    expect(res.status).toBe(200);
    expect(res.text).toContain(text);
    expect(record(h)).toMatchObject({ status, returned_to: to });
    const events = h.emulator.defaultWorkspace.store.events.values().filter((e) => e.type === 'onboarding.returned');
    expect(events).toHaveLength(1);
    // The review is over on this page: no more forms to act with.
    expect(res.text).not.toContain('action="/review/');
    const again = await mark.post('return', { to });
    expect(again.status).toBe(409);
  });

  it("keeps the reviewer's reason for the employee's form; an empty one is none; a too long one is refused and nothing changes", async () => {
    const h = inReview();
    const mark = await signedIn(h, 'usr_acme_mark');
    expect(mark.signIn.text).toContain('name="reason"');
    const tooLong = await mark.post('return', { to: 'employee', reason: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).toContain('Keep the reason to 1000 characters');
    expect(record(h)).toMatchObject({ status: 'in_review', returned_to: null });
    const res = await mark.post('return', { to: 'employee', reason: '  The postcode is <not> Dutch.  ' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Returned to the employee for correction.');
    expect(res.text).toContain('Reason given: The postcode is &lt;not&gt; Dutch.');
    expect(record(h)).toMatchObject({ status: 'pending_employee', return_reason: 'The postcode is <not> Dutch.' });

    const h2 = inReview();
    await (await signedIn(h2, 'usr_acme_mark')).post('return', { to: 'manager', reason: '   ' });
    expect(h2.emulator.defaultWorkspace.store.onboardings.get(ONB)).toMatchObject({ returned_to: 'manager', return_reason: null });
  });

  it('shows what the employee filled in on the hosted form, but not the BSN', async () => {
    const h = harness();
    const ws = h.emulator.defaultWorkspace;
    const details = {
      street: 'Keizersgracht', house_number: '12a', postcode: '1015 CX', city: 'Amsterdam',
      birth_date: '1990-04-01', iban: 'NL91ABNA0417164300', bsn: '111222333', identity_document: null,
    };
    employeeSubmit(ws, employeeOpen(ws, record(h)), { details, newDocument: false });
    const mark = await signedIn(h, 'usr_acme_mark');
    expect(mark.signIn.text).toContain('Keizersgracht 12a, 1015 CX Amsterdam');
    expect(mark.signIn.text).toContain('1 April 1990');
    expect(mark.signIn.text).toContain('NL91ABNA0417164300');
    expect(mark.signIn.text).not.toContain('111222333');
  });

  it('refuses a return without a destination (422)', async () => {
    const h = inReview();
    const res = await (await signedIn(h, 'usr_acme_mark')).post('return', { to: 'hr' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Choose whether the data goes back');
    expect(record(h).returned_to).toBeNull();
  });
});

describe("the page's session: the action token, on the workspace clock", () => {
  it('refuses a post without this page\'s token (403), and for an unknown link (404)', async () => {
    const h = inReview();
    const s = await newSession(h);
    const o = await opened(h, s);
    for (const fields of [{}, { action_token: 'x'.repeat(o.actionToken.length) }, { action_token: 'short' }]) {
      const res = await h.http().post(`${pathOf(s.review_url)}/sign-in`).type('form').send({ user_id: 'usr_acme_mark', ...fields });
      expect(res.status).toBe(403);
      expect(res.text).toContain('does not belong to an open review');
    }
    // A JSON body is not a form: refused before the token is looked at.
    const json = await h.http().post(`${pathOf(s.review_url)}/sign-in`).send({ action_token: o.actionToken, user_id: 'usr_acme_mark' });
    expect(json.status).toBe(415);
    expect(json.text).toContain('The form was sent in an encoding the page cannot read');
    const unknown = await h.http().post('/review/NoSuchToken/sign-in').type('form').send({ action_token: o.actionToken });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('not found');
    expect(h.emulator.defaultWorkspace.store.reviewerLinks.size).toBe(0);
  });

  it('a token of one page does not work for another session', async () => {
    const h = inReview();
    const a = await opened(h, await newSession(h));
    const b = await newSession(h, 'user-43');
    await opened(h, b);
    const res = await h.http().post(`${pathOf(b.review_url)}/sign-in`).type('form').send({ action_token: a.actionToken, user_id: 'usr_acme_mark' });
    expect(res.status).toBe(403);
  });

  it('the link opens within 15 minutes; the opened page then accepts forms for 30 minutes, both on the workspace clock', async () => {
    const h = inReview();
    const ws = h.emulator.defaultWorkspace;
    const s = await newSession(h);
    ws.clock.advance(15 * MINUTE - 1);
    const o = await opened(h, s);
    ws.clock.advance(30 * MINUTE - 1); // past the link's own 15 minutes: the opened page still works
    expect((await o.post('sign-in', { user_id: 'usr_acme_mark' })).status).toBe(200);
    ws.clock.advance(1);
    const late = await o.post('identity-verification');
    expect(late.status).toBe(410);
    expect(late.text).toContain('This review has timed out');
    expect(late.text).toContain('5 October 2026 at 11:44 CEST');
    expect(record(h).identity_verified_at).toBeNull();

    const expired = await newSession(h);
    ws.clock.advance(15 * MINUTE);
    const gone = await h.http().get(pathOf(expired.review_url));
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('expired');
  });

  it('HEAD does not start a page session', async () => {
    const h = inReview();
    const s = await newSession(h);
    expect((await h.http().head(pathOf(s.review_url))).status).toBe(200);
    expect(h.emulator.defaultWorkspace.store.reviewSessions.get(s.id)!.page).toBeNull();
  });
});

describe('framing and the message for the parent page', () => {
  it('sends frame-ancestors from allowed_origins (127.0.0.1 accepted) on every page, and a CSP without inline script', async () => {
    const h = inReview();
    const patched = await h.http().patch('/_emulator/organizations/org_acme').send({ allowed_origins: ['127.0.0.1', 'app.acme.test'] });
    expect(patched.status).toBe(200);
    const o = await opened(h, await newSession(h));
    const signIn = await o.post('sign-in', { user_id: 'usr_acme_mark' });
    for (const res of [o.page, signIn]) {
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self' 127.0.0.1:* app.acme.test:*");
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("admits the partner's allowed_origins for a partner's session", async () => {
    const h = harness();
    submitted(h.emulator.defaultWorkspace, 'onb_demo_partner');
    const res = await h.asPartnerFor(KEYS.hrsoft, 'org_acme').post('/v1/onboardings/onb_demo_partner/review-sessions', { reviewer: { email: 'mark.manager@acme.test', external_id: 'u1' } });
    const page = await h.http().get(pathOf(res.body.review_url)).query({ origin: 'https://app.hrsoft.test' });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self' app.acme.test:* *.acme.test:* app.hrsoft.test:*");
    expect(page.text).toContain('HR Soft');
    expect(page.text).toContain('"target_origin":"https://app.hrsoft.test"');
  });

  it('posts the outcome only to an origin allowed_origins admits, with the documented shape', async () => {
    const h = inReview();
    const mark = await signedIn(h, 'usr_acme_mark', 'ext-mark', 'https://shop.acme.test:8443');
    expect(mark.page.text).toContain('<script type="application/json" id="review-data">{"target_origin":"https://shop.acme.test:8443","message":null}</script>');
    expect(mark.page.text).toContain('<script src="/embed/review-page.js" defer></script>');
    await mark.post('identity-verification');
    const res = await mark.post('approvals', { role: 'manager', data_version: '2' });
    const data = JSON.parse(/<script type="application\/json" id="review-data">(.*?)<\/script>/.exec(res.text)![1]!);
    expect(data).toEqual({
      target_origin: 'https://shop.acme.test:8443',
      message: {
        type: 'onboarding-review', outcome: 'approved', review_session_id: expect.stringMatching(/^rvs_/), onboarding_id: ONB,
        role: 'manager', returned_to: null, status: 'in_review', data_version: 2,
      },
    });
  });

  it.each([
    ['not in allowed_origins', 'https://evil.test'],
    ['the bare domain of a *. entry', 'https://acme.test'],
    ['with a path', 'https://app.acme.test/x'],
    ['not http(s)', 'javascript:alert(1)'],
    ['not a URL', 'app.acme.test'],
  ])('has no script and no message for an origin %s', async (_name, origin) => {
    const h = inReview();
    const o = await opened(h, await newSession(h), origin);
    expect(o.page.text).not.toContain('<script');
    expect(h.emulator.defaultWorkspace.store.reviewSessions.values()[0]!.page!.parent_origin).toBeNull();
  });
});

describe('embed.js and the page assets', () => {
  it('serves embed.js for any origin, and the page script and style from the emulator', async () => {
    const h = harness();
    const embed = await h.http().get('/embed.js');
    expect(embed.status).toBe(200);
    expect(embed.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(embed.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(embed.text).toContain('OnboardingReview');
    expect(embed.text).toContain("url.searchParams.set('origin', window.location.origin)");
    const script = await h.http().get('/embed/review-page.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('postMessage(data.message, target)');
    expect(script.text).not.toContain("'*'");
    const style = await h.http().get('/embed/review-page.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    // The files get a policy of their own too: it counts when one is opened by itself.
    for (const res of [embed, script, style]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    }
    expect((await h.http().post('/embed.js')).status).toBe(405);
  });

  it('answers another method on the form routes with a 405 page (Allow kept), not the envelope', async () => {
    const h = harness();
    const res = await h.http().get('/review/abc/approvals');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('This page cannot be used this way');
    expect(res.text).not.toContain('method_not_allowed');
  });
});

describe('the base URL of review_url', () => {
  it('uses the configured public URL (createApp publicUrl), and the page opens at its path', async () => {
    const h = harness({}, { publicUrl: 'https://onboarding.example.test/base/' });
    submitted(h.emulator.defaultWorkspace, ONB);
    const s = await newSession(h);
    expect(s.review_url).toMatch(/^https:\/\/onboarding\.example\.test\/base\/review\/[A-Za-z0-9]{32}$/);
    // A proxy in front strips the prefix: the emulator serves the page at /review/<token>.
    const token = s.review_url.split('/').at(-1)!;
    expect((await h.http().get(`/review/${token}`)).status).toBe(200);
  });

  it('without it, uses the scheme and Host of the request', async () => {
    const h = inReview({}, { allowedHosts: 'emulator.local' });
    const res = await h.as(KEYS.manager).post(`/v1/onboardings/${ONB}/review-sessions`, { reviewer: { email: 'mark.manager@acme.test', external_id: 'u1' } }).set('Host', 'emulator.local:8080');
    expect(res.status).toBe(201);
    expect(res.body.review_url).toMatch(/^http:\/\/emulator\.local:8080\/review\/[A-Za-z0-9]{32}$/);
  });
});
