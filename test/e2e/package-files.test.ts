import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * What `npm pack` puts in the package besides dist/: the relay clients for Python and Go
 * (clients/), one file each, so a pytest or Go project copies it from node_modules or the
 * repository alike. --ignore-scripts: the list only, without prepack's build.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

describe('the packed package', () => {
  it('holds the Python and the Go relay client, and nothing else under clients/', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const clients = packed!.files.map((f) => f.path).filter((p) => p.startsWith('clients/')).sort();
    expect(clients).toEqual(['clients/go/onboardingrelay/relay.go', 'clients/python/onboarding_relay.py']);
  }, 60_000);
});
