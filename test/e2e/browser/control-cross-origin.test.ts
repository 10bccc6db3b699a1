import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Emulator } from '../../../src/emulator.js';
import { allControlRoutes } from '../../../src/http/routes.js';
import { listen, type RunningServer } from '../../../src/http/server.js';
import { openBrowser } from '../../support/browser.js';
import { FROZEN_START } from '../../support/harness.js';

/**
 * A hostile page in a real browser against the emulator on 127.0.0.1: from another origin it
 * tries every state-changing control route; after a DNS rebinding (its own name pointing at
 * the emulator's address and port) it tries them from what the browser takes for the same
 * origin. Nothing changes: no workspace, no reset, no cancelled onboarding.
 */
let emulator: Emulator;
let server: RunningServer;
let attacker: Server;
let attackerPort: number;
let browser: Awaited<ReturnType<typeof openBrowser>>;
/** What reached the emulator, as it answered: proof that the refusals are the emulator's, not the browser's. */
const arrived: { method: string; path: string; status: number }[] = [];

beforeAll(async () => {
  emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
  server = await listen(emulator, { port: 0 });
  attacker = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>a page</title>'));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  // Names the page's author controls, resolved to the emulator's own address.
  // Chromium's own guard for pages reaching private addresses is turned off: the emulator's must hold alone.
  browser = await openBrowser([
    '--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1',
    '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
  ]);
  server.server.on('request', (req, res) => res.on('finish', () => arrived.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode })));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  attacker?.close();
});

/** Every route that changes something, with its parameters filled in. */
const changes = allControlRoutes
  .filter((r) => r.method !== 'GET')
  .map((r) => ({ method: r.method, path: r.path.replace(':workspaceId', 'default').replace(':id', 'onb_demo_jansen').replace(/:[A-Za-z]+/g, 'x') }));

const state = () => JSON.stringify({ snapshot: emulator.snapshot(emulator.defaultWorkspace), workspaces: emulator.workspaces().map((w) => w.id) });

/** In the page: every change, as a simple request (no preflight) where the method allows it, else as fetch would send it. */
async function tryEverything(page: import('playwright-core').Page, base: string): Promise<number[]> {
  return page.evaluate(async ({ base, changes }) => {
    const statuses: number[] = [];
    for (const c of changes) {
      const simple = c.method === 'POST';
      try {
        const res = await fetch(base + c.path, { method: c.method, mode: simple ? 'no-cors' : 'cors', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
        statuses.push(res.status);
      } catch {
        statuses.push(-1); // refused before it was sent (a failed preflight) or unreadable
      }
    }
    return statuses;
  }, { base, changes });
}

describe('a page of another origin', () => {
  it('changes nothing through any control route, from another port or another site', async () => {
    expect(changes.length).toBeGreaterThan(20);
    const before = state();
    arrived.length = 0;
    const page = await browser.context.newPage();
    for (const origin of [`http://127.0.0.1:${attackerPort}`, `http://evil.test:${attackerPort}`]) {
      await page.goto(`${origin}/`);
      await tryEverything(page, server.url);
    }
    await page.close();
    expect(state()).toBe(before);
    // Every POST (sent without a preflight) reached the emulator and was refused there; the other
    // methods stopped at their preflight, which grants nothing.
    const posts = arrived.filter((a) => a.method === 'POST');
    expect(posts).toHaveLength(changes.filter((c) => c.method === 'POST').length * 2);
    expect(posts.every((a) => a.status === 403)).toBe(true);
    expect(arrived.filter((a) => a.method !== 'POST' && a.method !== 'OPTIONS')).toEqual([]);
  });

  it('changes nothing after rebinding its name to the emulator, and reads nothing either', async () => {
    const before = state();
    const port = new URL(server.url).port;
    const page = await browser.context.newPage();
    // The attacker's document, served for its own name; the requests it makes go to the emulator.
    await page.route(`http://rebind.test:${port}/attack`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>rebound</title>' }));
    await page.goto(`http://rebind.test:${port}/attack`);
    const statuses = await tryEverything(page, '');
    expect(statuses.every((s) => s === 403), JSON.stringify(statuses)).toBe(true);
    const read = await page.evaluate(async () => {
      const res = await fetch('/_emulator/keys');
      return { status: res.status, body: await res.text() };
    });
    expect(read.status).toBe(403);
    expect(read.body).toContain('host_not_allowed');
    expect(read.body).not.toContain('hrs_test_acme_owner');
    await page.close();
    expect(state()).toBe(before);
  });
});
