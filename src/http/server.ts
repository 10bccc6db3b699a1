import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Emulator } from '../emulator.js';
import { createApp, type AppOptions } from './app.js';
import { answerClientErrors } from './client-errors.js';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Listens apart from createApp, so tests can drive the app without a port. */
export async function listen(emulator: Emulator, options: AppOptions & { host?: string; port?: number } = {}): Promise<RunningServer> {
  const server = createServer(createApp(emulator, options));
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server, () => emulator.requestId(), options.logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
