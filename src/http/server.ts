import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Emulator } from '../emulator.js';
import { createApp, type AppOptions } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../core/product.js';

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Stops listening and lets the requests in flight finish and be answered; keep-alive
   * connections close once idle. After `drainMs` (default 0: at once) the connections still
   * open are cut. Resolves when none is left.
   */
  close(drainMs?: number): Promise<void>;
}

/** Listens apart from createApp, so tests can drive the app without a port. */
export async function listen(emulator: Emulator, options: AppOptions & { host?: string; port?: number } = {}): Promise<RunningServer> {
  const server = createServer(createApp(emulator, options));
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server, () => emulator.requestId(), options.logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: (drainMs = 0) =>
      new Promise<void>((resolve) => {
        // A connection that finished its request while draining is idle; it is closed on the next sweep.
        const sweep = setInterval(() => server.closeIdleConnections(), 25);
        const cut = drainMs > 0 ? setTimeout(() => server.closeAllConnections(), drainMs) : undefined;
        server.close(() => {
          clearInterval(sweep);
          clearTimeout(cut);
          resolve();
        });
        if (drainMs > 0) server.closeIdleConnections();
        else server.closeAllConnections();
      }),
  };
}
