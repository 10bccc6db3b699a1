import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { IMAGE, must, removeContainers, removeVolumes } from './docker.js';
import { numbersTable, record, resetNumbers } from './numbers.js';

/**
 * Builds the image from this checkout once, before the image suite, and measures it: build time
 * (with the dependency layers as the engine's cache holds them) and the size of the image's own
 * layers (the image less its base). Afterwards every container and volume the suite made is
 * removed and the figures are printed.
 */
export async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore' });
  } catch {
    throw new Error('no Docker engine answers: start one (on a machine without one, scripts/image-prerequisites.sh does), then npm run test:image');
  }
  resetNumbers();
  const began = performance.now();
  execFileSync('docker', ['build', '-q', '-t', IMAGE, '.'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  record({ name: 'docker build (dependency layers cached as the engine had them)', value: (performance.now() - began) / 1000, unit: 's' });
  const base = /^FROM\s+(\S+)/m.exec(execFileSync('grep', ['-m1', '^FROM', 'Dockerfile'], { cwd: root, encoding: 'utf8' }))![1]!;
  const size = (image: string) => must(['image', 'inspect', '-f', '{{.Size}}', image]).then(Number);
  const own = (await size(IMAGE)) - (await size(base));
  record({ name: `image size, own layers (on ${base})`, value: own / 1e6, unit: 'MB' });
}

export async function teardown(): Promise<void> {
  await removeContainers();
  await removeVolumes();
  console.log(`\nImage figures:\n${numbersTable()}\n`);
}
