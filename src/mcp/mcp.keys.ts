import { fail } from '../core/errors.js';
import { maskJson, maskLiveKeys, maskSecret } from '../core/mask.js';

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
  if (maskLiveKeys(text) !== text) {
    throw fail('sandbox_test_keys_only', 'An MCP session works with test keys only (hrs_test_...): leave live keys out of its tools.');
  }
}

/** The value with every live key in it masked. */
export const withLiveKeysMasked = <T>(value: T): T => maskJson(value, maskLiveKeys);

interface KeyTable {
  store?: { keys?: unknown };
}

/**
 * A snapshot the session took, its live keys put back where a key belongs: its key table
 * (`store.keys[].key`), each masked key that one live key of the workspace masks to. Nowhere
 * else: a masked key an agent wrote into an onboarding's reference, a webhook URL or any other
 * text stays that text, so no restore turns what an agent wrote into a live key. A masked key
 * left in the table is not a key, and the snapshot's schema refuses it.
 */
export function unmaskKeyTable(snapshot: unknown, liveKeys: readonly string[]): unknown {
  const store = (snapshot as KeyTable | null)?.store;
  if (store === null || typeof store !== 'object' || !Array.isArray(store.keys)) return snapshot;
  const byMask = new Map<string, string | null>();
  // Two live keys with one mask (the same last characters) cannot be told apart: such a key is not put back.
  for (const key of liveKeys.filter(isLiveKey)) byMask.set(maskSecret(key), byMask.has(maskSecret(key)) ? null : key);
  const keys = (store.keys as unknown[]).map((record, i) => {
    const shown = (record as { key?: unknown } | null)?.key;
    const key = typeof shown === 'string' ? byMask.get(shown) : undefined;
    if (key === null) throw fail('snapshot_invalid', `Two live keys of this workspace show as ${String(shown)}; a snapshot taken through MCP cannot tell them apart. Restore it with PUT /_emulator/snapshot instead.`, `store.keys[${i}].key`);
    return key === undefined ? record : { ...(record as object), key };
  });
  return { ...(snapshot as object), store: { ...store, keys } };
}
