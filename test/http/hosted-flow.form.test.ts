import { describe, expect, it } from 'vitest';
import { harness, KEYS } from '../support/harness.js';
import { ID_JPG, GOOD, ws, eventTypes, created, signedIn, details } from '../support/hosted-flow.js';

/** The employee's data form behind hosted_url: a message per wrong field, nothing stored on error, submit, return for correction. */

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
      expect(res.text).toMatch(new RegExp(`<p class="field-error" id="${field}-error"[^>]*>[^<]*${message.replace(/[()]/g, '\\$&')}`));
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
