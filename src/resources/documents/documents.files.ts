import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RawFile } from '../../operations/reply.js';

/**
 * The small real files behind documents, shipped in fixtures/documents. The folder is found
 * from this module's place (src/ or dist/ are both two levels below the package root's
 * subfolder), like DEFAULT_FIXTURES_PATH, so it works from any working directory.
 */
const FOLDER = new URL('../../../fixtures/documents/', import.meta.url);

const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/** A plain file name with a known extension: a record restored from a snapshot cannot name ../ */
const SAFE_NAME = /^[a-z0-9][a-z0-9-]*\.(pdf|png|jpe?g)$/;

const cache = new Map<string, RawFile>();

function mediaTypeOf(file: string): string | undefined {
  const ext = SAFE_NAME.exec(file)?.[1];
  return ext === undefined ? undefined : MEDIA_TYPES[ext];
}

/** The file's bytes, read once and then served from memory; undefined for an unusable name. */
export function documentFile(file: string): RawFile | undefined {
  const cached = cache.get(file);
  if (cached) return cached;
  const type = mediaTypeOf(file);
  if (type === undefined) return undefined;
  const loaded = new RawFile(readFileSync(fileURLToPath(new URL(file, FOLDER))), type);
  cache.set(file, loaded);
  return loaded;
}
