import { describe, expect, it } from 'vitest';
import { findPersonalData, isBsn, isDutchMobile, isIban } from '../../src/resources/onboardings/onboardings.personal-data.js';

/**
 * Spec "Metadata rules": values that look like an e-mail address, IBAN, BSN or Dutch mobile
 * number are refused. These are the recognisers behind 422 metadata_personal_data.
 */

describe('isIban (mod-97 check)', () => {
  it.each([
    ['NL91ABNA0417164300', 'a Dutch IBAN, compact'],
    ['NL91 ABNA 0417 1643 00', 'a Dutch IBAN printed in groups of four'],
    ['nl91abna0417164300', 'a Dutch IBAN in lowercase'],
    ['nl91 abna 0417 1643 00', 'a Dutch IBAN in lowercase groups'],
    ['DE89370400440532013000', 'a German IBAN'],
    ['GB82WEST12345698765432', 'a British IBAN'],
    ['BE68539007547034', 'a Belgian IBAN (16 characters)'],
  ])('accepts %s (%s)', (value) => {
    expect(isIban(value)).toBe(true);
  });

  it.each([
    ['NL92ABNA0417164300', 'wrong check digits'],
    ['NL91ABNA0417164301', 'one account digit changed'],
    ['NL91 ABNA 0417 1643 01', 'one digit changed, printed in groups'],
    ['NL91ABNA', 'too short'],
    ['1291ABNA0417164300', 'no country letters'],
    ['NLXXABNA0417164300', 'check digits are letters'],
    ['', 'empty'],
    ['hello world', 'ordinary words'],
  ])('refuses %s (%s)', (value) => {
    expect(isIban(value)).toBe(false);
  });
});

describe('isBsn (11-check)', () => {
  it.each([
    ['111222333', 'passes the 11-check'],
    ['123456782', 'passes the 11-check'],
    ['123.456.782', 'printed with dots'],
    ['123 456 782', 'printed with spaces'],
    ['1234.56.782', 'printed in the 4-2-3 grouping'],
  ])('accepts %s (%s)', (value) => {
    expect(isBsn(value)).toBe(true);
  });

  it.each([
    ['123456789', 'fails the 11-check'],
    ['111222334', 'one digit off'],
    ['000000000', 'all zeros'],
    ['12345678', 'eight digits'],
    ['1234567820', 'ten digits'],
    ['12345678a', 'a letter'],
    ['', 'empty'],
  ])('refuses %s (%s)', (value) => {
    expect(isBsn(value)).toBe(false);
  });
});

describe('isDutchMobile', () => {
  it.each([
    '0612345678',
    '06-12345678',
    '06 12345678',
    '06 1234 5678',
    '06-1234-5678',
    '+31612345678',
    '+31 6 12345678',
    '+31 (0)6 12345678',
    '+31(0)612345678',
    '0031612345678',
    '0031 6 12345678',
  ])('recognises %s', (value) => {
    expect(isDutchMobile(value)).toBe(true);
  });

  it.each([
    ['0201234567', 'an Amsterdam landline'],
    ['+31201234567', 'a landline in international form'],
    ['061234567', 'one digit short'],
    ['06123456789', 'one digit too many'],
    ['+32612345678', 'a Belgian number'],
    ['0712345678', 'not a 06 number'],
    ['', 'empty'],
  ])('does not take %s for a mobile number (%s)', (value) => {
    expect(isDutchMobile(value)).toBe(false);
  });
});

describe('findPersonalData', () => {
  it.each([
    ['lotte@example.test', 'email'],
    ['Mail lotte.de.boer@example.com for details', 'email'],
    ['NL91ABNA0417164300', 'iban'],
    ['NL91 ABNA 0417 1643 00', 'iban'],
    ['nl91abna0417164300', 'iban'],
    ['pay to NL91ABNA0417164300 please', 'iban'],
    ['pay to NL91 ABNA 0417 1643 00 please', 'iban'],
    ['111222333', 'bsn'],
    ['123456782', 'bsn'],
    ['123.456.782', 'bsn'],
    ['bsn 123456782 on file', 'bsn'],
    ['0612345678', 'mobile'],
    ['06-12345678', 'mobile'],
    ['06 12345678', 'mobile'],
    ['+31612345678', 'mobile'],
    ['+31 6 12345678', 'mobile'],
    ['0031612345678', 'mobile'],
    ['+31 (0)6 12345678', 'mobile'],
    ['call 06-12345678 today', 'mobile'],
    ['call +31 6 12345678 today', 'mobile'],
  ] as const)('finds %j as %s', (value, kind) => {
    expect(findPersonalData(value)).toBe(kind);
  });

  it.each([
    [123456782, 'bsn'],
    [111222333, 'bsn'],
    [31612345678, 'mobile'],
    [612345678, 'mobile'],
  ] as const)('finds the number value %d as %s', (value, kind) => {
    expect(findPersonalData(value)).toBe(kind);
  });

  it.each([
    ['2026-12-01', 'a date'],
    ['2026-12-01T09:00:00Z', 'a date-time'],
    ['blue', 'a word'],
    ['store-amsterdam', 'a slug'],
    ['cost centre 4100', 'a short number in text'],
    ['ORD-2026-000123', 'an order number'],
    ['v1.2.3', 'a version'],
    ['https://app.acme.test/return', 'a URL'],
    ['123456789', 'nine digits failing the 11-check'],
    ['NL92ABNA0417164300', 'an IBAN with a wrong check digit'],
    ['1234567890', 'ten digits'],
    ['0201234567', 'a landline'],
    ['8710612345678', 'an EAN-13 barcode with 0612345678 inside its digits'],
    ['@acme', 'a handle without a domain'],
    ['', 'an empty string'],
  ])('accepts %j (%s)', (value) => {
    expect(findPersonalData(value)).toBeNull();
  });

  it.each([
    [4100, 'a short number'],
    [0, 'zero'],
    [1.5, 'a decimal'],
    [123456789, 'nine digits failing the 11-check'],
    [20261201, 'a date as a number'],
  ])('accepts the number %d (%s)', (value) => {
    expect(findPersonalData(value)).toBeNull();
  });

  it.each([true, false])('accepts the boolean %s', (value) => {
    expect(findPersonalData(value)).toBeNull();
  });
});
