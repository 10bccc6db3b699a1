// Precompiles every request and document schema into plain JavaScript (ajv "standalone"),
// so the emulator starts without running the ajv compiler. Runs after tsc in `npm run build`.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const standaloneCode = require('ajv/dist/standalone').default;
const { makeAjv, schemaKey } = await import('../dist/core/ajv.js');
const { apiRoutes, allControlRoutes } = await import('../dist/http/routes.js');
const { FixturesSchema } = await import('../dist/fixtures/fixtures.schemas.js');
const { CreateOnboardingBody } = await import('../dist/resources/onboardings/onboardings.schemas.js');

const sets = { body: new Map(), query: new Map() };
const add = (kind, schema) => sets[kind].set(schemaKey(schema, kind === 'query'), schema);
for (const route of [...apiRoutes, ...allControlRoutes]) {
  if (route.body) add('body', route.body);
  if (route.query) add('query', route.query);
}
add('body', FixturesSchema);
add('body', CreateOnboardingBody);

for (const [kind, schemas] of Object.entries(sets)) {
  const ajv = makeAjv(kind === 'query', { code: { source: true } });
  const names = {};
  for (const [key, schema] of schemas) {
    ajv.addSchema(JSON.parse(JSON.stringify(schema)), key);
    names[key] = key;
  }
  writeFileSync(new URL(`../dist/core/validators.${kind}.cjs`, import.meta.url), standaloneCode(ajv, names));
  console.log(`precompiled ${schemas.size} ${kind} schemas`);
}
