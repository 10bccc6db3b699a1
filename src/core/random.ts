import { webcrypto } from 'node:crypto';

/**
 * The one source of randomness. Seeded, it is a small counter-based generator (sfc32), so the
 * same seed yields the same ids, codes and secrets; unseeded, it draws from the OS.
 */
export interface RandomSource {
  readonly seeded: boolean;
  bytes(count: number): Uint8Array;
  /** Derives an independent source, so each workspace has its own sequence. */
  fork(label: string): RandomSource;
  /** Where a seeded sequence stands, so a snapshot continues it; null for the OS source. */
  state(): RandomState | null;
}

/** A seeded source's seed (for fork) and its four sfc32 words. */
export interface RandomState {
  seed: string;
  words: [number, number, number, number];
}

export function createRandom(seed?: string | number): RandomSource {
  return seed === undefined || seed === '' ? osRandom() : seededRandom(String(seed));
}

/** The source a snapshot describes: the seeded sequence from where it stood, else the OS. */
export function restoreRandom(state: RandomState | null): RandomSource {
  return state === null ? osRandom() : seededRandom(state.seed, state.words);
}

/**
 * A seeded source for the `restart`-th start after a stop that may have lost writes: the same
 * seed (so forks stay as they were), but a stream of its own, drawn from the seed and the
 * restart number, instead of the stored position. Ids handed out after the last write of the
 * stopped process came from the old stream past that position; the new stream does not repeat
 * them, which continuing from the position would.
 */
export function restartRandom(state: RandomState, restart: number): RandomSource {
  const fresh = seededRandom(`${state.seed}\u0000restart ${restart}`).state()!;
  return seededRandom(state.seed, fresh.words);
}

/** Bytes are drawn from the OS in blocks: one system call per request id was measurable. */
function osRandom(): RandomSource {
  const POOL = 4096;
  let pool = new Uint8Array(0);
  let offset = 0;
  return {
    seeded: false,
    bytes(count) {
      if (count > POOL) return webcrypto.getRandomValues(new Uint8Array(count));
      if (offset + count > pool.length) {
        pool = webcrypto.getRandomValues(new Uint8Array(POOL));
        offset = 0;
      }
      const out = pool.slice(offset, offset + count);
      offset += count;
      return out;
    },
    fork: () => osRandom(),
    state: () => null,
  };
}

function seededRandom(seed: string, words?: readonly [number, number, number, number]): RandomSource {
  let [a, b, c, d] = words ?? hash128(seed);
  const next32 = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const out = (t + d) | 0;
    c = (c + out) | 0;
    return out >>> 0;
  };
  if (!words) for (let i = 0; i < 16; i++) next32();
  return {
    seeded: true,
    bytes(count) {
      const out = new Uint8Array(count);
      for (let i = 0; i < count; i += 4) {
        const word = next32();
        for (let j = 0; j < 4 && i + j < count; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
      }
      return out;
    },
    fork: (label) => seededRandom(`${seed}/${label}`),
    state: () => ({ seed, words: [a >>> 0, b >>> 0, c >>> 0, d >>> 0] }),
  };
}

/** cyrb128: spreads a string seed over four 32-bit words. */
function hash128(str: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}
