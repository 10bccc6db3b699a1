import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Emulator } from '../../../src/emulator.js';
import { listen } from '../../../src/http/server.js';
import { HostedPages, PageRefusal } from '../../../src/playwright/index.js';
import { useBrowserAndEmulator } from '../../support/browser.js';
import { createBody, FROZEN_START, KEYS } from '../../support/harness.js';
import { created as posted, useTabs } from '../../support/kit.js';

/**
 * The Playwright helpers when things go wrong around them: a base URL that is no emulator, a
 * workspace not named, a page that is not a hosted page, an emulator that stops in the middle of
 * a journey, the same helper asked again and again, and several employees at once in one
 * browser. Each ends in an error that names the cause: at once where nothing is worth waiting
 * for, after the helper's own timeout for a step the page does not offer.
 */
const env = useBrowserAndEmulator();

const tab = useTabs(env);

const created = async (base = env.server.url, key: string = KEYS.owner, reference = 'kit-hostile') =>
  (await posted(base, '/v1/onboardings', createBody({ reference }), key)) as { id: string; hosted_url: string };

describe('bad configuration', () => {
  it('an emulatorUrl that answers as something else is named as such', async () => {
    const other = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('hello'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const employee = new HostedPages(await tab(), { emulatorUrl: `http://127.0.0.1:${(other.address() as AddressInfo).port}` });
      await employee.open((await created()).hosted_url);
      await expect(employee.readCode()).rejects.toThrow(/is not an onboarding emulator \(got 200 text\/plain: "hello"\)/);
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);

  it('an onboarding of another workspace needs its workspace named; an unknown workspace is the API\'s 404', async () => {
    const res = await fetch(`${env.server.url}/_emulator/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    const ws = (await res.json()) as { id: string; keys: { key: string; organization_id: string; user_id?: string | null }[] };
    const owner = ws.keys.find((k) => k.organization_id === 'org_acme' && k.key.includes('acme_owner'))!.key;
    const made = await created(env.server.url, owner, 'kit-hostile-ws');
    const page = await tab();
    await expect(async () => {
      const unnamed = new HostedPages(page);
      await unnamed.open(made.hosted_url);
      await unnamed.enterCode();
    }).rejects.toThrow('the outbox has no one-time code for /hosted/');
    await expect(new HostedPages(page, { workspace: 'ws_nope' }).readCode()).rejects.toMatchObject({ status: 404 });
    await new HostedPages(page, { workspace: ws.id }).enterCode();
    expect(await page.getByTestId('details-form').count()).toBe(1);
  }, 60_000);

  it('a surface that shows no hosted page is refused before anything is sent', async () => {
    const page = await tab();
    await page.goto(`${env.server.url}/_emulator/health`);
    await expect(new HostedPages(page).readCode()).rejects.toThrow(`not on a hosted page: ${env.server.url}/_emulator/health`);
  }, 60_000);
});

describe('a step the page does not offer', () => {
  it('fails after the helper\'s timeout with Playwright\'s error, and leaves nothing unhandled behind', async () => {
    const made = await created(env.server.url, KEYS.owner, 'kit-no-button');
    const employee = new HostedPages(await tab(), { timeout: 1_000 });
    await employee.open(made.hosted_url);
    // The code page has no Sign button: the click times out; the wait for the next page ends unobserved (vitest fails a run on an unhandled rejection).
    await expect(employee.sign()).rejects.toThrow(/locator\.click: Timeout 1000ms exceeded/);
  }, 60_000);
});

describe('a crash midway', () => {
  it('the emulator stops after the link was opened: reading the code fails at once, naming the address', async () => {
    const emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START } });
    const server = await listen(emulator, { port: 0 });
    const made = await created(server.url);
    const employee = new HostedPages(await tab(), { timeout: 5_000 });
    await employee.open(made.hosted_url);
    await server.close();
    await expect(employee.enterCode()).rejects.toThrow(`cannot reach the emulator at ${server.url}`);
    await expect(employee.open(made.hosted_url)).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
  }, 60_000);
});

describe('many at once, and the same helper many times', () => {
  it('six employees in six tabs at once each get their own code and send their own form', async () => {
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => created(env.server.url, KEYS.owner, `kit-many-${i}`)));
    await Promise.all(made.map(async (o) => {
      const employee = new HostedPages(await tab());
      await employee.open(o.hosted_url);
      await employee.enterCode();
      await employee.completeDetails();
    }));
    for (const o of made) expect(env.emulator.defaultWorkspace.store.onboardings.get(o.id)!.status).toBe('in_review');
  }, 60_000);

  it('reading the code 25 times mails nothing new and reads the same code; entering a used code again is refused', async () => {
    const made = await created(env.server.url, KEYS.owner, 'kit-again');
    const page = await tab();
    const employee = new HostedPages(page, { timeout: 5_000 });
    await employee.open(made.hosted_url);
    const mails = () => env.emulator.defaultWorkspace.outbox.filter((m) => m.onboarding_id === made.id).length;
    const before = mails();
    const codes = new Set<string>();
    for (let i = 0; i < 25; i++) codes.add(await employee.readCode());
    expect([codes.size, mails()]).toEqual([1, before]);
    const [code] = codes;
    await employee.enterCode(code);
    await employee.enterCode(); // signed in already: nothing to enter
    expect(await page.getByTestId('details-form').count()).toBe(1);
    // Another browser (no cookie) with the used code: the first opening there mails a fresh one; the old is refused.
    await env.browser.context.clearCookies();
    const second = new HostedPages(await tab(), { timeout: 5_000 });
    await second.open(made.hosted_url);
    await expect(second.enterCode(code)).rejects.toThrow(PageRefusal);
    await second.enterCode();
  }, 60_000);
});
