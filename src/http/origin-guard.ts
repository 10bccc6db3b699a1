import { isIP } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { fail } from '../core/errors.js';
import { writeError } from './reply.js';

/**
 * Two locks for an emulator anyone's browser can reach (the control API has no key):
 *
 * - the Host header must name this emulator: an IP address, `localhost` or a name under it, a
 *   single-label name (a compose service, `docker`), the `--public-url` host, or a name given
 *   with `--allowed-hosts` (`*` for any). A page that rebinds its own domain's DNS to 127.0.0.1
 *   sends its own domain as Host, and is refused. Single-label names are any name without a dot
 *   until `--allowed-hosts` lists one or more: then only those, as a name a local network's
 *   resolvers answer (search domains, LLMNR) could otherwise be pointed at the emulator.
 * - a request that changes the control API (`/_emulator`, any method but GET, HEAD and
 *   OPTIONS) is refused when a browser says it comes from a page of another origin
 *   (`Sec-Fetch-Site` cross-site or same-site, else an `Origin` other than the request's own).
 *   Test code, curl, the CLI and SDKs send neither and are not affected; the inspector and the
 *   API explorer are same-origin.
 */
export interface OriginGuardOptions {
  /** Host names answered besides the default ones: exact, `.example.test` or `*.example.test` for a domain and its names, `*` for any. */
  allowedHosts?: readonly string[] | string | undefined;
  publicUrl?: string | undefined;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `--allowed-hosts a.test,.b.test` (and EMULATOR_ALLOWED_HOSTS): the names, trimmed, lower-cased. */
function parseAllowedHosts(value: readonly string[] | string | undefined): string[] {
  const list = typeof value === 'string' ? value.split(',') : [...(value ?? [])];
  return list.map((h) => h.trim().toLowerCase()).filter(Boolean);
}

export function originGuard(options: OriginGuardOptions) {
  const extra = parseAllowedHosts(options.allowedHosts);
  const anyHost = extra.includes('*');
  // Single-label names listed narrow the dotless names answered to those.
  const dotless = extra.filter((entry) => entry !== '*' && !entry.includes('.') && isIP(entry.replace(/^\[|\]$/g, '')) === 0);
  const publicHost = options.publicUrl ? new URL(options.publicUrl).hostname.toLowerCase() : undefined;
  const hostAllowed = (name: string): boolean =>
    anyHost
    || isIP(name.replace(/^\[|\]$/g, '')) !== 0
    || name === 'localhost' || name.endsWith('.localhost')
    || (!name.includes('.') && (dotless.length === 0 || dotless.includes(name)))
    || name === publicHost
    || extra.some((entry) => entryAdmits(entry, name));

  return (req: Request, res: Response, next: NextFunction): void => {
    const host = req.headers.host;
    // HTTP/1.0 clients (a health probe through bash's /dev/tcp) may send none; a browser always does.
    const name = host === undefined ? undefined : hostName(host);
    if (name !== undefined && !hostAllowed(name)) {
      return writeError(req, res, fail('host_not_allowed',
        `This emulator does not answer to the host name ${name} (a guard against DNS rebinding). Start it with --allowed-hosts ${name} (or EMULATOR_ALLOWED_HOSTS=${name}), or --allowed-hosts '*' to answer any name.`));
    }
    if (!READS.has(req.method) && req.path.startsWith('/_emulator/')) {
      const from = crossOrigin(req, host);
      if (from !== null) {
        return writeError(req, res, fail('cross_origin_refused',
          `A page of another origin (${from}) may not change the emulator through the control API. Call it from your test code, the CLI or curl, or use the inspector at /_emulator/ui.`));
      }
    }
    next();
  };
}

/** `a.test` admits that name; `.a.test` and `*.a.test` admit a.test and every name under it. */
function entryAdmits(entry: string, name: string): boolean {
  if (entry === name) return true;
  const domain = entry.startsWith('*.') ? entry.slice(2) : entry.startsWith('.') ? entry.slice(1) : null;
  return domain !== null && (name === domain || name.endsWith(`.${domain}`));
}

/** The host name of a Host header, without its port, lower-cased; `[::1]` keeps its brackets. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** Where a browser says the request comes from when that is another origin; null when it is this one, or no browser said. */
function crossOrigin(req: Request, host: string | undefined): string | null {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site === 'cross-site' || site === 'same-site') return origin ?? site;
  if (site === 'same-origin' || site === 'none') return null;
  if (origin === undefined) return null;
  if (origin === 'null') return 'an opaque origin';
  try {
    return new URL(origin).host.toLowerCase() === host?.trim().toLowerCase() ? null : origin;
  } catch {
    return origin;
  }
}
