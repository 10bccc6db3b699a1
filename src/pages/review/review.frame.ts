import type { Organization } from '../../resources/organizations/organizations.model.js';
import { originRules } from '../../resources/organizations/organizations.origins.js';


/**
 * frame-ancestors for a session: the employer's allowed_origins, and the partner's when a
 * partner's key made it (the partner's product embeds the page). Scheme-less sources with any
 * port, so an http or https ancestor on that host may frame the page. Entries that name no
 * host are left out (organizations.origins.ts), so no setting can inject another directive.
 */
export function frameAncestors(organizations: (Organization | undefined)[]): string {
  const rules = originRules(organizations.flatMap((o) => o?.allowed_origins ?? []));
  return ["'self'", ...rules.map((rule) => `${rule}:*`)].join(' ');
}

/**
 * The review pages' policy: only the emulator's own script and style files (no inline script,
 * so injected markup could not run even if it got through the escaping), forms post back to
 * the emulator only, and framing is limited to `ancestors`.
 */
export function reviewPolicy(ancestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}
