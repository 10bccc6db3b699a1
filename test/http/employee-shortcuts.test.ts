import { describe, expect, it } from 'vitest';
import { harness, KEYS, type Harness } from '../support/harness.js';
import { contractSent, created, details, eventTypes, GOOD, ID_JPG, lastCode, signedIn, ws } from '../support/hosted-flow.js';
import { checkDetails, DETAIL_FIELDS, MAX_UPLOAD_BYTES } from '../../src/resources/onboardings/onboardings.employee-form.js';
import { documentBytes, FIELD_VALUES, TEST_DOCUMENTS, VALID_DETAILS } from '../../src/resources/onboardings/onboardings.test-values.js';
import type { OnboardingRecord } from '../../src/resources/onboardings/onboardings.model.js';

/**
 * The control API's shortcuts of the employee's hosted steps, over HTTP, held to the pages: the
 * page's path and the shortcut's leave the same events in the same order and the same record
 * fields; every mistake of the test values is refused in the error envelope with the form's
 * message and stores nothing; hostile bodies get a 4xx, never a 500 or a partial write.
 */
const action = (h: Harness, id: string, step: string, body?: object) => {
  const req = h.http().post(`/_emulator/onboardings/${id}/${step}`);
  return body === undefined ? req : req.send(body);
};
const record = (h: Harness, id: string): OnboardingRecord => ws(h).store.onboardings.get(id)!;
/** The link's current code: what the invitation or the page's first opening mails. */
const linkCode = (h: Harness, id: string) => ws(h).store.onboardings.get(id)!.hosted_link!.code;

/** What the employee's steps change on the record that a page and a shortcut must agree on (ids and secrets aside). */
const fields = (r: OnboardingRecord) => ({
  status: r.status, started_at: r.started_at, submitted_at: r.submitted_at, updated_at: r.updated_at, data_version: r.data_version,
  returned_to: r.returned_to, identity_verified_at: r.identity_verified_at, employee_details: r.employee_details ?? null,
  documents: r.documents.map(({ id: _id, ...d }) => d), contract: r.contract,
  link: { activated_at: r.hosted_link?.activated_at, code_attempts: r.hosted_link?.code_attempts ?? 0, code_sent_at: r.hosted_link?.code_sent_at ?? null, expires_at: r.hosted_link?.expires_at },
});

/** Opened with the code through the shortcut, as the page's sign-in would. */
async function openedByShortcut(h: Harness) {
  const o = await created(h);
  const code = linkCode(h, o.id);
  const res = await action(h, o.id, 'employee/open', { code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...o, code };
}

const html = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('employee/open with a code, as the page confirms it', () => {
  it('the right code: the same events and record fields as the page; without a code it opens unchecked as before', async () => {
    const page = harness({ seed: 'open' });
    const viaPage = await signedIn(page);
    const short = harness({ seed: 'open' });
    const viaShortcut = await openedByShortcut(short);
    expect(eventTypes(short, viaShortcut.id)).toEqual(eventTypes(page, viaPage.id));
    expect(eventTypes(short, viaShortcut.id)).toContain('onboarding.started');
    expect(fields(record(short, viaShortcut.id))).toEqual(fields(record(page, viaPage.id)));
    // The code is used up, as on the page: a new, unsent one replaces it; no page session starts.
    expect(record(short, viaShortcut.id).hosted_link!.code).not.toBe(viaShortcut.code);
    expect(record(short, viaShortcut.id).hosted_link!.sessions ?? []).toEqual([]);

    const unchecked = harness({ seed: 'open' });
    const o = await created(unchecked);
    const code = linkCode(unchecked, o.id);
    expect((await action(unchecked, o.id, 'employee/open', {})).status).toBe(200);
    expect(eventTypes(unchecked, o.id)).toEqual(eventTypes(page, viaPage.id));
    expect(record(unchecked, o.id).hosted_link!.code).toBe(code);
  });

  it('a wrong code counts an attempt as the page does, on the same counter; the fifth voids it (422 one_time_code_void)', async () => {
    const h = harness();
    const o = await created(h);
    expect((await h.http().get(o.path)).status).toBe(200);
    // Two wrong on the page, then the shortcut: the third, fourth and fifth.
    for (let i = 0; i < 2; i++) expect((await h.http().post(`${o.path}/code`).type('form').send({ code: '000000' })).status).toBe(422);
    const before = eventTypes(h, o.id);
    for (const left of [2, 1]) {
      const res = await action(h, o.id, 'employee/open', { code: '000000' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ type: 'invalid_request', code: 'one_time_code_invalid', param: 'code' });
      expect(res.body.error.message).toContain(left === 1 ? '1 attempt is left' : `${left} attempts are left`);
    }
    const fifth = await action(h, o.id, 'employee/open', { code: '000000' });
    expect(fifth.status).toBe(422);
    expect(fifth.body.error).toMatchObject({ code: 'one_time_code_void', param: 'code' });
    expect(record(h, o.id).hosted_link!.code_attempts).toBe(5);
    // Void now, also for the right code and on the page; nothing happened to the onboarding.
    const right = await action(h, o.id, 'employee/open', { code: lastCode(h, o.id) });
    expect(right.body.error.code).toBe('one_time_code_void');
    expect((await h.http().post(`${o.path}/code`).type('form').send({ code: lastCode(h, o.id) })).text).toContain('no longer works');
    expect(eventTypes(h, o.id)).toEqual(before);
    expect(record(h, o.id).status).toBe('pending_employee');
    expect(record(h, o.id).started_at).toBeNull();
  });

  it('the page counts the shortcut\'s wrong codes too, and takes spaces within the code as the page does', async () => {
    const h = harness();
    const o = await created(h);
    for (let i = 0; i < 4; i++) expect((await action(h, o.id, 'employee/open', { code: '999999' })).status).toBe(422);
    const page = await h.http().get(o.path);
    expect(page.status).toBe(200);
    const wrong = await h.http().post(`${o.path}/code`).type('form').send({ code: '999999' });
    expect(wrong.text).toContain('no longer works');

    const other = harness();
    const p = await created(other);
    const code = linkCode(other, p.id);
    const res = await action(other, p.id, 'employee/open', { code: ` ${code.slice(0, 3)} ${code.slice(3)} ` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.onboarding.status).toBe('pending_employee');
    expect(record(other, p.id).started_at).not.toBeNull();
    const blank = await action(other, p.id, 'employee/open', { code: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.error).toMatchObject({ code: 'parameter_invalid', param: 'code' });
  });

  it('many wrong codes at once: exactly four counted as wrong, the rest void, the counter stops at five', async () => {
    const h = harness();
    const o = await created(h);
    const answers = await Promise.all(Array.from({ length: 12 }, () => action(h, o.id, 'employee/open', { code: '123450' })));
    const codes = answers.map((a) => a.body.error?.code as string);
    expect(codes.filter((c) => c === 'one_time_code_invalid')).toHaveLength(4);
    expect(codes.filter((c) => c === 'one_time_code_void')).toHaveLength(8);
    expect(record(h, o.id).hosted_link!.code_attempts).toBe(5);
  });

  it('an onboarding that is not waiting for the employee: the machine\'s 409, no attempt counted', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    expect((await action(h, o.id, 'employee/submit', {})).status).toBe(200);
    const attempts = record(h, o.id).hosted_link!.code_attempts ?? 0;
    const res = await action(h, o.id, 'employee/open', { code: '000000' });
    expect(res.status).toBe(409);
    expect(record(h, o.id).hosted_link!.code_attempts ?? 0).toBe(attempts);
  });
});

describe('employee/submit, checked as the form', () => {
  it('the form\'s details and file: the same events and record fields as the page', async () => {
    const page = harness({ seed: 'submit' });
    const p = await signedIn(page);
    expect((await details(page, p)).status).toBe(303);
    const short = harness({ seed: 'submit' });
    const s = await openedByShortcut(short);
    const res = await action(short, s.id, 'employee/submit', { details: GOOD, identity_document: { file_name: 'passport.jpg', content_base64: ID_JPG.toString('base64') } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.onboarding.status).toBe('in_review');
    expect(eventTypes(short, s.id)).toEqual(eventTypes(page, p.id));
    expect(eventTypes(short, s.id)).toContain('onboarding.employee_submitted');
    expect(fields(record(short, s.id))).toEqual(fields(record(page, p.id)));
    expect(record(short, s.id).employee_details).toMatchObject({ postcode: '1012 AB', iban: 'NL91ABNA0417164300', identity_document: { file_name: 'passport.jpg', content_type: 'image/jpeg', size: ID_JPG.length } });
  });

  it('an empty body (or none) takes the valid details and the test JPEG, stored as the form stores them', async () => {
    const expected = checkDetails({ ...VALID_DETAILS }, { name: 'identity-card.jpg', type: 'image/jpeg', size: documentBytes(TEST_DOCUMENTS.valid[0]!).length, bytes: documentBytes(TEST_DOCUMENTS.valid[0]!) }, { today: '2026-10-05', previousDocument: undefined });
    expect(expected.ok).toBe(true);
    for (const body of [undefined, {}]) {
      const h = harness();
      const o = await openedByShortcut(h);
      const res = await action(h, o.id, 'employee/submit', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(record(h, o.id).employee_details).toEqual(expected.ok && expected.details);
    }
  });

  it('a few fields given: the rest take the valid details; a test document by name', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const res = await action(h, o.id, 'employee/submit', { details: { city: ' Den   Haag ', bsn: '1234.56.782' }, identity_document: { test_document: 'identity-card.pdf' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(record(h, o.id).employee_details).toMatchObject({ street: 'Damrak', city: 'Den Haag', bsn: '123456782', identity_document: { file_name: 'identity-card.pdf', content_type: 'application/pdf' } });
  });

  it('requires the link opened, as the page requires the code first; the machine\'s 409 after submitting', async () => {
    const h = harness();
    const o = await created(h);
    const before = h.storeJson();
    const res = await action(h, o.id, 'employee/submit', { details: { iban: 'nonsense' } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('employee_not_started');
    expect(h.storeJson()).toBe(before);
    expect((await action(h, o.id, 'employee/open', {})).status).toBe(200);
    expect((await action(h, o.id, 'employee/submit', {})).status).toBe(200);
    expect((await action(h, o.id, 'employee/submit', {})).status).toBe(409);
  });

  const mistakes = DETAIL_FIELDS.flatMap((f) => FIELD_VALUES[f].invalid);
  it(`refuses each of the ${mistakes.length} field mistakes as the page does: 422 parameter_invalid, the field as param and detail, the form's message, nothing stored`, async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const s = await signedIn(h);
    const before = h.storeJson();
    for (const m of mistakes) {
      const res = await action(h, o.id, 'employee/submit', { details: { [m.field]: m.value } });
      expect(res.status, m.note).toBe(422);
      expect(res.body.error, `${m.field} ${m.note}`).toMatchObject({
        type: 'invalid_request', code: 'parameter_invalid', param: `details.${m.field}`, message: `details.${m.field}: ${m.message}`,
        details: [{ path: `details.${m.field}`, message: m.message }],
      });
      expect(typeof res.body.error.request_id).toBe('string');
      // The page says the same at the field.
      const page = await details(h, s, { ...GOOD, [m.field]: m.value });
      expect(page.status, m.note).toBe(422);
      expect(page.text, `${m.field} ${m.note}`).toContain(html(m.message));
    }
    expect(h.storeJson()).toBe(before);
  }, 30_000);

  it('refuses each document mistake at identity_document with the form\'s message (the large one within the body limit), nothing stored', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const before = h.storeJson();
    for (const d of TEST_DOCUMENTS.invalid) {
      const content_base64 = Buffer.from(documentBytes(d)).toString('base64');
      const res = await action(h, o.id, 'employee/submit', { identity_document: { file_name: d.file_name, content_base64 } });
      expect(res.status, d.note).toBe(422);
      expect(res.body.error, d.note).toMatchObject({ code: 'parameter_invalid', param: 'identity_document', message: `identity_document: ${d.message}`, details: [{ path: 'identity_document', message: d.message }] });
    }
    expect(h.storeJson()).toBe(before);
  }, 30_000);

  it('several mistakes: param the first in form order, one detail per wrong field', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const res = await action(h, o.id, 'employee/submit', { details: { bsn: '12345678', postcode: '12345' }, identity_document: { file_name: 'x.gif', content_base64: TEST_DOCUMENTS.invalid[0]!.base64 } });
    expect(res.status).toBe(422);
    expect(res.body.error.param).toBe('details.postcode');
    expect(res.body.error.message).toContain('(3 fields are wrong: see details)');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['details.postcode', 'details.bsn', 'identity_document']);
  });

  it('an empty file on a returned form keeps the earlier document, as the page does', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    expect((await action(h, o.id, 'employee/submit', { identity_document: { test_document: 'passport.png' } })).status).toBe(200);
    expect((await action(h, o.id, 'return', { to: 'employee' })).status).toBe(200);
    const res = await action(h, o.id, 'employee/submit', { details: { city: 'Utrecht' }, identity_document: { file_name: 'empty.jpg', content_base64: '' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(record(h, o.id).employee_details).toMatchObject({ city: 'Utrecht', identity_document: { file_name: 'passport.png', content_type: 'image/png' } });
  });

  it('a returned form starts from what the employee sent, as the page does: only the fields given change, the document stays', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const first = { street: 'Oudegracht', house_number: '7', postcode: '3511 AB', city: 'Utrecht', iban: 'DE89 3704 0044 0532 0130 00' };
    expect((await action(h, o.id, 'employee/submit', { details: first, identity_document: { test_document: 'passport.png' } })).status).toBe(200);
    const sent = record(h, o.id).employee_details!;
    expect((await action(h, o.id, 'return', { to: 'employee', reason: 'The BSN is not yours.' })).status).toBe(200);
    const res = await action(h, o.id, 'employee/submit', { details: { bsn: '123456782' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(record(h, o.id).employee_details).toEqual({ ...sent, bsn: '123456782' });
    // An empty body sends the form back as it was.
    expect((await action(h, o.id, 'return', { to: 'employee' })).status).toBe(200);
    expect((await action(h, o.id, 'employee/submit')).status).toBe(200);
    expect(record(h, o.id).employee_details).toEqual({ ...sent, bsn: '123456782' });
  });
});

describe('employee/submit, hostile input', () => {
  it.each([
    ['details not an object', { details: 'Damrak' }, 'parameter_invalid'],
    ['a field of the wrong type', { details: { iban: 5 } }, 'parameter_invalid'],
    ['a field past its length', { details: { street: 'x'.repeat(1001) } }, 'parameter_invalid'],
    ['an unknown field of details', { details: { country: 'NL' } }, 'parameter_unknown'],
    ['an unknown field of the body', { detail: {} }, 'parameter_unknown'],
    ['a document without its content', { identity_document: { file_name: 'a.jpg' } }, undefined],
    ['a document with both forms', { identity_document: { file_name: 'a.jpg', content_base64: '', test_document: 'passport.png' } }, undefined],
    ['an unknown test document', { identity_document: { test_document: 'animation.gif' } }, undefined],
    ['content that is not base64', { identity_document: { file_name: 'a.jpg', content_base64: '@@@@' } }, 'parameter_invalid'],
    ['base64 cut short', { identity_document: { file_name: 'a.jpg', content_base64: '/9j/4A' } }, 'parameter_invalid'],
    ['base64 with a line break', { identity_document: { file_name: 'a.jpg', content_base64: '/9j/\n4AAQ' } }, 'parameter_invalid'],
  ])('%s: 422 in the envelope, nothing stored', async (_label, body, code) => {
    const h = harness();
    const o = await openedByShortcut(h);
    const before = h.storeJson();
    const res = await action(h, o.id, 'employee/submit', body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.type).toBe('invalid_request');
    if (code) expect(res.body.error.code).toBe(code);
    expect(h.storeJson()).toBe(before);
  });

  it('a body over twice the file limit is 413 body_too_large; a file just over the limit gets the form\'s message', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const before = h.storeJson();
    const huge = await action(h, o.id, 'employee/submit', { identity_document: { file_name: 'a.jpg', content_base64: 'A'.repeat(2 * MAX_UPLOAD_BYTES) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('body_too_large');
    const over = await action(h, o.id, 'employee/submit', { identity_document: { file_name: 'a.jpg', content_base64: Buffer.alloc(MAX_UPLOAD_BYTES + 3, 0xff).toString('base64') } });
    expect(over.status).toBe(422);
    expect(over.body.error.details).toEqual([{ path: 'identity_document', message: TEST_DOCUMENTS.invalid.find((d) => d.size)!.message }]);
    expect(h.storeJson()).toBe(before);
  }, 30_000);

  it('the same client many times (bounded): every mistake refused alike, then the right form taken once', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const before = h.storeJson();
    const started = Date.now();
    for (let i = 0; i < 60 && Date.now() - started < 10_000; i++) {
      const res = await action(h, o.id, 'employee/submit', { details: { iban: `NL${i}` } });
      expect(res.status).toBe(422);
      expect(res.body.error.param).toBe('details.iban');
    }
    expect(h.storeJson()).toBe(before);
    expect((await action(h, o.id, 'employee/submit', {})).status).toBe(200);
    expect(record(h, o.id).data_version).toBe(2);
  }, 20_000);

  it('many at once on one onboarding: one submission taken, the others the machine\'s 409, one set of events', async () => {
    const h = harness();
    const o = await openedByShortcut(h);
    const answers = await Promise.all(Array.from({ length: 16 }, () => action(h, o.id, 'employee/submit', { details: GOOD })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(15);
    expect(eventTypes(h, o.id).filter((t) => t === 'onboarding.employee_submitted')).toHaveLength(1);
  });
});

describe('employee/sign, the page\'s life-cycle call', () => {
  it('leaves the same events and record fields as signing on the page', async () => {
    const viaPage = async () => {
      const h = harness({ seed: 'sign' });
      const s = await signedIn(h);
      expect((await details(h, s)).status).toBe(303);
      contractSent(h, s.id);
      expect((await h.http().post(`${s.path}/sign`).set('Cookie', s.cookie)).status).toBe(303);
      return { h, id: s.id };
    };
    const viaShortcut = async () => {
      const h = harness({ seed: 'sign' });
      const o = await openedByShortcut(h);
      expect((await action(h, o.id, 'employee/submit', { details: GOOD, identity_document: { file_name: 'passport.jpg', content_base64: ID_JPG.toString('base64') } })).status).toBe(200);
      contractSent(h, o.id);
      expect((await action(h, o.id, 'employee/sign')).status).toBe(200);
      return { h, id: o.id };
    };
    const [p, s] = [await viaPage(), await viaShortcut()];
    expect(eventTypes(s.h, s.id)).toEqual(eventTypes(p.h, p.id));
    expect(eventTypes(s.h, s.id)).toContain('contract.signed_by_employee');
    expect(fields(record(s.h, s.id))).toEqual(fields(record(p.h, p.id)));
    // The owner reads the same onboarding over the API either way, ids aside.
    const read = async (x: { h: Harness; id: string }) => JSON.stringify((await x.h.as(KEYS.owner).get(`/v1/onboardings/${x.id}`)).body).replace(/"(onb|doc|emp|evt)_[A-Za-z0-9]+"/g, '"$1_"');
    expect(await read(s)).toBe(await read(p));
  });
});
