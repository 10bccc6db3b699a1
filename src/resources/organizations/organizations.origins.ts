/**
 * The one rule for allowed_origins: an entry names a host, or `*.` and a domain for its
 * subdomains. return_url, the review page's frame-ancestors and the origin the review page
 * posts to all ask this module, so an entry means the same thing to each of them.
 */

/** Host names and IPv4 addresses as CSP host sources spell them, so a rule never adds a directive. */
const RULE = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/**
 * The rule an entry stands for, or null when it names no host. Surrounding spaces, a scheme,
 * a port and a path are dropped and the case folded: entries are host names, and people paste
 * origins and URLs.
 */
export function originRule(entry: string): string | null {
  const host = entry
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[:/].*$/, '')
    .toLowerCase();
  return RULE.test(host) ? host : null;
}

/** The rules of a list of entries, in order, without repeats; entries naming no host are left out. */
export function originRules(entries: readonly string[]): string[] {
  return [...new Set(entries.map(originRule).filter((r): r is string => r !== null))];
}

/** Whether a host (lower case, as the URL parser gives it) is admitted: equal to a rule, or a subdomain of a `*.` rule. */
export function hostAllowed(host: string, entries: readonly string[]): boolean {
  return originRules(entries).some((rule) =>
    rule.startsWith('*.') ? host.endsWith(rule.slice(1)) && host.length > rule.length - 1 : host === rule,
  );
}
