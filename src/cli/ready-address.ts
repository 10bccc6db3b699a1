/** The message scripts wait for; every ready line starts with it. */
const LISTENING = 'onboarding emulator listening';

/** Addresses that take connections on every interface: in a container, the ones a published port reaches. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

export interface ReadyAddress {
  /** The ready line's message. */
  message: string;
  /** The address fields of the ready line. */
  fields: Record<string, string | number>;
  /** What the inspector's and the explorer's paths are put after: a URL, or '' when no URL is known to work for clients. */
  base: string;
}

/**
 * What the ready line names as the address clients use. --public-url is that address when set
 * (a compose service name, a tunnel); the address the process listens on is then given beside
 * it, for a script on the same machine. Inside a container listening on every interface, the
 * port is the container's, not the one clients reach it on (`docker run -p 8080:4010`), which
 * the emulator cannot see: the line says so instead of naming a URL that may not work.
 */
export function readyAddress(at: { local: string; host: string; publicUrl: string | undefined; inContainer: boolean }): ReadyAddress {
  if (at.publicUrl) return { message: LISTENING, fields: { url: at.publicUrl, listening: at.local }, base: at.publicUrl };
  if (at.inContainer && EVERY_INTERFACE.has(at.host)) {
    const port = Number(new URL(at.local).port);
    return {
      message: `${LISTENING} on port ${port} inside a container: from outside it, clients use the port published for it (docker run -p, compose ports:), or set --public-url (EMULATOR_PUBLIC_URL) to the URL they use`,
      fields: { port, listening: at.local },
      base: '',
    };
  }
  return { message: LISTENING, fields: { url: at.local }, base: at.local };
}
