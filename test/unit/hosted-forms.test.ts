import { describe, expect, it } from 'vitest';
import {
  checkBirthDate, checkBsn, checkDetails, checkIban, checkPostcode, checkUpload, printIban, sniffType, MAX_UPLOAD_BYTES,
} from '../../src/resources/onboardings/onboardings.employee-form.js';

/** The hosted form's field checks: pure, one message per mistake. */
describe('IBAN (mod-97)', () => {
  it.each([
    ['NL91ABNA0417164300', 'NL91ABNA0417164300'],
    ['nl91 abna 0417 1643 00', 'NL91ABNA0417164300'],
    ['NL02-ABNA-0123-4567-89', 'NL02ABNA0123456789'],
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['GB82 WEST 1234 5698 7654 32', 'GB82WEST12345698765432'],
  ])('accepts %s as %s', (raw, compact) => {
    expect(checkIban(raw)).toEqual({ ok: true, value: compact });
  });

  it.each([
    ['', 'Enter your IBAN.'],
    ['12345', 'Enter an IBAN'],
    ['NL91ABNA041716430', 'A Dutch IBAN has 18 characters'],
    ['NL91ABNA0417164301', 'mod-97'],
    ['NL19ABNA0417164300', 'mod-97'],
    ['DE89370400440532013001', 'mod-97'],
  ])('refuses %j', (raw, message) => {
    const r = checkIban(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
  });

  it('prints in groups of four', () => {
    expect(printIban('NL91ABNA0417164300')).toBe('NL91 ABNA 0417 1643 00');
  });
});

describe('BSN (11-check)', () => {
  it.each(['111222333', '123456782', '111 222 333', '1112.22.333'])('accepts %s', (raw) => {
    expect(checkBsn(raw).ok).toBe(true);
  });

  it.each([
    ['', 'Enter your BSN.'],
    ['12345678', '9 digits'],
    ['1234567890', '9 digits'],
    ['12345678a', '9 digits'],
    ['111222334', '11-check'],
    ['123456789', '11-check'],
    ['000000000', '11-check'],
  ])('refuses %j', (raw, message) => {
    const r = checkBsn(raw);
    expect(!r.ok && r.message).toContain(message);
  });

  it('the 11-check weighs 9..2 and subtracts the last digit', () => {
    // 1*9+1*8+1*7+2*6+2*5+2*4+3*3+3*2-3*1 = 66 = 6*11
    expect(checkBsn('111222333')).toEqual({ ok: true, value: '111222333' });
  });
});

describe('postcode and date of birth', () => {
  it('normalises a Dutch postcode and refuses others', () => {
    expect(checkPostcode('1012ab')).toEqual({ ok: true, value: '1012 AB' });
    expect(checkPostcode(' 1012 AB ')).toEqual({ ok: true, value: '1012 AB' });
    for (const bad of ['0123 AB', '1012', '1012 A1', 'SW1A 1AA']) expect(checkPostcode(bad).ok).toBe(false);
  });

  it('takes a real date in the past of someone at least 13', () => {
    const today = '2026-10-05';
    expect(checkBirthDate('1990-04-23', today).ok).toBe(true);
    expect(checkBirthDate('2013-10-05', today).ok).toBe(true);
    expect(checkBirthDate('2013-10-06', today).ok).toBe(false);
    expect(checkBirthDate('1990-02-30', today).ok).toBe(false);
    expect(checkBirthDate('23-04-1990', today).ok).toBe(false);
    expect(checkBirthDate('1899-12-31', today).ok).toBe(false);
  });
});

describe('the identity document', () => {
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const pdf = new TextEncoder().encode('%PDF-1.4');

  it('knows JPEG, PNG and PDF by their first bytes, whatever the declared type', () => {
    expect(sniffType(jpeg)).toBe('image/jpeg');
    expect(sniffType(png)).toBe('image/png');
    expect(sniffType(pdf)).toBe('application/pdf');
    expect(sniffType(new TextEncoder().encode('<svg>'))).toBeUndefined();
    const upload = checkUpload({ name: 'x.txt', type: 'text/plain', size: 10, bytes: pdf }, true);
    expect(upload).toEqual({ ok: true, value: { name: 'x.txt', type: 'application/pdf', size: 10, bytes: pdf } });
  });

  it('is required the first time, may be kept later, and is at most 4 MB', () => {
    expect(checkUpload(null, true).ok).toBe(false);
    expect(checkUpload({ name: '', type: 'application/octet-stream', size: 0, bytes: new Uint8Array() }, true).ok).toBe(false);
    expect(checkUpload(null, false)).toEqual({ ok: true, value: null });
    expect(checkUpload({ name: 'a.jpg', type: 'image/jpeg', size: MAX_UPLOAD_BYTES + 1, bytes: jpeg }, true).ok).toBe(false);
  });
});

describe('the whole form', () => {
  const good = { street: ' Damrak ', house_number: '12-3', postcode: '1012ab', city: 'Amsterdam', birth_date: '1990-04-23', iban: 'NL91ABNA0417164300', bsn: '111222333' };
  const upload = { name: 'id.pdf', type: 'application/pdf', size: 100, bytes: new TextEncoder().encode('%PDF-1.7') };

  it('answers normalised details when every field is right', () => {
    const r = checkDetails(good, upload, { today: '2026-10-05', previousDocument: undefined });
    expect(r).toEqual({
      ok: true,
      details: { ...good, street: 'Damrak', postcode: '1012 AB', identity_document: { file_name: 'id.pdf', content_type: 'application/pdf', size: 100 } },
    });
  });

  it('answers every mistake at once with what was typed', () => {
    const r = checkDetails({ ...good, city: '', bsn: '1' }, null, { today: '2026-10-05', previousDocument: undefined });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['bsn', 'city', 'identity_document']);
    expect(r.values.bsn).toBe('1');
  });

  it('keeps the earlier document when none is uploaded on a returned form', () => {
    const previous = { file_name: 'old.jpg', content_type: 'image/jpeg', size: 5 };
    const r = checkDetails(good, null, { today: '2026-10-05', previousDocument: previous });
    expect(r.ok && r.details.identity_document).toEqual(previous);
  });

  it('refuses control characters and overlong text', () => {
    const r = checkDetails({ ...good, street: 'a\u0007b', city: 'x'.repeat(101) }, upload, { today: '2026-10-05', previousDocument: undefined });
    expect(!r.ok && Object.keys(r.errors).sort()).toEqual(['city', 'street']);
  });
});
