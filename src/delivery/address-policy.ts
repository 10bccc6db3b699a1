/**
 * Which webhook URLs the emulator accepts and delivers to.
 * `local` (default): http and https, loopback and private hosts allowed, because receivers run
 * beside the emulator. `strict`: the production rules, https only, an internal address literal
 * refused at registration and the host name resolved right before every delivery, refusing
 * internal addresses. Credentials in a URL are refused under both. Resolving goes through an
 * injected Resolver so tests never touch real DNS.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type UrlPolicy = 'local' | 'strict';
export type Resolver = (hostname: string) => Promise<string[]>;

/** Long enough for any real receiver; bounds what an address record stores. */
const MAX_URL_LENGTH = 2048;

/**
 * At registration (POST /v1/webhooks): null when acceptable, else a reason without the field
 * name ("must use https under the strict URL policy."), for the caller to prefix. Both policies:
 * absolute http(s) URL, no user name or password, no fragment. strict: https only, and a host
 * that is an internal IP address in any notation the URL parser reads is refused. Host names are
 * not resolved here: a name may resolve differently by the time of delivery, so its check runs
 * then (checkDeliveryTarget).
 */
export function checkAddressUrl(url: string, policy: UrlPolicy): string | null {
  if (typeof url !== 'string' || url === '') return 'must be an absolute http or https URL.';
  if (url.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters.`;
  // The URL parser silently drops tabs, newlines and outer spaces; refusing them means the
  // stored URL is exactly the one delivered to.
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return 'must not contain spaces or control characters.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an absolute http or https URL.';
  if (policy === 'strict' && parsed.protocol !== 'https:') return 'must use https under the strict URL policy.';
  // The parser also accepts `https:host`; only the written-out form is stored and shown.
  const authority = /^https?:\/\/([^/?#\\]*)/i.exec(url)?.[1];
  if (authority === undefined) return 'must be an absolute http or https URL.';
  // `https://:@host` parses to empty credentials, but the `@` still says someone tried.
  if (parsed.username !== '' || parsed.password !== '' || authority.includes('@')) {
    return 'must not contain a user name or password.';
  }
  // `#` anywhere starts a fragment, even an empty one the parser would not report.
  if (url.includes('#')) return 'must not contain a fragment (#).';
  if (policy === 'strict') {
    // The parser has already turned decimal, octal, hex and short IPv4 forms into dotted ones and
    // compressed IPv6, so the parsed host is the address a delivery would connect to.
    const address = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(address) && isInternalAddress(address)) {
      const written = /^(\[[^\]]*\]|[^:]*)/.exec(authority)?.[1] ?? '';
      const same = written === '' || written.toLowerCase() === parsed.hostname;
      // Naming the parsed form too explains why `2852039166` counts as internal.
      const shown = same ? parsed.hostname : `${written} (${parsed.hostname})`;
      return `${shown} is an internal address, refused by the strict URL policy.`;
    }
  }
  return null;
}

/**
 * True for loopback, private (10/8, 172.16/12, 192.168/16), link-local (169.254/16,
 * fe80::/10), CGNAT 100.64/10, unspecified (0.0.0.0, ::), multicast, broadcast, unique-local
 * fc00::/7, IPv4-mapped IPv6 of those, 192.0.0/24, 198.18/15, and the cloud metadata address.
 * Anything that is not an IP address counts as internal: the caller refuses, never guesses.
 */
export function isInternalAddress(ip: string): boolean {
  if (typeof ip !== 'string') return true;
  const family = isIP(ip);
  if (family === 4) return isInternalV4(ipv4ToNumber(ip));
  if (family === 6) {
    const groups = ipv6Groups(ip);
    return groups === null || isInternalV6(groups);
  }
  return true;
}

/**
 * What the policy makes of a delivery target right before an attempt: `refused`, a sentence for
 * the attempt's last_error (the dispatcher writes "refused by the strict URL policy: <reason>"),
 * or null; and under strict, the `addresses` that passed, which the attempt connects to without
 * resolving the name again (a second lookup could answer otherwise: DNS rebinding).
 */
export interface DeliveryTarget {
  refused: string | null;
  addresses?: string[];
}

/**
 * local: always allowed, resolved by the transport as usual. strict: https required; an IP
 * literal is checked as is, a host name resolved with the given resolver, and refused when it
 * fails to resolve or any address is internal.
 */
export async function vetDeliveryTarget(url: string, policy: UrlPolicy, resolver: Resolver): Promise<DeliveryTarget> {
  if (policy === 'local') return { refused: null };
  const shape = checkAddressUrl(url, 'local');
  if (shape) return { refused: `the URL ${shape}` };
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return { refused: 'only https URLs are delivered to.' };
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    return isInternalAddress(host) ? { refused: `${host} is an internal address.` } : { refused: null, addresses: [host] };
  }
  const name = host.replace(/\.$/, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return { refused: `${host} is a loopback name.` };
  }
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch (error) {
    return { refused: `${host} could not be resolved (${describe(error)}).` };
  }
  if (!Array.isArray(addresses) || addresses.length === 0) {
    return { refused: `${host} resolved to no address.` };
  }
  const internal = addresses.find((address) => isInternalAddress(address));
  if (internal !== undefined) {
    return { refused: `${host} resolves to ${internal}, an internal address.` };
  }
  return { refused: null, addresses };
}

/** The refusal alone: null when the target may be delivered to. */
export async function checkDeliveryTarget(url: string, policy: UrlPolicy, resolver: Resolver): Promise<string | null> {
  return (await vetDeliveryTarget(url, policy, resolver)).refused;
}

/** The real resolver (node:dns/promises lookup with all: true). */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

function describe(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

// --- IPv4 ------------------------------------------------------------------------------------

/** [network, prefix length]; the network written as text for readability. */
const INTERNAL_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (includes 100.100.100.200, a cloud metadata address)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (includes 169.254.169.254, the cloud metadata address)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (includes 192.0.0.192, a cloud metadata address)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including the broadcast 255.255.255.255
  ['168.63.129.16', 32], // Azure's host endpoint (metadata and DNS) on a public-looking address
];
const INTERNAL_V4_RANGES = INTERNAL_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { network: (ipv4ToNumber(net) & mask) >>> 0, mask };
});

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, octet) => ((n << 8) | Number(octet)) >>> 0, 0);
}

function isInternalV4(n: number): boolean {
  return INTERNAL_V4_RANGES.some(({ network, mask }) => ((n & mask) >>> 0) === network);
}

// --- IPv6 ------------------------------------------------------------------------------------

/** Eight 16-bit groups of an address node:net already accepted (zone ids allowed). */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.split('%')[0] ?? '';
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (isIP(tail) !== 4) return null;
    const n = ipv4ToNumber(tail);
    text = `${text.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const head = toGroups(halves[0]);
  const rest = toGroups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function isInternalV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = ((g6 << 16) | g7) >>> 0;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated) reach the IPv4 host.
  if (zeroTo(5) && g5 === 0xffff) return isInternalV4(embedded);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isInternalV4(embedded);
  // ::/96: unspecified ::, loopback ::1 and the deprecated IPv4-compatible form; none is a receiver.
  if (zeroTo(6)) return true;
  // NAT64 64:ff9b::/96 reaches the embedded IPv4 host; 64:ff9b:1::/48 is for local use.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isInternalV4(embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true;
  // 6to4 2002::/16 carries an IPv4 address in the next 32 bits.
  if (g0 === 0x2002) return isInternalV4(((g1 << 16) | g2) >>> 0);
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only 100::/64
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // deprecated site-local fec0::/10
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique-local fc00::/7 (includes fd00:ec2::254, metadata)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast ff00::/8
  return false;
}
