/**
 * Inside a container, 127.0.0.1 is the container itself: a webhook address on loopback reaches
 * the emulator's own network namespace, not the machine where the receiver runs, and fails with
 * a bare "connection refused". When the emulator knows it runs in a container, that failure
 * says so and names the way out: the relay (`onboarding-emulator listen`, docs/relay.md).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What container engines leave behind: Docker's /.dockerenv, Podman's /run/.containerenv, a
 * Kubernetes pod's KUBERNETES_SERVICE_HOST, the `container` variable systemd and Podman set.
 * None of these is the image's own, so `npx onboarding-emulator` in a CI job's container counts too.
 */
export function detectContainer(env: Env = process.env, exists: (path: string) => boolean = existsSync): boolean {
  if (env.KUBERNETES_SERVICE_HOST || env.container) return true;
  try {
    return exists('/.dockerenv') || exists('/run/.containerenv');
  } catch {
    return false;
  }
}

let detected: boolean | undefined;

/** This process's answer, looked up once. */
export function runningInContainer(): boolean {
  detected ??= detectContainer();
  return detected;
}

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback (`::ffff:7f00:1`, as a URL writes it), `localhost` and names under it. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host.startsWith('::ffff:7f') || host.startsWith('::ffff:127.');
  return false;
}

/**
 * The error of an attempt sent directly (not through a relay) from inside a container: a
 * refused connection to a loopback address gets the explanation; anything else is left as it is.
 */
export function loopbackHint(url: string, error: string | null): string | null {
  if (error !== 'connection refused' || !URL.canParse(url)) return error;
  const host = new URL(url).hostname;
  if (!isLoopback(host)) return error;
  return `connection refused: ${host} is this container itself, not the machine it runs on; to reach a receiver there, run \`onboarding-emulator listen\` beside it, which relays the webhooks (docs/relay.md), or use an address the container reaches (a compose service name, host.docker.internal)`;
}
