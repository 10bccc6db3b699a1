import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { includes } from '../../src/core/journal.match.js';
import { textIncludes } from '../../src/core/json-subset.js';

/**
 * body_includes read from the journal's text rather than its parsed body: the same answer as
 * includes(JSON.parse(text)), for any body and any subset, however the text is spaced or escaped.
 */

/** A subset of `value`, or now and then something else, so both answers come up. */
function subsetOf(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) return fc.tuple(...value.map(subsetOf)).map((items) => items);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return fc.constant({});
    return fc.subarray(keys).chain((picked) => (picked.length === 0 ? fc.constant({}) : fc.tuple(...picked.map((k) => subsetOf((value as Record<string, unknown>)[k]))).map((vs) => Object.fromEntries(picked.map((k, i) => [k, vs[i]])))));
  }
  return fc.constant(value);
}

const body = fc.jsonValue({ maxDepth: 4 });
const spaced = (value: unknown, how: number) => (how === 0 ? JSON.stringify(value) : how === 1 ? JSON.stringify(value, null, 2) : JSON.stringify(value).replace(/[ :,[\]{}]/g, (c) => ` ${c}\n`).replace(/"(?:[^"\\]|\\.)*"/g, (str) => str.replace(/ (.)\n/g, '$1')));
/** Every character of every string written as \u escapes: the text now holds backslashes. */
const escaped = (value: unknown) => JSON.stringify(value).replace(/"((?:[^"\\]|\\.)*)"/g, (_m, inner: string) => `"${[...(JSON.parse(`"${inner}"`) as string)].map((ch) => [...ch].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`);

describe('textIncludes', () => {
  it('answers as includes(JSON.parse(text)) for a subset of the body', () => {
    fc.assert(fc.property(body.chain((b) => fc.tuple(fc.constant(b), subsetOf(b), fc.integer({ min: 0, max: 2 }))), ([b, sub, how]) => {
      expect(textIncludes(spaced(b, how), sub)).toBe(includes(b, sub));
    }), { numRuns: 2_000 });
  });

  it('answers as includes(JSON.parse(text)) for any other value', () => {
    fc.assert(fc.property(body, body, fc.integer({ min: 0, max: 2 }), (b, other, how) => {
      expect(textIncludes(spaced(b, how), other)).toBe(includes(b, other));
    }), { numRuns: 2_000 });
  });

  it('reads escaped strings and keys as JSON.parse does', () => {
    fc.assert(fc.property(body.chain((b) => fc.tuple(fc.constant(b), subsetOf(b))), ([b, sub]) => {
      expect(textIncludes(escaped(b), sub)).toBe(includes(b, sub));
    }), { numRuns: 1_000 });
  });

  it('takes the last of a key given twice, as JSON.parse does', () => {
    const text = '{"a": 1, "b": {"c": "x"}, "a": 2}';
    expect(textIncludes(text, { a: 2 })).toBe(true);
    expect(textIncludes(text, { a: 1 })).toBe(false);
    expect(textIncludes(text, { b: {} })).toBe(true);
    expect(textIncludes(text, { b: [] })).toBe(false);
  });

  it('compares numbers by value and keeps types apart', () => {
    expect(textIncludes('{"n": 1.0e0, "s": "1", "t": true, "z": null}', { n: 1 })).toBe(true);
    expect(textIncludes('{"n": 1.0e0, "s": "1", "t": true, "z": null}', { s: 1 })).toBe(false);
    expect(textIncludes('{"n": 1.0e0, "s": "1", "t": true, "z": null}', { t: true, z: null })).toBe(true);
    expect(textIncludes('{"n": 1.0e0, "s": "1", "t": true, "z": null}', { z: false })).toBe(false);
    expect(textIncludes('[1, [2, 3]]', [1, [2, 3]])).toBe(true);
    expect(textIncludes('[1, [2, 3]]', [1, [2]])).toBe(false);
  });

  it('answers undefined for text that is not JSON, so the caller parses it', () => {
    expect(textIncludes('{"a": ', { a: 1 })).toBeUndefined();
    expect(textIncludes('{"a": 1} x', { a: 1 })).toBeUndefined();
  });
});
