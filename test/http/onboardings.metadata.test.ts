import { describe, expect, it } from 'vitest';
import { createBody, envelope, harness, KEYS, type Harness } from '../support/harness.js';

/** Spec "Metadata rules": the same rules on POST /v1/onboardings and PATCH /v1/onboardings/{id}. */

const FIXTURE = 'onb_demo_jansen'; // metadata { team: 'store-amsterdam', cost_centre: 4100 }

function keys(n: number, prefix = 'k'): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `v${i}`]));
}

async function create(metadata: unknown) {
  const h = harness();
  const before = h.storeJson();
  const res = await h.as(KEYS.owner).post('/v1/onboardings', createBody({ metadata }));
  return { h, res, before };
}

async function patch(metadata: unknown, id = FIXTURE) {
  const h = harness();
  const before = h.storeJson();
  const res = await h.as(KEYS.owner).patch(`/v1/onboardings/${id}`, { metadata });
  return { h, res, before };
}

/** A refused write: 422 invalid_request with this code, and the store exactly as before. */
function expectRefusal(
  r: { h: Harness; res: Awaited<ReturnType<typeof create>>['res']; before: string },
  code: string,
  param?: string | RegExp,
) {
  expect(r.res.status, JSON.stringify(r.res.body)).toBe(422);
  const err = envelope(r.res);
  expect(err.type).toBe('invalid_request');
  expect(err.code).toBe(code);
  if (typeof param === 'string') expect(err.param).toBe(param);
  else if (param) expect(err.param).toMatch(param);
  expect(r.h.storeJson()).toBe(r.before);
  return err;
}

describe('metadata on create: number of keys', () => {
  it('accepts 20 keys', async () => {
    const metadata = keys(20);
    const { res } = await create(metadata);
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual(metadata);
  });

  it('refuses 21 keys', async () => {
    const err = expectRefusal(await create(keys(21)), 'parameter_invalid', 'metadata');
    expect(err.message).toMatch(/20/);
  });

  it('accepts an empty metadata object', async () => {
    const { res } = await create({});
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({});
  });
});

describe('metadata on create: keys', () => {
  it.each(['team', 'Team_2', 'cost.centre', 'cost-centre', 'a', 'A1_b.c-d', '0', '_', '-.-'])('accepts the key %j', async (key) => {
    const { res } = await create({ [key]: 'x' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.metadata).toEqual({ [key]: 'x' });
  });

  it.each(['cost centre', 'cost/centre', 'cost:centre', 'kosten€', 'équipe', 'a+b', 'key!', 'a,b', '', '$ref'])(
    'refuses the key %j (only letters, digits, underscore, dot, hyphen)',
    async (key) => {
      expectRefusal(await create({ [key]: 'x' }), 'parameter_invalid', /^metadata/);
    },
  );

  it('accepts a key of 40 characters', async () => {
    const key = 'k'.repeat(40);
    const { res } = await create({ [key]: 'x' });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ [key]: 'x' });
  });

  it('refuses a key of 41 characters', async () => {
    expectRefusal(await create({ ['k'.repeat(41)]: 'x' }), 'parameter_invalid', /^metadata/);
  });
});

describe('metadata on create: values', () => {
  it('accepts a text value of 500 characters', async () => {
    const { res } = await create({ note: 'x'.repeat(500) });
    expect(res.status).toBe(201);
    expect(res.body.metadata.note).toHaveLength(500);
  });

  it('refuses a text value of 501 characters', async () => {
    const err = expectRefusal(await create({ note: 'x'.repeat(501) }), 'parameter_invalid', 'metadata.note');
    expect(err.message).toMatch(/500/);
  });

  it.each([
    ['a string', 'blue'],
    ['an empty string', ''],
    ['an integer', 4100],
    ['a decimal', 12.5],
    ['a negative number', -3],
    ['true', true],
    ['false', false],
  ] as const)('accepts %s', async (_name, value) => {
    const { res } = await create({ v: value });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ v: value });
  });

  it.each([
    ['an object', { nested: 'x' }],
    ['an array', ['a', 'b']],
    ['null', null],
  ] as const)('refuses %s as a value on create', async (_name, value) => {
    const err = expectRefusal(await create({ team: 'blue', v: value }), 'parameter_invalid', 'metadata.v');
    expect(err.message).toMatch(/string/);
  });
});

describe('metadata on create: personal data (422 metadata_personal_data)', () => {
  it.each([
    ['an e-mail address', 'lotte@example.test'],
    ['an e-mail address inside text', 'contact lotte.de.boer@example.com'],
    ['an IBAN', 'NL91ABNA0417164300'],
    ['an IBAN printed in groups', 'NL91 ABNA 0417 1643 00'],
    ['an IBAN in lowercase', 'nl91abna0417164300'],
    ['an IBAN inside text', 'salary to NL91ABNA0417164300'],
    ['a BSN', '111222333'],
    ['a BSN', '123456782'],
    ['a BSN with dots', '123.456.782'],
    ['a BSN inside text', 'bsn 123456782'],
    ['a mobile number 0612345678', '0612345678'],
    ['a mobile number 06-12345678', '06-12345678'],
    ['a mobile number 06 12345678', '06 12345678'],
    ['a mobile number +31612345678', '+31612345678'],
    ['a mobile number +31 6 12345678', '+31 6 12345678'],
    ['a mobile number 0031612345678', '0031612345678'],
    ['a mobile number +31 (0)6 12345678', '+31 (0)6 12345678'],
    ['a mobile number inside longer text', 'call 06-12345678 today'],
  ] as const)('refuses %s (%j) with param metadata.<key>', async (_name, value) => {
    const err = expectRefusal(await create({ team: 'blue', contact: value }), 'metadata_personal_data', 'metadata.contact');
    expect(err.message).toMatch(/metadata\.contact/);
  });

  it.each([
    ['a BSN', 123456782],
    ['a BSN', 111222333],
    ['a mobile number in international form without +', 31612345678],
    ['a mobile number without its leading 0', 612345678],
  ] as const)('refuses %s sent as a number value (%d)', async (_name, value) => {
    expectRefusal(await create({ ref: value }), 'metadata_personal_data', 'metadata.ref');
  });

  it.each([
    ['an IBAN with a wrong check digit', 'NL92ABNA0417164300'],
    ['nine digits failing the 11-check', '123456789'],
    ['nine digits failing the 11-check, as a number', 123456789],
    ['a date', '2026-12-01'],
    ['a short number', 4100],
    ['a short number as text', '4100'],
    ['a word', 'store-amsterdam'],
    ['a sentence', 'starts after the summer'],
    ['an order number', 'ORD-2026-000123'],
    ['a landline number', '020 123 4567'],
    ['ten digits', '1234567890'],
    ['an EAN-13 barcode', '8710612345678'],
  ] as const)('accepts %s (%j)', async (_name, value) => {
    const { res } = await create({ v: value });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.metadata).toEqual({ v: value });
  });

  it('names the offending key when only one of several values is personal data', async () => {
    expectRefusal(await create({ team: 'blue', cost_centre: 4100, iban: 'NL91 ABNA 0417 1643 00' }), 'metadata_personal_data', 'metadata.iban');
  });
});

describe('metadata on PATCH: merge and delete', () => {
  it('merges new keys into the stored metadata', async () => {
    const { res } = await patch({ region: 'north' });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ team: 'store-amsterdam', cost_centre: 4100, region: 'north' });
  });

  it('deletes a key with null', async () => {
    const { h, res } = await patch({ cost_centre: null });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ team: 'store-amsterdam' });
    const read = await h.as(KEYS.owner).get(`/v1/onboardings/${FIXTURE}`);
    expect(read.body.metadata).toEqual({ team: 'store-amsterdam' });
  });

  it('accepts null for a key that does not exist (nothing to delete)', async () => {
    const { res } = await patch({ never_set: null });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ team: 'store-amsterdam', cost_centre: 4100 });
  });

  it('accepts a merged total of exactly 20 keys', async () => {
    const { res } = await patch(keys(18));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.metadata)).toHaveLength(20);
  });

  it('refuses a patch whose merged metadata would have 21 keys', async () => {
    const err = expectRefusal(await patch(keys(19)), 'parameter_invalid', 'metadata');
    expect(err.message).toMatch(/20/);
  });

  it('accepts replacing keys and deleting others when the merged total stays at 20', async () => {
    const { res } = await patch({ ...keys(19), cost_centre: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.metadata)).toHaveLength(20);
    expect(res.body.metadata).not.toHaveProperty('cost_centre');
  });

  it('counts the merged result, not the keys of the patch: 2 deleted and 19 added leave 19', async () => {
    const { res } = await patch({ team: null, cost_centre: null, ...keys(19) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata).toEqual(keys(19));
  });

  it('refuses 21 keys left after the merge even when the patch also deletes one', async () => {
    const err = expectRefusal(await patch({ team: null, ...keys(20) }), 'parameter_invalid', 'metadata');
    expect(err.message).toMatch(/21 keys/);
  });

  it('overwrites an existing value, also with another type', async () => {
    const { res } = await patch({ cost_centre: 'CC-4200', team: true });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ team: true, cost_centre: 'CC-4200' });
  });
});

describe('metadata on PATCH: the same key and value rules', () => {
  it('accepts a key of 40 characters and a text of 500', async () => {
    const { res } = await patch({ ['k'.repeat(40)]: 'x'.repeat(500) });
    expect(res.status).toBe(200);
    expect(res.body.metadata['k'.repeat(40)]).toHaveLength(500);
  });

  it('refuses a key of 41 characters', async () => {
    expectRefusal(await patch({ ['k'.repeat(41)]: 'x' }), 'parameter_invalid', /^metadata/);
  });

  it.each(['cost centre', 'a/b', 'équipe'])('refuses the key %j', async (key) => {
    expectRefusal(await patch({ [key]: 'x' }), 'parameter_invalid', /^metadata/);
  });

  it('refuses a text value of 501 characters', async () => {
    expectRefusal(await patch({ note: 'x'.repeat(501) }), 'parameter_invalid', 'metadata.note');
  });

  it.each([
    ['an object', { a: 1 }],
    ['an array', [1]],
  ] as const)('refuses %s as a value', async (_name, value) => {
    expectRefusal(await patch({ v: value }), 'parameter_invalid', 'metadata.v');
  });

  it('refuses metadata that is not an object', async () => {
    expectRefusal(await patch(['team']), 'parameter_invalid', 'metadata');
  });

  it.each([
    ['an e-mail address', 'eva.jansen@example.test'],
    ['an IBAN', 'NL91ABNA0417164300'],
    ['an IBAN printed in groups', 'NL91 ABNA 0417 1643 00'],
    ['an IBAN in lowercase', 'nl91abna0417164300'],
    ['a BSN', '123456782'],
    ['a BSN with dots', '123.456.782'],
    ['a BSN as a number', 123456782],
    ['a mobile number', '06-12345678'],
    ['a mobile number', '+31 (0)6 12345678'],
    ['a mobile number', '0031612345678'],
    ['a mobile number inside longer text', 'call 06-12345678 today'],
  ] as const)('refuses %s (%j) with 422 metadata_personal_data', async (_name, value) => {
    expectRefusal(await patch({ contact: value }), 'metadata_personal_data', 'metadata.contact');
  });

  it('refuses personal data even next to a valid deletion, and deletes nothing', async () => {
    const r = await patch({ cost_centre: null, contact: '06 12345678' });
    expectRefusal(r, 'metadata_personal_data', 'metadata.contact');
    const read = await r.h.as(KEYS.owner).get(`/v1/onboardings/${FIXTURE}`);
    expect(read.body.metadata).toEqual({ team: 'store-amsterdam', cost_centre: 4100 });
  });

  it.each([
    ['an IBAN with a wrong check digit', 'NL92ABNA0417164300'],
    ['nine digits failing the 11-check', '123456789'],
    ['a date', '2026-12-01'],
    ['a short number', 42],
    ['a word', 'north'],
  ] as const)('accepts %s (%j)', async (_name, value) => {
    const { res } = await patch({ v: value });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata.v).toEqual(value);
  });
});
