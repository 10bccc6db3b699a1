import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Reading the JSON or YAML documents a user writes (fixtures, scenarios). Each failure is a
 * one-line sentence the caller puts into its own error with the file's name.
 */
export type DocumentRead = { ok: true; data: unknown } | { ok: false; message: string };

export function parseJson(text: string): DocumentRead {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * The YAML parser is loaded only when a document needs it (it costs start-up time). Its
 * messages go on to quote the text after a colon; only the first line is kept, so the colon
 * that announced the quote goes too.
 */
export function parseYaml(text: string): DocumentRead {
  try {
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    return { ok: true, data: parse(text, { uniqueKeys: true }) };
  } catch (err) {
    return { ok: false, message: `not valid YAML: ${yamlMessage(err)}` };
  }
}

const yamlMessage = (err: unknown): string => ((err as Error).message.split('\n')[0] ?? '').replace(/:\s*$/, '');

/** JSON is read with JSON.parse; anything else as YAML (1.2 is a superset of JSON). */
export function parseJsonOrYaml(text: string): DocumentRead {
  const json = parseJson(text);
  if (json.ok) return json;
  const yaml = parseYaml(text);
  return yaml.ok ? yaml : { ok: false, message: `not valid JSON or YAML: ${yaml.message.replace(/^not valid YAML: /, '')}` };
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
