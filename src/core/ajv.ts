import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/**
 * The ajv set-up shared by run-time compilation and the build step that precompiles every
 * schema (scripts/build-validators.mjs). ajv is loaded on first use only: a normal start
 * runs the precompiled validators and never needs the compiler, which saves start-up time.
 */
export function makeAjv(coerceTypes: boolean, extra: Options = {}): Ajv2020 {
  const { Ajv2020: AjvClass } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  const ajv = new AjvClass({ allErrors: true, verbose: true, strict: false, useDefaults: false, coerceTypes, ...extra });
  addFormats(ajv);
  return ajv;
}

/** Names a schema by its content and mode, so a precompiled validator is used only for the very schema it was built from. */
export function schemaKey(schema: unknown, coerce: boolean): string {
  return `v_${coerce ? 'q' : 'b'}_${createHash('sha1').update(JSON.stringify(schema)).digest('hex').slice(0, 20)}`;
}
