import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBody, harness, KEYS } from '../support/harness.js';
import { approve, sendContract, verifyIdentity } from '../../src/resources/onboardings/onboardings.lifecycle.js';

/**
 * The employee's pages behind hosted_url: the one-time code (mailed on opening, void after 5
 * wrong attempts), the session cookie, the data form with a message per field and nothing
 * stored on error, submit and signature through the life cycle, the return_url redirect, and
 * the pages of links that cannot be used.
 */
type H = ReturnType<typeof harness>;

const ID_JPG = readFileSync(new URL('../../fixtures/documents/identity-document.jpg', import.meta.url));
const GOOD = {
  street: 'Damrak', house_number: '12A', postcode: '1012ab', city: 'Amsterdam',
  birth_date: '1990-04-23', iban: 'NL91 ABNA 0417 1643 00', bsn: '111222333',
};

const pathOf = (url: string) => new URL(url).pathname;
const ws = (h: H) => h.emulator.defaultWorkspace;
const outbox = (h: H, id: string) => ws(h).outbox.filter((m) => m.onboarding_id === id);
const eventTypes = (h: H, id: string) => ws(h).store.events.values().filter((e) => e.data.onboarding_id === id).map((e) => e.type);

async function created(h: H, overrides: Record<string, unknown> = {}) {
  const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, path: pathOf(res.body.hosted_url as string), url: res.body.hosted_url as string };
}

/** The review after the form: identity check and one approval per role by Acme's users (four-eyes), then the contract is sent. */
function contractSent(h: H, id: string) {
  const users = { manager: 'usr_acme_mark', payroll_reviewer: 'usr_acme_paula', owner: 'usr_acme_olivia' } as const;
  let r = verifyIdentity(ws(h), ws(h).store.onboardings.get(id)!);
  for (const role of r.required_roles) r = approve(ws(h), r, ws(h).store.users.get(users[role])!, role, r.data_version);
  return sendContract(ws(h), r);
}

const lastCode = (h: H, id: string) => outbox(h, id).filter((m) => m.kind === 'one_time_code').at(-1)!.code!;

/** Opened, code confirmed: the session cookie. */
async function signedIn(h: H, overrides: Record<string, unknown> = {}) {
  const o = await created(h, overrides);
  expect((await h.http().get(o.path)).status).toBe(200);
  const res = await h.http().post(`${o.path}/code`).type('form').send({ code: lastCode(h, o.id) });
  expect(res.status, res.text).toBe(303);
  const cookie = res.headers['set-cookie']![0]!.split(';')[0]!;
  return { ...o, cookie, confirm: res };
}

function details(h: H, s: { path: string; cookie: string }, fields: Record<string, string> = GOOD, file: Buffer | null = ID_JPG, name = 'passport.jpg') {
  let req = h.http().post(`${s.path}/details`).set('Cookie', s.cookie);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return file ? req.attach('identity_document', file, name) : req.field('street', fields.street ?? '');
}

describe('opening the link: the one-time code', () => {
  it('shows the employer, mails the link\'s code once (kind one_time_code, no event) and asks for it', async () => {
    const h = harness();
    const o = await created(h);
    const before = eventTypes(h, o.id);
    const page = await h.http().get(o.path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Acme Retail B.V.');
    expect(page.text).toContain('l***@example.test');
    expect(page.text).toContain('<label for="code">');
    const mails = outbox(h, o.id);
    expect(mails.map((m) => m.kind)).toEqual(['one_time_code']);
    expect(mails[0]!.code).toBe(ws(h).store.onboardings.get(o.id)!.hosted_link!.code);
    expect(pathOf(mails[0]!.link!)).toBe(o.path);
    expect(eventTypes(h, o.id)).toEqual(before);
    // Opening again (and HEAD) sends nothing new.
    await h.http().get(o.path);
    await h.http().head(o.path);
    expect(outbox(h, o.id)).toHaveLength(1);
    // The control API lists the mail with its kind.
    const listed = await h.http().get(`/_emulator/outbox?onboarding_id=${o.id}`);
    expect(listed.body.data[0].kind).toBe('one_time_code');
  });

  it('sends a strict Content-Security-Policy without script, framing or foreign form targets', async () => {
    const h = harness();
    const o = await created(h);
    const page = await h.http().get(o.path);
    const csp = page.headers['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('script-src');
    expect(page.text).not.toContain('<script');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('the code of an invitation in hand works: the opening mails the same code', async () => {
    const h = harness();
    const o = await created(h, { options: { send_invitation: true } });
    await h.http().get(o.path);
    const [invitation, code] = outbox(h, o.id);
    expect([invitation!.kind, code!.kind]).toEqual(['invitation', 'one_time_code']);
    expect(code!.code).toBe(invitation!.code);
    expect((await h.http().post(`${o.path}/code`).type('form').send({ code: invitation!.code! })).status).toBe(303);
  });

  it('a correct code activates the link through the life cycle and sets an HttpOnly SameSite=Lax cookie for this link', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect(s.confirm.headers.location).toBe(s.path);
    const setCookie = s.confirm.headers['set-cookie']![0]!;
    expect(setCookie).toMatch(/^hosted_session=[A-Za-z0-9]{32}; Path=\/hosted\/[A-Za-z0-9]{32}; HttpOnly; SameSite=Lax$/);
    expect(setCookie).toContain(`Path=${s.path}`);
    const api = await h.as(KEYS.owner).get(`/v1/onboardings/${s.id}`);
    expect(api.body.hosted_link).toMatchObject({ status: 'activated', activated: true });
    expect(eventTypes(h, s.id)).toContain('onboarding.started');
    // The form follows without a code.
    const form = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(form.text).toContain('Hello Lotte, welcome to Acme Retail B.V.');
    // The code is used up: a second browser gets a fresh one by mail.
    const other = await h.http().get(s.path);
    expect(other.text).toContain('<label for="code">');
    const codes = outbox(h, s.id).map((m) => m.code);
    expect(codes).toHaveLength(2);
    expect(codes[1]).not.toBe(codes[0]);
  });

  it('a wrong code is refused with 422 and the attempts left; the fifth makes the code void until a new one is sent', async () => {
    // Seeded, so the new code is known to differ from the old one and the refusal of the old one is always checked.
    const h = harness({ seed: 'hosted-code-renewal' });
    const o = await created(h);
    await h.http().get(o.path);
    const good = lastCode(h, o.id);
    const wrong = good === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await h.http().post(`${o.path}/code`).type('form').send({ code: wrong });
      expect(res.status).toBe(422);
      expect(res.text).toContain('That code is not right.');
      expect(res.text).toContain(`${5 - i} attempt${5 - i === 1 ? ' is' : 's are'} left`);
      expect(res.text).toContain('aria-invalid="true"');
    }
    const fifth = await h.http().post(`${o.path}/code`).type('form').send({ code: wrong });
    expect(fifth.status).toBe(422);
    expect(fifth.text).toContain('wrong 5 times and no longer works');
    expect(fifth.text).not.toContain('<label for="code">');
    expect(fifth.text).toContain('Send a new code');
    // Even the right code no longer works, on the page and through the control API.
    const right = await h.http().post(`${o.path}/code`).type('form').send({ code: good });
    expect(right.status).toBe(422);
    expect(right.headers['set-cookie']).toBeUndefined();
    const control = await h.http().post(`/_emulator/onboardings/${o.id}/employee/open`).send({ code: good });
    expect(control.status).toBe(422);
    expect(control.body.error.code).toBe('one_time_code_void');
    expect((await h.http().get(o.path)).text).toContain('no longer works');
    expect(eventTypes(h, o.id)).not.toContain('onboarding.started');
    // A new code: a fresh one by mail, the old one stays refused, the new one opens.
    const sent = await h.http().post(`${o.path}/code/new`);
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${o.path}?sent=1`);
    expect((await h.http().get(sent.headers.location!)).text).toContain('A new code is on its way');
    const fresh = lastCode(h, o.id);
    expect(outbox(h, o.id)).toHaveLength(2);
    expect(fresh).toMatch(/^\d{6}$/);
    expect(fresh).not.toBe(good);
    const old = await h.http().post(`${o.path}/code`).type('form').send({ code: good });
    expect(old.status).toBe(422);
    expect(old.text).toContain('That code is not right.');
    expect(old.headers['set-cookie']).toBeUndefined();
    expect((await h.http().post(`${o.path}/code`).type('form').send({ code: fresh })).status).toBe(303);
  });

  it('an empty code is asked for again without counting an attempt', async () => {
    const h = harness();
    const o = await created(h);
    await h.http().get(o.path);
    const res = await h.http().post(`${o.path}/code`).type('form').send({ code: ' ' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Enter the 6-digit code');
    expect(ws(h).store.onboardings.get(o.id)!.hosted_link!.code_attempts ?? 0).toBe(0);
  });

  it('a session cookie opens only its own link', async () => {
    const h = harness();
    const a = await signedIn(h);
    const b = await created(h, { reference: 'other' });
    const page = await h.http().get(b.path).set('Cookie', a.cookie);
    expect(page.text).toContain('<label for="code">');
    const post = await details(h, { path: b.path, cookie: a.cookie });
    expect(post.status).toBe(403);
    expect(ws(h).store.onboardings.get(b.id)!.status).toBe('pending_employee');
  });
});

describe('the data form', () => {
  it('refuses each wrong field with its own message next to it and stores nothing', async () => {
    const h = harness();
    const s = await signedIn(h);
    const before = h.storeJson();
    const outboxBefore = ws(h).outbox.length;
    const res = await details(h, s, {
      street: ' ', house_number: 'x', postcode: '12345', city: 'Amsterdam',
      birth_date: '2030-01-01', iban: 'NL91 ABNA 0417 1643 01', bsn: '111222334',
    }, Buffer.from('just text, not an image'), 'notes.txt');
    expect(res.status).toBe(422);
    const messages: [string, string][] = [
      ['street', 'Enter your street.'],
      ['house_number', 'Enter a house number'],
      ['postcode', 'Enter a Dutch postcode'],
      ['birth_date', 'at least 13 years old'],
      ['iban', 'fails its check digits (mod-97)'],
      ['bsn', 'fails the 11-check'],
      ['identity_document', 'not a JPEG, PNG or PDF'],
    ];
    for (const [field, message] of messages) {
      expect(res.text).toMatch(new RegExp(`<p class="field-error" id="${field}-error">[^<]*${message.replace(/[()]/g, '\\$&')}`));
      expect(res.text).toContain(`<a href="#${field}">`);
    }
    expect(res.text).not.toContain('id="city-error"');
    expect(res.text).toContain('Please correct these 7 fields');
    // What was typed comes back (escaped), the file does not.
    expect(res.text).toContain('value="NL91 ABNA 0417 1643 01"');
    expect(res.text).toContain('value="Amsterdam"');
    expect(h.storeJson()).toBe(before);
    expect(ws(h).outbox.length).toBe(outboxBefore);
  });

  it('a missing identity document, a real date and a too large file are named at their field', async () => {
    const h = harness();
    const s = await signedIn(h);
    const before = h.storeJson();
    const missing = await details(h, s, { ...GOOD, birth_date: '1990-02-30' }, null);
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('Choose a photo or scan of your passport');
    expect(missing.text).toContain('Enter a real date');
    const big = Buffer.concat([ID_JPG, Buffer.alloc(4 * 1024 * 1024)]);
    const large = await details(h, s, GOOD, big);
    expect(large.status).toBe(422);
    expect(large.text).toContain('larger than 4 MB');
    expect(h.storeJson()).toBe(before);
  });

  it('a body beyond twice the file limit is refused with 413 and stores nothing', async () => {
    const h = harness();
    const s = await signedIn(h);
    const before = h.storeJson();
    const res = await details(h, s, GOOD, Buffer.concat([ID_JPG, Buffer.alloc(9 * 1024 * 1024)]));
    expect(res.status).toBe(413);
    expect(res.text).toContain('too large');
    expect(h.storeJson()).toBe(before);
  });

  it('is refused without a session (403) and when not sent as a web form (415)', async () => {
    const h = harness();
    const o = await created(h);
    const res = await h.http().post(`${o.path}/details`).field('street', 'x');
    expect(res.status).toBe(403);
    expect(res.text).toContain('Confirm your one-time code first');
    const s = await signedIn(h);
    const json = await h.http().post(`${s.path}/details`).set('Cookie', s.cookie).send({ street: 'x' });
    expect(json.status).toBe(415);
  });

  it('submits through the life cycle: events, documents, the data kept on the record, the thank-you page', async () => {
    const h = harness();
    const s = await signedIn(h);
    const res = await details(h, s);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(s.path);
    const r = ws(h).store.onboardings.get(s.id)!;
    expect(r.status).toBe('in_review');
    expect(r.data_version).toBe(2);
    expect(r.employee_details).toEqual({
      street: 'Damrak', house_number: '12A', postcode: '1012 AB', city: 'Amsterdam', birth_date: '1990-04-23',
      iban: 'NL91ABNA0417164300', bsn: '111222333',
      identity_document: { file_name: 'passport.jpg', content_type: 'image/jpeg', size: ID_JPG.length },
    });
    expect(eventTypes(h, s.id)).toEqual(expect.arrayContaining(['onboarding.employee_submitted', 'onboarding.submitted', 'onboarding.approval_required']));
    const api = await h.as(KEYS.owner).get(`/v1/onboardings/${s.id}`);
    expect(api.body.status).toBe('in_review');
    expect(api.body.documents.map((d: { kind: string }) => d.kind)).toEqual(['identity_document', 'photo', 'payroll_tax_form']);
    // The personal data stays out of the API.
    expect(JSON.stringify(api.body)).not.toContain('111222333');
    const thanks = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(thanks.status).toBe(200);
    expect(thanks.text).toContain('What happens next');
    // A second post of the same form is the life cycle's refusal, on a page.
    const again = await details(h, s);
    expect(again.status).toBe(409);
    expect(again.text).toContain('This did not work');
  });

  it('redirects to the return_url after submit, and the policy lets the form go there', async () => {
    const h = harness();
    const s = await signedIn(h, { options: { return_url: 'https://app.acme.test/onboarded?x=1' } });
    const form = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(form.headers['content-security-policy']).toContain("form-action 'self' https://app.acme.test");
    const res = await details(h, s);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('https://app.acme.test/onboarded?x=1');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('returned for correction: shows the reason and the form prefilled; a resubmission may keep the document', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect((await details(h, s)).status).toBe(303);
    const docBefore = ws(h).store.onboardings.get(s.id)!.documents.find((d) => d.kind === 'identity_document')!;
    const ret = await h.http().post(`/_emulator/onboardings/${s.id}/return`).send({ to: 'employee', reason: 'The IBAN is <b>not</b> yours.' });
    expect(ret.status, JSON.stringify(ret.body)).toBe(200);
    const page = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(page.text).toContain('returned your data for correction');
    expect(page.text).toContain('Their reason: The IBAN is &lt;b&gt;not&lt;/b&gt; yours.');
    expect(page.text).toContain('value="NL91 ABNA 0417 1643 00"');
    expect(page.text).toContain('value="1012 AB"');
    expect(page.text).toContain('You sent <em>passport.jpg</em> before');
    const res = await details(h, s, { ...GOOD, iban: 'NL02ABNA0123456789' }, null);
    expect(res.status, res.text).toBe(303);
    const r = ws(h).store.onboardings.get(s.id)!;
    expect(r.data_version).toBe(3);
    expect(r.return_reason).toBeNull();
    expect(r.employee_details!.iban).toBe('NL02ABNA0123456789');
    expect(r.documents.find((d) => d.kind === 'identity_document')).toEqual(docBefore);
  });

  it('a returned form without a reason says so; a new upload replaces the identity document', async () => {
    const h = harness();
    const s = await signedIn(h);
    await details(h, s);
    const first = ws(h).store.onboardings.get(s.id)!.documents.find((d) => d.kind === 'identity_document')!;
    await h.http().post(`/_emulator/onboardings/${s.id}/return`).send({ to: 'employee' });
    expect((await h.http().get(s.path).set('Cookie', s.cookie)).text).toContain('No reason was given');
    expect((await details(h, s, GOOD, ID_JPG, 'new.jpg')).status).toBe(303);
    const r = ws(h).store.onboardings.get(s.id)!;
    const docs = r.documents.filter((d) => d.kind === 'identity_document');
    expect(docs).toHaveLength(1);
    expect(docs[0]!.id).not.toBe(first.id);
    expect(r.employee_details!.identity_document!.file_name).toBe('new.jpg');
  });

  it('renders an employee\'s name as text, never as markup', async () => {
    const h = harness();
    const s = await signedIn(h, { employee: { first_name: '<img src=x onerror=alert(1)>', last_name: '"><script>alert(2)</script>', email: 'x@example.test' } });
    const page = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(page.text).toContain('Hello &lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<script');
  });
});

describe('the contract', () => {
  /** Submitted through the form, approved and the contract sent: awaiting the employee's signature. */
  async function awaitingSignature(h: H, overrides: Record<string, unknown> = {}) {
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
    // The policy of files (checked in Chromium's PDF viewer, test/e2e/browser/contract-pdf.test.ts).
    expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
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

describe('links that cannot be used', () => {
  it('an unknown link is 404 with a page that names nothing', async () => {
    const h = harness();
    for (const path of ['/hosted/nope', '/hosted/nope/contract.pdf']) {
      const res = await h.http().get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('This link does not exist');
      expect(res.text).not.toContain('Acme');
    }
    const post = await h.http().post('/hosted/nope/code').type('form').send({ code: '123456' });
    expect(post.status).toBe(404);
  });

  it('an expired link is 410, and so is a post to it', async () => {
    const h = harness();
    const s = await signedIn(h, { options: { expires_in_hours: 1 } });
    ws(h).clock.advance(2 * 60 * 60 * 1000);
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This link has expired');
    expect(res.text).not.toContain('Lotte');
    const before = h.storeJson();
    expect((await details(h, s)).status).toBe(410);
    expect(h.storeJson()).toBe(before);
  });

  it('a cancelled onboarding is 410 with its own page', async () => {
    const h = harness();
    const s = await signedIn(h);
    expect((await h.as(KEYS.owner).post(`/v1/onboardings/${s.id}/cancel`)).status).toBe(200);
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This onboarding was cancelled');
  });

  it('a finished onboarding is 410 with its own page', async () => {
    const h = harness();
    const s = await signedIn(h);
    await details(h, s);
    contractSent(h, s.id);
    for (const step of ['employee/sign', 'employer-sign', 'payroll/complete']) {
      expect((await h.http().post(`/_emulator/onboardings/${s.id}/${step}`).send({})).status).toBe(200);
    }
    const res = await h.http().get(s.path).set('Cookie', s.cookie);
    expect(res.status).toBe(410);
    expect(res.text).toContain('Your onboarding is finished');
  });

  it('a replaced link is 410 and sends no code', async () => {
    const h = harness();
    const o = await created(h);
    await h.as(KEYS.owner).post(`/v1/onboardings/${o.id}/hosted-link`, {});
    const res = await h.http().get(o.path);
    expect(res.status).toBe(410);
    expect(outbox(h, o.id)).toHaveLength(0);
  });

  it('another method on a page path is a 405 page with Allow, not the envelope', async () => {
    const h = harness();
    const o = await created(h);
    const res = await h.http().delete(o.path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.text).toContain('This page cannot be used this way');
    expect(res.text).not.toContain('method_not_allowed');
  });
});

describe('the base URL of links', () => {
  it('uses --public-url for hosted_url and the links in mails, and marks the cookie Secure on https', async () => {
    const h = harness({}, { publicUrl: 'https://onboarding.example.test/' });
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ options: { send_invitation: true } }));
    expect(res.body.hosted_url).toMatch(/^https:\/\/onboarding\.example\.test\/hosted\/[A-Za-z0-9]{32}$/);
    const path = pathOf(res.body.hosted_url);
    await h.http().get(path);
    const mails = outbox(h, res.body.id);
    expect(mails.map((m) => m.link)).toEqual([res.body.hosted_url, res.body.hosted_url]);
    const confirm = await h.http().post(`${path}/code`).type('form').send({ code: mails[1]!.code! });
    expect(confirm.headers['set-cookie']![0]).toMatch(/; Secure$/);
    // A new link sent by mail uses it too.
    const renewed = await h.as(KEYS.owner).post(`/v1/onboardings/${res.body.id}/hosted-link`, { send_invitation: true });
    expect(renewed.body.hosted_url).toMatch(/^https:\/\/onboarding\.example\.test\/hosted\//);
    expect(outbox(h, res.body.id).at(-1)).toMatchObject({ kind: 'new_link', link: renewed.body.hosted_url });
  });

  it('without it, uses the scheme and Host of the request', async () => {
    const h = harness();
    const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody()).set('Host', 'emulator.local:8080');
    expect(res.body.hosted_url).toMatch(/^http:\/\/emulator\.local:8080\/hosted\//);
    await h.http().get(pathOf(res.body.hosted_url)).set('Host', 'localhost:9999');
    expect(outbox(h, res.body.id)[0]!.link).toMatch(/^http:\/\/localhost:9999\/hosted\//);
  });
});
