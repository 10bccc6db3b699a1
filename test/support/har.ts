import { createRequire } from 'node:module';
import type { Ajv as AjvType } from 'ajv';

/**
 * HAR 1.2 as the har-schema package states it (draft-06 schemas, one file per object, joined by
 * `$ref`), compiled once with ajv: `harProblems(doc)` is empty for a valid archive. Its
 * non-standard `min` keyword (meant as `minimum`) is ignored, so strict mode is off.
 */
const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;

const { Ajv } = require('ajv') as typeof import('ajv');
const ajv = new Ajv({ strict: false, allErrors: true });
(require('ajv-formats') as (a: AjvType) => AjvType)(ajv);
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
for (const schema of Object.values(schemas)) ajv.addSchema(schema);
const validate = ajv.getSchema(schemas.har!.$id)!;

export function harProblems(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

export interface HarDoc {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: {
      startedDateTime: string;
      time: number;
      request: { method: string; url: string; headers: { name: string; value: string }[]; queryString: { name: string; value: string }[]; postData?: { mimeType: string; text: string }; bodySize: number };
      response: { status: number; headers: { name: string; value: string }[]; content: { size: number; mimeType: string; text?: string }; _error?: string };
      _id?: string;
      _error_code?: string;
      _endpoint_id?: string;
      _attempt?: number;
    }[];
  };
}

export const header = (list: { name: string; value: string }[], name: string): string | undefined => list.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
