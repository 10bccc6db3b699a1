import { customRandom } from 'nanoid';
import type { RandomSource } from './random.js';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** Spec prefixes (section "Conventions"), plus the emulator's own. */
type IdPrefix =
  | 'onb' | 'emp' | 'org' | 'loc' | 'doc' | 'wh' | 'whd' | 'evt' | 'whsec'
  | 'req' | 'ws' | 'usr' | 'tpl' | 'hl' | 'mail' | 'rvs' | 'wht' | 'flt' | 'dft';

export interface IdFactory {
  id(prefix: IdPrefix): string;
  /** An unguessable token for URLs (hosted links, review links). */
  token(): string;
  /** A numeric one-time code. */
  code(length?: number): string;
}

export function createIds(random: RandomSource): IdFactory {
  const getRandom = (n: number) => random.bytes(n);
  const body = customRandom(ALPHANUMERIC, 20, getRandom);
  const token = customRandom(ALPHANUMERIC, 32, getRandom);
  const codes = new Map<number, () => string>();
  return {
    id: (prefix) => `${prefix}_${body()}`,
    token: () => token(),
    code(length = 6) {
      let make = codes.get(length);
      if (!make) codes.set(length, (make = customRandom(DIGITS, length, getRandom)));
      return make();
    },
  };
}
