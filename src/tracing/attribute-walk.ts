/**
 * Which attributes a span's encoding writes, and in what order, for both OTLP encodings: the
 * objects in the order given, an undefined value left out, a name set again by a later object
 * written there instead. A frozen object is a constant one (a route's attributes, made once),
 * handed whole to the encoder to write from its kept bytes; its names are set by no later object.
 * Every other string goes out with its secrets masked (src/core/mask.ts): a path or an address
 * may hold a key or a link token; a frozen object is the code's own (a route, a listener).
 */
import { maskSecrets } from '../core/mask.js';
import type { SpanAttributes } from '../core/tracing.js';

export type AttributeValue = string | number | boolean;

export interface AttributeEncoder<W> {
  /** Writes a frozen object whole; says whether it wrote anything. */
  frozen(w: W, attributes: SpanAttributes, first: boolean): boolean;
  one(w: W, key: string, value: AttributeValue, first: boolean): void;
}

/** Whether a later object of the list sets `key`. */
function setLater(list: readonly SpanAttributes[], from: number, key: string): boolean {
  for (let j = from + 1; j < list.length; j++) if (list[j]![key] !== undefined) return true;
  return false;
}

export function writeEachAttribute<W>(w: W, list: readonly SpanAttributes[], encoder: AttributeEncoder<W>): void {
  let first = true;
  for (let i = 0; i < list.length; i++) {
    const attributes = list[i]!;
    if (Object.isFrozen(attributes)) {
      if (encoder.frozen(w, attributes, first)) first = false;
      continue;
    }
    for (const key in attributes) {
      const value = attributes[key];
      if (value === undefined || setLater(list, i, key)) continue;
      encoder.one(w, key, typeof value === 'string' ? maskSecrets(value) : value, first);
      first = false;
    }
  }
}
