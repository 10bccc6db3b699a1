import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sign, signatureHeader, verifySignature } from '../../src/delivery/signature.js';

const NEW = 'whsec_new_0123456789';
const OLD = 'whsec_old_9876543210';
const T = 1_790_000_000;
const BODY = '{"id":"evt_1","type":"onboarding.created","data":{"reference":"Zoë – 😀"}}';

/** The spec's definition, computed independently of the module under test. */
function reference(secret: string, t: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)])).digest('hex');
}

describe('sign and signatureHeader', () => {
  it('signs `<t>.<raw body>` with HMAC-SHA256 in hex', () => {
    expect(sign(NEW, T, BODY)).toBe(reference(NEW, T, BODY));
    expect(sign(NEW, T, BODY)).toMatch(/^[0-9a-f]{64}$/);
    expect(sign(NEW, T, '')).toBe(reference(NEW, T, ''));
  });

  it('writes t and one v1 for a single secret', () => {
    expect(signatureHeader([NEW], T, BODY)).toBe(`t=${T},v1=${reference(NEW, T, BODY)}`);
  });

  it('writes one v1 per secret, new first, during a rotation', () => {
    expect(signatureHeader([NEW, OLD], T, BODY)).toBe(`t=${T},v1=${reference(NEW, T, BODY)},v1=${reference(OLD, T, BODY)}`);
  });

  it('refuses no secret and a timestamp that is not whole unix seconds', () => {
    expect(() => signatureHeader([], T, BODY)).toThrow(RangeError);
    expect(() => sign(NEW, 1.5, BODY)).toThrow(RangeError);
    expect(() => sign(NEW, -1, BODY)).toThrow(RangeError);
  });
});

describe('verifySignature', () => {
  const now = T + 10;
  const rotated = signatureHeader([NEW, OLD], T, BODY);

  it('accepts a header signed with the secret', () => {
    expect(verifySignature(BODY, signatureHeader([NEW], T, BODY), NEW, { now })).toBe(true);
  });

  it('accepts either v1 value of a rotation, with one secret or a list', () => {
    expect(verifySignature(BODY, rotated, NEW, { now })).toBe(true);
    expect(verifySignature(BODY, rotated, OLD, { now })).toBe(true);
    expect(verifySignature(BODY, rotated, ['whsec_other', OLD], { now })).toBe(true);
    expect(verifySignature(BODY, signatureHeader([OLD], T, BODY), [NEW, OLD], { now })).toBe(true);
  });

  it('rejects a wrong secret and an empty list of secrets', () => {
    expect(verifySignature(BODY, rotated, 'whsec_wrong', { now })).toBe(false);
    expect(verifySignature(BODY, rotated, [], { now })).toBe(false);
  });

  it('rejects a tampered body, even by one byte or re-serialized', () => {
    expect(verifySignature(BODY.replace('evt_1', 'evt_2'), rotated, NEW, { now })).toBe(false);
    expect(verifySignature(`${BODY} `, rotated, NEW, { now })).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(BODY), null, 2), rotated, NEW, { now })).toBe(false);
  });

  it('rejects a timestamp changed after signing', () => {
    const header = signatureHeader([NEW], T, BODY).replace(`t=${T}`, `t=${T + 1}`);
    expect(verifySignature(BODY, header, NEW, { now })).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['no t', `v1=${reference(NEW, T, BODY)}`],
    ['no v1', `t=${T}`],
    ['two t', `t=${T},t=${T},v1=${reference(NEW, T, BODY)}`],
    ['t not a number', `t=abc,v1=${reference(NEW, T, BODY)}`],
    ['t negative', `t=-${T},v1=${reference(NEW, T, BODY)}`],
    ['v1 too short', `t=${T},v1=${reference(NEW, T, BODY).slice(2)}`],
    ['v1 not hex', `t=${T},v1=${'z'.repeat(64)}`],
    ['a part without =', `t=${T},v1=${reference(NEW, T, BODY)},junk`],
    ['semicolons', `t=${T};v1=${reference(NEW, T, BODY)}`],
  ])('rejects a malformed header: %s', (_name, header) => {
    expect(verifySignature(BODY, header, NEW, { now })).toBe(false);
  });

  it('never throws on values a receiver might pass through from its request object', () => {
    const header = signatureHeader([NEW], T, BODY);
    expect(verifySignature(BODY, undefined as unknown as string, NEW, { now })).toBe(false);
    expect(verifySignature(BODY, [header] as unknown as string, NEW, { now })).toBe(false);
    expect(verifySignature(undefined as unknown as string, header, NEW, { now })).toBe(false);
  });

  it('tolerates spaces around parts and ignores unknown schemes', () => {
    const v1 = reference(NEW, T, BODY);
    expect(verifySignature(BODY, `t=${T}, v1=${v1}, v2=whatever`, NEW, { now })).toBe(true);
    expect(verifySignature(BODY, `t=${T},v1=${v1.toUpperCase()}`, NEW, { now })).toBe(true);
  });

  it('rejects stale and future timestamps beyond the default 5 minutes', () => {
    const header = signatureHeader([NEW], T, BODY);
    expect(verifySignature(BODY, header, NEW, { now: T + 300 })).toBe(true);
    expect(verifySignature(BODY, header, NEW, { now: T - 300 })).toBe(true);
    expect(verifySignature(BODY, header, NEW, { now: T + 301 })).toBe(false);
    expect(verifySignature(BODY, header, NEW, { now: T - 301 })).toBe(false);
  });

  it('respects a custom tolerance', () => {
    const header = signatureHeader([NEW], T, BODY);
    expect(verifySignature(BODY, header, NEW, { now: T + 30, toleranceSeconds: 30 })).toBe(true);
    expect(verifySignature(BODY, header, NEW, { now: T + 31, toleranceSeconds: 30 })).toBe(false);
    expect(verifySignature(BODY, header, NEW, { now: T + 3_600, toleranceSeconds: 7_200 })).toBe(true);
    expect(verifySignature(BODY, header, NEW, { now: T, toleranceSeconds: -1 })).toBe(false);
  });

  it('uses the wall clock when no now is given', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(verifySignature(BODY, signatureHeader([NEW], t, BODY), NEW)).toBe(true);
    expect(verifySignature(BODY, signatureHeader([NEW], t - 3_600, BODY), NEW)).toBe(false);
  });

  it('verifies a Buffer body over its exact bytes, non-ASCII included', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    const header = `t=${T},v1=${reference(NEW, T, bytes)}`;
    expect(verifySignature(bytes, header, NEW, { now })).toBe(true);
    expect(verifySignature(bytes, signatureHeader([NEW], T, BODY), NEW, { now })).toBe(true);
    // The same text in another encoding is other bytes, so another signature.
    expect(verifySignature(Buffer.from(BODY, 'utf16le'), header, NEW, { now })).toBe(false);
    // Bytes that are not valid UTF-8 are signed as they are, never decoded first.
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x7d]);
    const rawHeader = `t=${T},v1=${reference(NEW, T, raw)}`;
    expect(verifySignature(raw, rawHeader, NEW, { now })).toBe(true);
    expect(verifySignature(raw.toString('utf8'), rawHeader, NEW, { now })).toBe(false);
  });
});
