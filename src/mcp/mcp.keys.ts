import { fail } from '../core/errors.js';
import { maskJson, maskLiveKeys as maskLiveKeysIn, maskSecret } from '../core/mask.js';

/**
 * An MCP session works with test keys only: the spec gives live keys (hrs_live_) production
 * data, which a coding agent has no business holding. No argument may carry one, and every
 * answer shows them masked, as the request journal does (snapshots and new workspaces hold them).
 * The masking is src/core/mask.ts's, limited to live keys.
 */
export const isLiveKey = (key: string): boolean => key.startsWith('hrs_live_');

/** Refuses a value that names a live key anywhere in it; bounded by the value's own size, read once. */
export function refuseLiveKeys(value: unknown): void {
  const text = JSON.stringify(value) ?? '';
  if (maskLiveKeysIn(text) !== text) {
    throw fail('sandbox_test_keys_only', 'An MCP session works with test keys only (hrs_test_...): leave live keys out of its tools.');
  }
}

/**
 * The masked live keys of a value put back as the keys they stand for, where one of `liveKeys`
 * masks to it: a snapshot the session took restores whole, and still no live key was shown.
 */
export function unmaskLiveKeys<T>(value: T, liveKeys: readonly string[]): T {
  const text = JSON.stringify(value);
  if (text === undefined || !text.includes('hrs_live_…')) return value;
  const byMask = new Map<string, string | null>();
  // Two live keys with one mask (the same last characters) cannot be told apart: such a key is not put back.
  for (const key of liveKeys.filter(isLiveKey)) byMask.set(maskSecret(key), byMask.has(maskSecret(key)) ? null : key);
  return JSON.parse(
    text.replace(/hrs_live_…[A-Za-z0-9._~+/=%-]*/g, (masked) => {
      const key = byMask.get(masked);
      if (key === null) throw fail('snapshot_invalid', `Two live keys of this workspace show as ${masked}; a snapshot taken through MCP cannot tell them apart. Restore it with PUT /_emulator/snapshot instead.`, 'store.keys');
      return key ?? masked;
    }),
  ) as T;
}

/** The value with every live key in it masked. */
export const maskLiveKeys = <T>(value: T): T => maskJson(value, maskLiveKeysIn);
