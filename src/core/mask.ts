/**
 * The one masking of secrets, used by every output that is not where a secret is handed out or
 * kept: the request journal and the unmatched list (and so their HARs), the control API's
 * answers, error envelopes, logs and spans. A secret is shown as its prefix, an ellipsis and
 * its last 6 characters: enough to recognise it, never enough to use it.
 *
 * What it finds in text, with every character each may hold:
 * - API keys: `hrs_test_` or `hrs_live_` and the characters a Bearer token may hold (RFC 6750:
 *   letters, digits and `-._~+/=`), plus `%` as a URL writes them; the prefix's underscores
 *   may be written `%5F` too. A key the emulator holds is restricted to those characters
 *   (KEY_PATTERN), so no key it holds can stop the masking part way;
 * - webhook signing secrets: `whsec_` and the same characters;
 * - link tokens: the segment after `/hosted/` (the employee's link) or `/review/` (the embedded
 *   review), with the characters a path segment holds unescaped, plus `%`.
 * Cookies and other credentials in headers (Proxy-Authorization, X-Api-Key) are never recorded
 * at all: the journal keeps three named headers only.
 */

/** A key as the emulator holds one: its environment's prefix, then Bearer token characters. */
export const KEY_PATTERN = '^hrs_(test|live)_[A-Za-z0-9._~+/=-]+$';

/** A webhook signing secret as the emulator holds one. */
export const WEBHOOK_SECRET_PATTERN = '^whsec_[A-Za-z0-9._~+/=-]+$';

const UNDERSCORE = '(?:_|%5[Ff])';
const TOKEN_CHARS = '[A-Za-z0-9._~+/=%-]+';
const LINK_CHARS = '[A-Za-z0-9._~%-]+';
const KEY_TEXT = `hrs${UNDERSCORE}(?:test|live)${UNDERSCORE}${TOKEN_CHARS}`;

/** A key found in text (a header, a URL): the first, or null. */
export const KEY_IN_TEXT = new RegExp(KEY_TEXT);

/** Every secret in text, a link token with the path before it. */
const SECRETS = new RegExp(`${KEY_TEXT}|whsec${UNDERSCORE}${TOKEN_CHARS}|/(?:hosted|review)/${LINK_CHARS}`, 'g');

const LIVE_KEY = /^hrs(?:_|%5[Ff])live/;

/**
 * One secret shown without giving it away: its `hrs_<env>_`, `whsec_`, `/hosted/` or `/review/`
 * prefix (else its first 4 characters), an ellipsis and its last 6 characters, with at least 4
 * characters always hidden, so a short one is never written out whole. A masked form is left as
 * it is, and a masked form found in text is not found again: its prefix is followed by the ellipsis.
 */
export function maskSecret(secret: string): string {
  if (secret.includes('…')) return secret;
  const prefix = /^(?:[a-z]+_(?:test|live)_|whsec_|\/(?:hosted|review)\/)/.exec(secret)?.[0] ?? secret.slice(0, 4);
  const shown = Math.max(0, secret.length - 4);
  const head = prefix.slice(0, shown);
  const tailLength = Math.min(6, shown - head.length);
  const tail = tailLength > 0 ? secret.slice(secret.length - tailLength) : '';
  return `${head}…${tail}`;
}

const masked = (text: string, which: (found: string) => boolean): string => text.replace(SECRETS, (found) => (which(found) ? maskSecret(found) : found));

const every = (): boolean => true;

/** The text with every key, webhook secret and link token in it masked. */
export const maskSecrets = (text: string): string => masked(text, every);

/** The text with its live keys masked, and nothing else (MCP answers: the session works with test keys). */
export const maskLiveKeys = (text: string): string => masked(text, (found) => LIVE_KEY.test(found));

const ANY_SECRET = new RegExp(SECRETS.source);

/**
 * A JSON value with maskSecrets applied to its every string (and key): the value itself when
 * it holds nothing to mask, which is the usual case and costs one serialisation. Masking never
 * changes the JSON's structure (no secret character is a quote or a backslash).
 */
export function maskJson<T>(value: T, mask: (text: string) => string = maskSecrets): T {
  const text = JSON.stringify(value);
  if (text === undefined || !ANY_SECRET.test(text)) return value;
  return JSON.parse(mask(text)) as T;
}
