import type { EmployeeDetails } from './onboardings.model.js';
import { isBsn, isIban } from './onboardings.personal-data.js';

/**
 * The employee's form on the hosted pages, checked field by field with no HTTP: every field
 * gets its own message, and nothing is stored unless all are right. IBAN and BSN use the same
 * checks as the metadata safety net (mod-97 and the 11-check in onboardings.personal-data.ts).
 * The hosted page and the control API's employee/submit shortcut both check with it, so the
 * shortcut refuses what the page refuses, with the same messages.
 */
export const DETAIL_FIELDS = ['street', 'house_number', 'postcode', 'city', 'birth_date', 'iban', 'bsn'] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
export type FormField = DetailField | 'identity_document';
export type FieldValues = Record<DetailField, string>;
export type FieldErrors = Partial<Record<FormField, string>>;

/** An uploaded file: as the page's form reader hands it over, or decoded from a control request. */
export interface Upload {
  name: string;
  /** The type the sender declared. */
  type: string;
  size: number;
  /** At least the first 16 bytes: enough to tell the file's kind. */
  bytes: Uint8Array;
}

export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
const MAX_TEXT = 100;

export const LABELS: Record<FormField, string> = {
  street: 'Street',
  house_number: 'House number',
  postcode: 'Postcode',
  city: 'City',
  birth_date: 'Date of birth',
  iban: 'IBAN',
  bsn: 'BSN (citizen service number)',
  identity_document: 'Copy of your passport or identity card',
};

/** Compact IBAN in groups of four, as people read it. */
export const printIban = (iban: string): string => iban.replace(/(.{4})(?=.)/g, '$1 ');

export function checkIban(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const compact = raw.replace(/[\s-]+/g, '').toUpperCase();
  if (compact === '') return { ok: false, message: 'Enter your IBAN.' };
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) {
    return { ok: false, message: 'Enter an IBAN: two letters, two check digits and the account number, like NL91 ABNA 0417 1643 00.' };
  }
  if (compact.startsWith('NL') && !/^NL\d{2}[A-Z]{4}\d{10}$/.test(compact)) {
    return { ok: false, message: 'A Dutch IBAN has 18 characters: NL, two check digits, four letters of the bank and ten digits.' };
  }
  if (!isIban(compact)) return { ok: false, message: 'This IBAN fails its check digits (mod-97): check it for a typo.' };
  return { ok: true, value: compact };
}

export function checkBsn(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const compact = raw.replace(/[\s.]+/g, '');
  if (compact === '') return { ok: false, message: 'Enter your BSN.' };
  if (!/^\d{9}$/.test(compact)) return { ok: false, message: 'A BSN has 9 digits.' };
  if (!isBsn(compact)) return { ok: false, message: 'This BSN fails the 11-check: check it for a typo.' };
  return { ok: true, value: compact };
}

export function checkPostcode(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const m = /^([1-9]\d{3})\s?([A-Za-z]{2})$/.exec(raw.trim());
  if (raw.trim() === '') return { ok: false, message: 'Enter your postcode.' };
  if (!m) return { ok: false, message: 'Enter a Dutch postcode: four digits and two letters, like 1012 AB.' };
  return { ok: true, value: `${m[1]} ${m[2]!.toUpperCase()}` };
}

/** A date of birth in the past, of someone at least 13 (the youngest age for light work in the Netherlands). */
export function checkBirthDate(raw: string, today: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim();
  if (value === '') return { ok: false, message: 'Enter your date of birth.' };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!m || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    return { ok: false, message: 'Enter a real date as year-month-day, like 1990-04-23.' };
  }
  if (value < '1900-01-01') return { ok: false, message: 'Enter a date of birth after 1900.' };
  const [y, mo, d] = today.split('-');
  if (value > `${Number(y) - 13}-${mo}-${d}`) return { ok: false, message: 'You must be at least 13 years old: check the year.' };
  return { ok: true, value };
}

function checkText(raw: string, field: DetailField, empty: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim().replace(/\s+/g, ' ');
  if (value === '') return { ok: false, message: empty };
  if (value.length > MAX_TEXT) return { ok: false, message: `${LABELS[field]}: at most ${MAX_TEXT} characters.` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return { ok: false, message: `${LABELS[field]}: remove the control characters.` };
  return { ok: true, value };
}

function checkHouseNumber(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const value = raw.trim();
  if (value === '') return { ok: false, message: 'Enter your house number.' };
  if (!/^[1-9]\d{0,4}(?:[ -]?[A-Za-z0-9]{1,6})?$/.test(value)) return { ok: false, message: 'Enter a house number with an optional addition, like 12, 12A or 12-3.' };
  return { ok: true, value };
}

const MAGIC: [string, number[]][] = [
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
];

/** The file's real kind from its first bytes: the declared type alone is the browser's guess. */
export function sniffType(bytes: Uint8Array): string | undefined {
  return MAGIC.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
}

export function checkUpload(upload: Upload | null, required: boolean): { ok: true; value: Upload | null } | { ok: false; message: string } {
  if (!upload || upload.size === 0) {
    return required ? { ok: false, message: 'Choose a photo or scan of your passport or identity card (JPEG, PNG or PDF).' } : { ok: true, value: null };
  }
  if (upload.size > MAX_UPLOAD_BYTES) return { ok: false, message: `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: choose a smaller photo or scan.` };
  const kind = sniffType(upload.bytes);
  if (!kind) return { ok: false, message: 'The file is not a JPEG, PNG or PDF: choose a photo or scan in one of these formats.' };
  return { ok: true, value: { ...upload, type: kind } };
}

export type DetailsCheck =
  | { ok: true; details: EmployeeDetails }
  | { ok: false; errors: FieldErrors; values: FieldValues };

/**
 * Checks the whole form. `previous` is the document of an earlier round (a returned form may
 * keep it); `today` is the workspace clock's date.
 */
export function checkDetails(
  form: Partial<Record<DetailField, string>>,
  upload: Upload | null,
  options: { today: string; previousDocument: EmployeeDetails['identity_document'] | undefined },
): DetailsCheck {
  const raw = Object.fromEntries(DETAIL_FIELDS.map((f) => [f, form[f] ?? ''])) as FieldValues;
  const results = {
    street: checkText(raw.street, 'street', 'Enter your street.'),
    house_number: checkHouseNumber(raw.house_number),
    postcode: checkPostcode(raw.postcode),
    city: checkText(raw.city, 'city', 'Enter your city.'),
    birth_date: checkBirthDate(raw.birth_date, options.today),
    iban: checkIban(raw.iban),
    bsn: checkBsn(raw.bsn),
  };
  const document = checkUpload(upload, !options.previousDocument);
  const errors: FieldErrors = {};
  for (const f of DETAIL_FIELDS) {
    const r = results[f];
    if (!r.ok) errors[f] = r.message;
  }
  if (!document.ok) errors.identity_document = document.message;
  if (Object.keys(errors).length > 0 || !document.ok) return { ok: false, errors, values: raw };
  const value = (f: DetailField) => (results[f] as { value: string }).value;
  const file = document.value;
  return {
    ok: true,
    details: {
      street: value('street'),
      house_number: value('house_number'),
      postcode: value('postcode'),
      city: value('city'),
      birth_date: value('birth_date'),
      iban: value('iban'),
      bsn: value('bsn'),
      identity_document: file ? { file_name: file.name.slice(0, 200), content_type: file.type, size: file.size } : options.previousDocument ?? null,
    },
  };
}
