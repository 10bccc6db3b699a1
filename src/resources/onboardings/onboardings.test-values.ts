import { checkDetails, DETAIL_FIELDS, MAX_UPLOAD_BYTES, type DetailField, type Upload } from './onboardings.employee-form.js';

/**
 * The catalogue of test values for the employee's form: values the form takes and values it
 * refuses, field by field, and identity documents of each kind, for partners' tests of the
 * hosted pages and of the control API's employee/submit shortcut. Pure data: every refusal's
 * message is worked out here by the form's own check, so the catalogue cannot say what the
 * form does not. Adding an entry keeps the version; renaming or removing one raises it.
 */
export const TEST_VALUES_VERSION = 1;

/** A whole form the check takes, each value as a person types it. */
export const VALID_DETAILS: Readonly<Record<DetailField, string>> = Object.freeze({
  street: 'Damrak',
  house_number: '12A',
  postcode: '1012 AB',
  city: 'Amsterdam',
  birth_date: '1990-04-23',
  iban: 'NL91 ABNA 0417 1643 00',
  bsn: '111222333',
});

export interface TestValue {
  value: string;
  note: string;
}

/** A value the form refuses at its field, with the message the form shows there. */
export interface FieldMistake {
  field: DetailField;
  value: string;
  note: string;
  message: string;
}

/** A document the form takes; `base64` holds the whole file. */
export interface TestDocument {
  file_name: string;
  content_type: string;
  note: string;
  base64: string;
}

/** A document the form refuses; `size`, when given: the file is `base64`'s bytes padded with zeros to this many bytes. */
export interface DocumentMistake {
  file_name: string;
  content_type: string;
  note: string;
  base64: string;
  size?: number;
  message: string;
}

/**
 * The day the catalogue's messages are worked out on. No message depends on it (the age rule
 * says the same whatever the day); a valid date of birth needs a workspace clock after 2013.
 */
const CHECKED_ON = '2026-01-01';

// Small real files a viewer opens: a 1x1 grey JPEG, a 1x1 blue PNG, a one-page PDF, a 1x1 GIF.
const JPEG =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AP//Z';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mMwTjsDAAI1AWa0b5eeAAAAAElFTkSuQmCC';
const PDF =
  'JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1BhZ2UgL1BhcmVudCAyIDAgUiAvTWVkaWFCb3ggWzAgMCAyNDAgOTBdIC9Db250ZW50cyA0IDAgUiAvUmVzb3VyY2VzIDw8IC9Gb250IDw8IC9GMSA1IDAgUiA+PiA+PiA+PgplbmRvYmoKNCAwIG9iago8PCAvTGVuZ3RoIDUyID4+CnN0cmVhbQpCVCAvRjEgMTQgVGYgMjAgNDAgVGQgKFRlc3QgaWRlbnRpdHkgZG9jdW1lbnQpIFRqIEVUCmVuZHN0cmVhbQplbmRvYmoKNSAwIG9iago8PCAvVHlwZSAvRm9udCAvU3VidHlwZSAvVHlwZTEgL0Jhc2VGb250IC9IZWx2ZXRpY2EgPj4KZW5kb2JqCnhyZWYKMCA2CjAwMDAwMDAwMDAgNjU1MzUgZiAKMDAwMDAwMDAwOSAwMDAwMCBuIAowMDAwMDAwMDU4IDAwMDAwIG4gCjAwMDAwMDAxMTUgMDAwMDAgbiAKMDAwMDAwMDI0MCAwMDAwMCBuIAowMDAwMDAwMzQyIDAwMDAwIG4gCnRyYWlsZXIKPDwgL1NpemUgNiAvUm9vdCAxIDAgUiA+PgpzdGFydHhyZWYKNDEyCiUlRU9GCg==';
const GIF = 'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';

/** The file's bytes: `base64` decoded, padded with zeros to `size` when the entry has one. */
export function documentBytes(d: TestDocument | DocumentMistake): Uint8Array {
  return bytesOf(d);
}

type FileEntry = Pick<DocumentMistake, 'file_name' | 'content_type' | 'base64' | 'size'>;

function bytesOf(d: FileEntry): Uint8Array {
  const decoded = Buffer.from(d.base64, 'base64');
  const bytes = new Uint8Array(Math.max(d.size ?? 0, decoded.length));
  bytes.set(decoded);
  return bytes;
}

const uploadOf = (d: FileEntry): Upload => {
  const bytes = bytesOf(d);
  return { name: d.file_name, type: d.content_type, size: bytes.length, bytes };
};

const VALID_JPEG: TestDocument = { file_name: 'identity-card.jpg', content_type: 'image/jpeg', note: 'a JPEG photo (1x1 pixel)', base64: JPEG };

/** What the form says at `field` with the valid form but this value there; an entry the form takes is a mistake in this file. */
function messageAt(field: DetailField | 'identity_document', form: Record<DetailField, string>, upload: Upload): string {
  const checked = checkDetails(form, upload, { today: CHECKED_ON, previousDocument: undefined });
  const message = checked.ok ? undefined : checked.errors[field];
  if (message === undefined) throw new Error(`The test values list a mistake at ${field} that the form takes.`);
  return message;
}

const mistake = (field: DetailField, value: string, note: string): FieldMistake => ({
  field, value, note, message: messageAt(field, { ...VALID_DETAILS, [field]: value }, uploadOf(VALID_JPEG)),
});

const LONG_TEXT = 'x'.repeat(101);

const mistakes = (field: DetailField, list: [value: string, note: string][]): FieldMistake[] => list.map(([value, note]) => mistake(field, value, note));

export const FIELD_VALUES: Record<DetailField, { valid: TestValue[]; invalid: FieldMistake[] }> = {
  street: {
    valid: [
      { value: 'Damrak', note: 'a street name' },
      { value: "'s-Gravelandseweg", note: 'an apostrophe and a hyphen' },
      { value: '  Prins   Hendrikkade ', note: 'extra spaces: trimmed and joined to one' },
    ],
    invalid: mistakes('street', [['', 'empty'], [LONG_TEXT, 'more than 100 characters'], ['Dam\u0007rak', 'a control character (BEL)']]),
  },
  house_number: {
    valid: [
      { value: '12', note: 'a number' },
      { value: '12A', note: 'with a letter' },
      { value: '12-3', note: 'with a hyphenated addition' },
      { value: '1 bis', note: 'with a word after a space' },
    ],
    invalid: mistakes('house_number', [['', 'empty'], ['0', 'starts with 0'], ['A12', 'a letter first'], ['12 ABCDEFG', 'an addition over 6 characters']]),
  },
  postcode: {
    valid: [
      { value: '1012 AB', note: 'with a space' },
      { value: '1012AB', note: 'without a space: stored as 1012 AB' },
      { value: '1012 ab', note: 'lower case: stored as 1012 AB' },
    ],
    invalid: mistakes('postcode', [['', 'empty'], ['0123 AB', 'starts with 0'], ['1234 A', 'one letter'], ['12345', 'five digits, no letters']]),
  },
  city: {
    valid: [
      { value: 'Amsterdam', note: 'a city' },
      { value: "'s-Hertogenbosch", note: 'an apostrophe and a hyphen' },
      { value: 'Den Haag', note: 'two words' },
    ],
    invalid: mistakes('city', [['', 'empty'], [LONG_TEXT, 'more than 100 characters'], ['Amster\u0000dam', 'a control character (NUL)']]),
  },
  birth_date: {
    valid: [
      { value: '1990-04-23', note: 'year-month-day' },
      { value: '1900-01-01', note: 'the earliest date taken' },
      { value: '2000-02-29', note: 'a leap day' },
    ],
    invalid: mistakes('birth_date', [
      ['', 'empty'],
      ['1899-12-31', 'before 1900'],
      ['1990-02-30', 'no such day'],
      ['23-04-1990', 'day-month-year'],
      ['2999-01-01', 'too young (in the future)'],
    ]),
  },
  iban: {
    valid: [
      { value: 'NL91 ABNA 0417 1643 00', note: 'ABN AMRO, in groups of four' },
      { value: 'NL39RABO0300065264', note: 'Rabobank, compact' },
      { value: 'NL20INGB0001234567', note: 'ING' },
      { value: 'nl57 asnb 0123 4567 89', note: 'ASN Bank, lower case: stored upper case and compact' },
      { value: 'DE89 3704 0044 0532 0130 00', note: 'German' },
      { value: 'BE68 5390 0754 7034', note: 'Belgian' },
    ],
    invalid: mistakes('iban', [
      ['', 'empty'],
      ['NL91 ABNA 0417 1643 01', 'wrong check digits (mod-97)'],
      ['NL91 ABNA 0417 1643 0', 'Dutch, one digit short'],
      ['DE89 3704 0044 0532 0130 01', 'German, wrong check digits'],
      ['hello world', 'not an IBAN'],
    ]),
  },
  bsn: {
    valid: [
      { value: '111222333', note: 'the test BSN' },
      { value: '123456782', note: 'passes the 11-check' },
      { value: '1234.56.782', note: 'with dots: stored as digits' },
    ],
    invalid: mistakes('bsn', [['', 'empty'], ['111222334', 'fails the 11-check'], ['12345678', '8 digits'], ['12345678A', 'a letter']]),
  },
};

const refused = (d: Omit<DocumentMistake, 'message'>): DocumentMistake => ({ ...d, message: messageAt('identity_document', { ...VALID_DETAILS }, uploadOf(d)) });

export const TEST_DOCUMENTS: { valid: TestDocument[]; invalid: DocumentMistake[] } = {
  valid: [
    VALID_JPEG,
    { file_name: 'passport.png', content_type: 'image/png', note: 'a PNG scan (1x1 pixel)', base64: PNG },
    { file_name: 'identity-card.pdf', content_type: 'application/pdf', note: 'a one-page PDF', base64: PDF },
  ],
  invalid: [
    refused({ file_name: 'identity-card.gif', content_type: 'image/gif', note: 'a GIF: not a JPEG, PNG or PDF', base64: GIF }),
    refused({
      file_name: 'not-a-photo.jpg', content_type: 'image/jpeg', note: 'text named .jpg: the type is told from the bytes',
      base64: Buffer.from('This is not a photo.\n').toString('base64'),
    }),
    refused({ file_name: 'empty.jpg', content_type: 'image/jpeg', note: 'an empty file (on a first submission)', base64: '' }),
    refused({
      file_name: 'large-scan.jpg', content_type: 'image/jpeg', note: `a JPEG one byte over the limit (${MAX_UPLOAD_BYTES + 1} bytes)`,
      base64: JPEG, size: MAX_UPLOAD_BYTES + 1,
    }),
  ],
};

/** The catalogue as one JSON document (GET /_emulator/test-values). */
export function testValuesDocument(): { version: number; details: Record<DetailField, string>; fields: typeof FIELD_VALUES; documents: typeof TEST_DOCUMENTS } {
  return {
    version: TEST_VALUES_VERSION,
    details: Object.fromEntries(DETAIL_FIELDS.map((f) => [f, VALID_DETAILS[f]])) as Record<DetailField, string>,
    fields: FIELD_VALUES,
    documents: TEST_DOCUMENTS,
  };
}

/** A value as a table cell: its JSON (so a control character shows), a long one cut, a bar escaped. */
function cell(value: string): string {
  const shown = value.length > 40 ? `${JSON.stringify(value.slice(0, 12))}… (${value.length} characters)` : JSON.stringify(value);
  return `\`${shown.replace(/\|/g, '\\|')}\``;
}

/** The catalogue as docs/pages.md shows it (`npm run docs:test-ids` writes it). */
export function testValuesMarkdown(): string {
  const lines = [`Version ${TEST_VALUES_VERSION}.`, '', '| field | value | taken | note | the form says |', '| --- | --- | --- | --- | --- |'];
  for (const f of DETAIL_FIELDS) {
    for (const v of FIELD_VALUES[f].valid) lines.push(`| \`${f}\` | ${cell(v.value)} | yes${v.value === VALID_DETAILS[f] ? ' (default)' : ''} | ${v.note} | |`);
    for (const m of FIELD_VALUES[f].invalid) lines.push(`| \`${f}\` | ${cell(m.value)} | no | ${m.note} | ${m.message} |`);
  }
  lines.push('', '| document | type | bytes | taken | note | the form says |', '| --- | --- | --- | --- | --- | --- |');
  for (const d of TEST_DOCUMENTS.valid) lines.push(`| \`${d.file_name}\` | ${d.content_type} | ${documentBytes(d).length} | yes${d === VALID_JPEG ? ' (default)' : ''} | ${d.note} | |`);
  for (const d of TEST_DOCUMENTS.invalid) lines.push(`| \`${d.file_name}\` | ${d.content_type} | ${documentBytes(d).length} | no | ${d.note} | ${d.message} |`);
  return `${lines.join('\n')}\n`;
}
