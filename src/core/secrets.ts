import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret someone presented (a one-time code, a session, an action token) equals the
 * one kept, in time that does not depend on where they differ, so answers cannot be timed to
 * guess it a character at a time. Only the length can show, and no length here is a secret.
 */
export function sameSecret(presented: string, kept: string): boolean {
  const x = Buffer.from(presented);
  const y = Buffer.from(kept);
  return x.length === y.length && timingSafeEqual(x, y);
}
