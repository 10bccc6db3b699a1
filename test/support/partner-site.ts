import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * The partner's own site, where return_url leads, served for real: https under its own name
 * (app.acme.test, in the default fixtures' allowed_origins), with the self-signed certificate of
 * test/support/tls. The browser gets PARTNER_SITE_ARGS to resolve the name to 127.0.0.1 and take
 * the certificate. A route in the browser would not do: Chromium follows the emulator's
 * redirect after a form past Playwright's routes.
 */
export const PARTNER_SITE_ARGS = ['--host-resolver-rules=MAP app.acme.test 127.0.0.1', '--ignore-certificate-errors'];

export interface PartnerSite {
  /** The return_url: https://app.acme.test:<port>/welcome */
  returnUrl: string;
  close(): Promise<void>;
}

export async function partnerSite(): Promise<PartnerSite> {
  const tls = (name: string) => readFileSync(new URL(`tls/app.acme.test.${name}`, import.meta.url));
  const server: Server = createServer({ cert: tls('crt'), key: tls('key') }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Welcome</title><h1>Partner welcome</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    returnUrl: `https://app.acme.test:${(server.address() as AddressInfo).port}/welcome`,
    close: async () => {
      // A browser still holds its keep-alive connections: close them, or close() waits for them.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
