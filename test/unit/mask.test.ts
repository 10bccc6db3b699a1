import { describe, expect, it } from 'vitest';
import { KEY_IN_TEXT, maskJson, maskLiveKeys, maskSecret, maskSecrets } from '../../src/core/mask.js';

describe('maskSecrets', () => {
  it('masks a key whatever Bearer token characters it holds, in any text', () => {
    expect(maskSecrets('?api_key=hrs_live_acme-PRODSECRET9&x=1')).toBe('?api_key=hrs_live_…ECRET9&x=1');
    for (const key of ['hrs_live_a.b~c+d/e=f-g_h9', 'hrs_test_0123456789abcdef', 'hrs_live_acme%2BPRODSECRET9']) {
      const shown = maskSecrets(`"${key}"`);
      expect(shown).toBe(`"${maskSecret(key)}"`);
      expect(shown).not.toContain(key.slice(9, -6));
    }
    // The prefix percent-encoded, as a URL may write it.
    expect(maskSecrets('/v1/x?k=hrs%5Flive%5Facme_PRODSECRET9')).not.toContain('PRODSEC');
  });

  it('masks webhook secrets and link tokens, and leaves the rest as it was', () => {
    expect(maskSecrets('{"secret":"whsec_0123456789abcdefghij"}')).toBe('{"secret":"whsec_…efghij"}');
    expect(maskSecrets('http://127.0.0.1:4010/hosted/AbCdEfGhIjKlMnOpQrStUvWxYz012345/contract.pdf')).toBe('http://127.0.0.1:4010/hosted/…012345/contract.pdf');
    expect(maskSecrets('/review/AbCdEfGhIjKlMnOpQrStUvWxYz012345?x')).toBe('/review/…012345?x');
    const plain = '/v1/onboardings/onb_1/review-sessions hrs_live_ whsec_';
    expect(maskSecrets(plain)).toBe(plain);
  });

  it('is idempotent: a masked form is masked again as itself', () => {
    const once = maskSecrets('hrs_live_acme-PRODSECRET9 whsec_0123456789abcdefghij /hosted/AbCdEfGhIjKlMnOpQrStUvWxYz012345');
    expect(maskSecrets(once)).toBe(once);
  });

  it('masks the live keys alone when asked', () => {
    expect(maskLiveKeys('hrs_live_acme-PRODSECRET9 hrs_test_acme_owner whsec_0123456789abcdefghij')).toBe('hrs_live_…ECRET9 hrs_test_acme_owner whsec_0123456789abcdefghij');
  });

  it('masks every string of a JSON value, answering the value itself when there is nothing to mask', () => {
    const clean = { a: ['x'], b: { c: 1 } };
    expect(maskJson(clean)).toBe(clean);
    expect(maskJson({ q: { api_key: ['hrs_live_acme-PRODSECRET9'] }, 'hrs_test_key_as_name': 1 })).toEqual({ q: { api_key: ['hrs_live_…ECRET9'] }, 'hrs_test_…s_name': 1 });
  });

  it('finds a key sent elsewhere than the Authorization header', () => {
    expect(KEY_IN_TEXT.exec('X hrs_live_acme-PRODSECRET9 y')?.[0]).toBe('hrs_live_acme-PRODSECRET9');
  });
});
