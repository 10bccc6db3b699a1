import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { Emulator, type EmulatorOptions } from '../../src/emulator.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { FROZEN_START } from './harness.js';

/**
 * Debian's chromium, headless, in a fresh profile. A missing browser fails the test
 * (`npm test` installs it first where apt-get is at hand); it is never a reason to skip.
 */
const CHROMIUM = '/usr/bin/chromium';

/**
 * The page's document and its elements as the tests read them in page.evaluate, typed as far as
 * they are used (the tests have no DOM types). Types only: a function run in the page imports
 * nothing.
 */
interface PageElement {
  id: string;
  scrollWidth: number;
  clientWidth: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { right: number };
  closest(selector: string): PageElement | null;
}

export interface PageDocument {
  documentElement: PageElement;
  body: PageElement;
  activeElement: unknown;
  querySelectorAll(selector: string): Iterable<PageElement>;
}

export async function openBrowser(extraArgs: string[] = []): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Chromium there (on Debian: apt-get install chromium; npm test does it where apt-get is at hand)`);
  const profile = mkdtempSync(join(tmpdir(), 'onboarding-browser-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface BrowserAndEmulator {
  browser: Awaited<ReturnType<typeof openBrowser>>;
  emulator: Emulator;
  server: RunningServer;
}

/**
 * For one test file: an emulator on a frozen clock served on 127.0.0.1 (a free port) and a
 * browser, made before its tests and closed after them. The fields are set once beforeAll ran.
 */
export function useBrowserAndEmulator(options: EmulatorOptions = {}, browserArgs: string[] = []): BrowserAndEmulator {
  const env = {} as BrowserAndEmulator;
  beforeAll(async () => {
    env.emulator = new Emulator({ clock: { mode: 'frozen', start: FROZEN_START }, ...options });
    env.server = await listen(env.emulator, { port: 0 });
    env.browser = await openBrowser(browserArgs);
  }, 60_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}
