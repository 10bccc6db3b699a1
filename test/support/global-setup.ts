import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * End-to-end tests run the built CLI and both package entries, and the inspector (from the
 * sources too) serves the compiled browser script, so the suite builds dist/ (as `npm run
 * build` does) once before it starts.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const config of ['tsconfig.build.json', 'tsconfig.browser.json']) {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', config], { cwd: root, stdio: 'inherit' });
  }
  execFileSync(process.execPath, ['scripts/build-validators.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-vendor.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-cjs.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
}
