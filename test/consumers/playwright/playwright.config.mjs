import { defineConfig } from '@playwright/test';

// Debian's Chromium, as this project's CI has it: no browser download.
export default defineConfig({
  testDir: '.',
  workers: 1,
  reporter: 'list',
  use: { launchOptions: { executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] } },
});
