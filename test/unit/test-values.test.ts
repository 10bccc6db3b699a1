import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as pkg from '../../src/index.js';
import {
  checkDetails, checkUpload, DETAIL_FIELDS, MAX_UPLOAD_BYTES, sniffType, type DetailField, type Upload,
} from '../../src/resources/onboardings/onboardings.employee-form.js';
import {
  documentBytes, FIELD_VALUES, TEST_DOCUMENTS, TEST_VALUES_VERSION, testValuesDocument, testValuesMarkdown, VALID_DETAILS, type DocumentMistake, type TestDocument,
} from '../../src/resources/onboardings/onboardings.test-values.js';

/**
 * The catalogue of test values held to the form's own checks: every valid value passes its
 * check, every mistake fails at its field alone with exactly the message listed, whatever the
 * day (a day late enough for the valid dates of birth).
 */
const DAYS = ['2014-01-01', '2026-10-05', '2099-12-31'];
const upload = (d: TestDocument | DocumentMistake): Upload => {
  const bytes = documentBytes(d);
  return { name: d.file_name, type: d.content_type, size: bytes.length, bytes };
};
const JPEG = upload(TEST_DOCUMENTS.valid[0]!);
const check = (form: Record<DetailField, string>, file: Upload | null, today: string) => checkDetails(form, file, { today, previousDocument: undefined });

describe('the field values', () => {
  it('has valid details that pass the whole form', () => {
    for (const today of DAYS) expect(check({ ...VALID_DETAILS }, JPEG, today).ok, today).toBe(true);
  });

  it('lists every field, with valid values and mistakes', () => {
    expect(Object.keys(FIELD_VALUES).sort()).toEqual([...DETAIL_FIELDS].sort());
    for (const f of DETAIL_FIELDS) {
      expect(FIELD_VALUES[f].valid.length, f).toBeGreaterThanOrEqual(3);
      expect(FIELD_VALUES[f].invalid.length, f).toBeGreaterThanOrEqual(3);
      expect(FIELD_VALUES[f].invalid.every((m) => m.field === f), f).toBe(true);
    }
  });

  it.each(DETAIL_FIELDS.flatMap((f) => FIELD_VALUES[f].valid.map((v) => [f, v.value] as const)))('takes %s %j', (field, value) => {
    for (const today of DAYS) expect(check({ ...VALID_DETAILS, [field]: value }, JPEG, today)).toMatchObject({ ok: true });
  });

  it.each(DETAIL_FIELDS.flatMap((f) => FIELD_VALUES[f].invalid.map((m) => [f, m] as const)))('refuses %s %j at that field alone, with its message', (field, m) => {
    for (const today of DAYS) {
      const result = check({ ...VALID_DETAILS, [field]: m.value }, JPEG, today);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.errors, today).toEqual({ [field]: m.message });
    }
  });

  it('has no value twice in a field', () => {
    for (const f of DETAIL_FIELDS) {
      const values = [...FIELD_VALUES[f].valid, ...FIELD_VALUES[f].invalid].map((v) => v.value);
      expect(new Set(values).size, f).toBe(values.length);
    }
  });
});

describe('the documents', () => {
  it('has valid files of each kind the form takes, told by their bytes, a few hundred bytes each', () => {
    expect(TEST_DOCUMENTS.valid.map((d) => sniffType(documentBytes(d)))).toEqual(['image/jpeg', 'image/png', 'application/pdf']);
    for (const d of TEST_DOCUMENTS.valid) {
      expect(d.content_type).toBe(sniffType(documentBytes(d)));
      expect(documentBytes(d).length, d.file_name).toBeLessThan(1024);
      expect(checkUpload(upload(d), true)).toMatchObject({ ok: true });
      expect(check({ ...VALID_DETAILS }, upload(d), DAYS[1]!)).toMatchObject({ ok: true, details: { identity_document: { file_name: d.file_name, content_type: d.content_type } } });
    }
    expect(new Set(TEST_DOCUMENTS.valid.map((d) => d.file_name)).size).toBe(TEST_DOCUMENTS.valid.length);
  });

  it('whole files: the PNG ends with IEND, the PDF with %%EOF and its xref where startxref says', () => {
    const png = Buffer.from(documentBytes(TEST_DOCUMENTS.valid[1]!));
    expect(png.subarray(-8, -4).toString('latin1')).toBe('IEND');
    const pdf = Buffer.from(documentBytes(TEST_DOCUMENTS.valid[2]!)).toString('latin1');
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const start = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(start, start + 4)).toBe('xref');
    // Each object where the table says.
    for (const [i, offset] of [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((m, i) => [i + 1, Number(m[1])] as const)) {
      expect(pdf.slice(offset).startsWith(`${i} 0 obj`), `object ${i}`).toBe(true);
    }
  });

  it.each(TEST_DOCUMENTS.invalid.map((d) => [d.note, d] as const))('refuses %s at the document alone, with its message', (_note, d) => {
    for (const today of DAYS) {
      const result = check({ ...VALID_DETAILS }, upload(d), today);
      expect(!result.ok && result.errors).toEqual({ identity_document: d.message });
    }
  });

  it('pads the large one to its size with zeros, one byte over the limit', () => {
    const large = TEST_DOCUMENTS.invalid.find((d) => d.size !== undefined)!;
    const bytes = documentBytes(large);
    expect(bytes.length).toBe(MAX_UPLOAD_BYTES + 1);
    expect(sniffType(bytes)).toBe('image/jpeg');
    expect(bytes.subarray(Buffer.from(large.base64, 'base64').length).every((b) => b === 0)).toBe(true);
    expect(large.message).toContain('larger than 4 MB');
  });
});

describe('the document and the package', () => {
  it('is one JSON document with the version, the details in the form order, the fields and the documents', () => {
    const doc = JSON.parse(JSON.stringify(testValuesDocument())) as ReturnType<typeof testValuesDocument>;
    expect(doc.version).toBe(TEST_VALUES_VERSION);
    expect(Object.keys(doc.details)).toEqual([...DETAIL_FIELDS]);
    expect(doc.details).toEqual(VALID_DETAILS);
    expect(doc.fields).toEqual(FIELD_VALUES);
    expect(doc.documents).toEqual(TEST_DOCUMENTS);
  });

  it('is exported from the package root', () => {
    expect(pkg.TEST_VALUES_VERSION).toBe(TEST_VALUES_VERSION);
    expect(pkg.VALID_DETAILS).toBe(VALID_DETAILS);
    expect(pkg.FIELD_VALUES).toBe(FIELD_VALUES);
    expect(pkg.TEST_DOCUMENTS).toBe(TEST_DOCUMENTS);
    expect(pkg.documentBytes).toBe(documentBytes);
  });

  it('is shown in docs/pages.md as the catalogue generates it (regenerate with `npm run docs:test-ids`)', () => {
    const table = testValuesMarkdown();
    expect(readFileSync('docs/pages.md', 'utf8')).toContain(`<!-- test-values:start -->\n${table}<!-- test-values:end -->`);
    // Every entry is a row of its own.
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    const entries = DETAIL_FIELDS.reduce((n, f) => n + FIELD_VALUES[f].valid.length + FIELD_VALUES[f].invalid.length, 0) + TEST_DOCUMENTS.valid.length + TEST_DOCUMENTS.invalid.length;
    expect(rows).toHaveLength(entries);
  });
});
