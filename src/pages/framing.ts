import type { Organization } from '../resources/organizations/organizations.model.js';
import { originRules } from '../resources/organizations/organizations.origins.js';

/**
 * Who may show a person's page in a frame: the employee's hosted pages and the review alike.
 * A partner's product embeds them, so the employer's allowed_origins admit it, and the partner's
 * own when a partner made the onboarding or the session.
 */

/**
 * frame-ancestors from the organizations' allowed_origins. Scheme-less sources with any port:
 * an ancestor on that host over https, and over http too while the emulator itself is on http.
 * Entries that name no host are left out (organizations.origins.ts), so no setting can inject
 * another directive.
 */
export function frameAncestors(organizations: (Organization | undefined)[]): string {
  const rules = originRules(organizations.flatMap((o) => o?.allowed_origins ?? []));
  return ["'self'", ...rules.map((rule) => `${rule}:*`)].join(' ');
}

/** A page for no known link names no organization, so any product may show it in its frame. */
export const ANY_ANCESTOR = '*';

/**
 * Loopback hosts, where browsers keep a Secure cookie sent over plain http (they count
 * http://localhost, its subdomains and http://127.0.0.1 as secure contexts).
 */
const LOOPBACK = /^((?:[a-z0-9-]+\.)*localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * The attributes of a page session's cookie, by the base URL the emulator's links are built on.
 * In a frame of another site a browser sends no SameSite=Lax cookie and, with third-party cookies
 * blocked, no SameSite=None one either: a partitioned cookie (kept per top-level site) is what
 * it still sends, and that must be Secure. Top-level, and where Secure cannot be kept (plain
 * http on a host other than loopback), SameSite=Lax.
 */
export function sessionCookieAttributes(baseUrl: string, framed: boolean): string {
  const url = new URL(baseUrl);
  const https = url.protocol === 'https:';
  if (framed && (https || LOOPBACK.test(url.host))) return 'SameSite=None; Secure; Partitioned';
  return `SameSite=Lax${https ? '; Secure' : ''}`;
}
