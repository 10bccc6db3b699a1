// Precompiles every request and document schema into plain JavaScript (ajv "standalone"),
// so the emulator starts without running the ajv compiler. Runs after tsc in `npm run build`;
// writes dist/core/validators/<key>.cjs, one module per schema, which validation.ts loads on first use.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

// One file per schema: a request loads only the validator it uses, and start-up only the
// fixtures' (the whole set is over a megabyte of generated code).
const out = new URL('../dist/core/validators/', import.meta.url);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const [kind, schemas] of Object.entries(sets)) {
  const ajv = makeAjv(kind === 'query', { code: { source: true } });
  for (const [key, schema] of schemas) ajv.addSchema(JSON.parse(JSON.stringify(schema)), key);
  for (const key of schemas.keys()) writeFileSync(new URL(`${key}.cjs`, out), standaloneCode(ajv, { [key]: key }));
  console.log(`precompiled ${schemas.size} ${kind} schemas`);
}
