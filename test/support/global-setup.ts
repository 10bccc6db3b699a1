import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** End-to-end tests run the built CLI and both package entries, so the suite builds dist/ (as `npm run build` does) once before it starts. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-validators.mjs'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build-cjs.mjs'], { cwd: root, stdio: 'inherit' });
}
