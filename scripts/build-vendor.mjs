// Copies the API explorer's library files (swagger-ui-dist, a build-time dependency) into
// dist/vendor/, with its licence and version, so the package ships them and installs nothing
// for them: no dependency tree and no install script in a partner's project.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const LIBRARY = 'swagger-ui-dist';
const FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'];

const from = dirname(createRequire(import.meta.url).resolve(`${LIBRARY}/package.json`));
const to = new URL(`../dist/vendor/${LIBRARY}/`, import.meta.url);
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
for (const file of FILES) copyFileSync(join(from, file), new URL(file, to));
const { name, version, license } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
writeFileSync(new URL('package.json', to), `${JSON.stringify({ name, version, license }, null, 2)}\n`);
console.log(`vendored ${name} ${version}`);
