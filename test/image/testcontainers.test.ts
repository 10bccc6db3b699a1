import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE } from './docker.js';

/**
 * onboarding-emulator/testcontainers as a partner meets it: the packed package and Testcontainers
 * for Node installed from the npm registry into a fresh vitest project
 * (test/image/testcontainers-project), whose tests start the image under test.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let work: string | undefined;

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('onboarding-emulator/testcontainers', () => {
  it('starts the image, gives a workspace per test and relays webhooks to the test process', async () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major, 'Testcontainers 12 needs Node 22 or later: run the image suite under it').toBeGreaterThanOrEqual(22);
    work = await mkdtemp(join(tmpdir(), 'oe-testcontainers-'));
    // npm pack runs prepack (the build): the tarball is what a publish would ship.
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
    const { filename } = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0]!;
    const project = join(work, 'project');
    await cp(join(root, 'test/image/testcontainers-project'), project, { recursive: true });
    const env = { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', npm_config_audit: 'false', npm_config_fund: 'false', ONBOARDING_EMULATOR_IMAGE: IMAGE };
    await run('npm', ['install', '--no-package-lock', join(work, filename)], { cwd: project, env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
    const tested = await run('npm', ['test'], { cwd: project, env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the project's tests failed:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`);
    });
    expect(tested.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+2 passed \(2\)/);
  }, 600_000);
});
