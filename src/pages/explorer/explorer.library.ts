import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The explorer's library (swagger-ui-dist, a runtime dependency): its prebuilt files are read
 * from the installed package when first asked for and kept, so the page works offline and a
 * server that never shows the explorer never reads them.
 */
export const LIBRARY = 'swagger-ui-dist';

export type LibraryFile = 'swagger-ui-bundle.js' | 'swagger-ui.css';

let folder: string | undefined;
let version: string | undefined;
const files = new Map<LibraryFile, Buffer>();

// Resolved from this module, so the package is found wherever npm placed it for the emulator.
function libraryFolder(): string {
  return (folder ??= dirname(createRequire(import.meta.url).resolve(`${LIBRARY}/package.json`)));
}

/** The installed version: part of the files' addresses, so a browser never keeps an old copy after an upgrade. */
export function libraryVersion(): string {
  return (version ??= (JSON.parse(readFileSync(join(libraryFolder(), 'package.json'), 'utf8')) as { version: string }).version);
}

export function libraryFile(name: LibraryFile): Buffer {
  let bytes = files.get(name);
  if (!bytes) {
    bytes = readFileSync(join(libraryFolder(), name));
    files.set(name, bytes);
  }
  return bytes;
}
