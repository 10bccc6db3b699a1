import { STATUS_CODES } from 'node:http';
import { EMULATOR_VERSION } from '../core/product.js';
import { JsonFile } from '../operations/reply.js';
import type { Har, HarEntry, HarNameValue } from './har.schemas.js';

/**
 * What the HAR exports share: the document around the entries, and the pieces every entry
 * fills the same way. HAR has no registered media type: the document goes out as
 * application/json, which browsers, fetch and every HTTP client read without being told.
 */

export const harFile = (entries: HarEntry[], comment: string): JsonFile<Har> =>
  new JsonFile<Har>({ log: { version: '1.2', creator: { name: 'onboarding-emulator', version: EMULATOR_VERSION }, entries, comment } });

export const statusText = (status: number): string => (status === 0 ? '' : STATUS_CODES[status] ?? '');

/** Headers as HAR lists them, those without a value left out. */
export const nameValues = (pairs: Record<string, string | null | undefined>): HarNameValue[] =>
  Object.entries(pairs).flatMap(([name, value]) => (value === null || value === undefined ? [] : [{ name, value }]));

/** A query as parsed (a value may repeat, or nest as `a[b]=c`) back into its name and value pairs. */
export function queryPairs(query: Record<string, unknown>, prefix = ''): HarNameValue[] {
  return Object.entries(query).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (Array.isArray(value)) return value.map((v) => ({ name, value: String(v) }));
    if (value !== null && typeof value === 'object') return queryPairs(value as Record<string, unknown>, name);
    return [{ name, value: String(value) }];
  });
}

/**
 * One exchange's timings: all of it is waiting, as the emulator measures only the whole
 * (the phases it cannot tell are -1, HAR's "does not apply").
 */
export const harTimings = (ms: number): HarEntry['timings'] => ({ blocked: -1, dns: -1, connect: -1, send: 0, wait: ms, receive: 0 });

export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');
