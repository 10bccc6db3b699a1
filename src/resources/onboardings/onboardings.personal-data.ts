/**
 * Recognises values that look like personal data (spec "Metadata rules"): e-mail addresses,
 * IBANs (mod-97 checked), BSNs (11-check) and Dutch mobile numbers. Like the real service it
 * is a safety net: it looks at the whole value and at every candidate inside a longer text.
 */
export const PERSONAL_DATA_KINDS = ['email', 'iban', 'bsn', 'mobile'] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

/**
 * The test identity numbers: fictitious, yet they pass the checks (the 11-check, mod-97), so the
 * hosted form takes them; the form's note offers them and the sandbox catalogue lists them.
 */
export const TEST_IDENTITY = { bsn: '111222333', iban: 'NL91ABNA0417164300' } as const;

const EMAIL = /[^\s@<>()"',;]+@[^\s@<>()"',;]+\.[A-Za-z]{2,}/;
// Compact, or printed in groups of four.
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)\b/gi;
// Nine digits, plain or in the usual groupings (123456782, 123.456.782, 1234.56.782).
const BSN_CANDIDATE = /(?<![\d.])(?:\d{9}|\d{3}([ .])\d{3}\1\d{3}|\d{4}\.\d{2}\.\d{3})(?![\d.]?\d)/g;
const MOBILE_CANDIDATE = /(?<![\d+])(?:(?:\+31|0031)[\s\-]?(?:\(0\)[\s\-]?)?6|06)(?:[\s.\-]?\d){8}(?!\d)/g;

export function findPersonalData(value: string | number | boolean): PersonalDataKind | null {
  if (typeof value === 'boolean') return null;
  const text = typeof value === 'number' ? numberText(value) : value;
  // A number loses its leading 0 or +: 612345678 and 31612345678 are 06 12345678.
  if (typeof value === 'number' && /^(?:31)?6\d{8}$/.test(text)) return 'mobile';
  if (EMAIL.test(text)) return 'email';
  if (matches(text, IBAN_CANDIDATE, isIban)) return 'iban';
  if (matches(text, MOBILE_CANDIDATE, isDutchMobile)) return 'mobile';
  if (matches(text, BSN_CANDIDATE, isBsn)) return 'bsn';
  return null;
}

function numberText(n: number): string {
  return Number.isInteger(n) ? BigInt(n).toString() : String(n);
}

function matches(text: string, pattern: RegExp, check: (candidate: string) => boolean): boolean {
  for (const m of text.matchAll(pattern)) if (check(m[0])) return true;
  return false;
}

export function isIban(raw: string): boolean {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** BSN: 9 digits with 9*d1 + 8*d2 + ... + 2*d8 - d9 divisible by 11 (the "11-check"). */
export function isBsn(raw: string): boolean {
  const digits = raw.replace(/[ .]/g, '');
  if (!/^\d{9}$/.test(digits) || /^0+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(digits[i]) * (9 - i);
  sum -= Number(digits[8]);
  return sum % 11 === 0;
}

/** 06-12345678, 06 1234 5678, +31 6 12345678, +31 (0)6 12345678, 0031612345678, ... */
export function isDutchMobile(raw: string): boolean {
  const compact = raw.replace(/\(0\)/g, '').replace(/[\s().\-]/g, '');
  return /^(?:\+31|0031|0)6\d{8}$/.test(compact);
}
