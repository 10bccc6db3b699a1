import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Reading the JSON or YAML documents a user writes (fixtures, scenarios). Each failure is a
 * one-line sentence the caller puts into its own error with the file's name.
 */
export type DocumentRead = { ok: true; data: unknown } | { ok: false; message: string };

/** JSON is read with JSON.parse; anything else with the YAML parser, loaded only then (it costs start-up time). */
export function parseJsonOrYaml(text: string): DocumentRead {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    try {
      const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
      return { ok: true, data: parse(text, { uniqueKeys: true }) }; // YAML 1.2 is a superset of JSON
    } catch (err) {
      return { ok: false, message: `not valid JSON or YAML: ${(err as Error).message.split('\n')[0]}` };
    }
  }
}

export function readDocumentFile(path: string): DocumentRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read ${path}: ${(err as Error).message}` };
  }
  return parseJsonOrYaml(text);
}
