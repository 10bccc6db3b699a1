import { readFileSync } from 'node:fs';

/**
 * The explorer's library (swagger-ui-dist): the build copies its two prebuilt files, licence and
 * version into `dist/vendor/` (scripts/build-vendor.mjs), so the package ships them and a
 * partner's install pulls in nothing for them. They are read when first asked for and kept, so
 * the page works offline and a server that never shows the explorer never reads them.
 *
 * The path is the same from this file in `src/pages/explorer/` (tests run the sources) and in
 * `dist/pages/explorer/`: three folders up is the project's root either way.
 */
const LIBRARY = 'swagger-ui-dist';

export type LibraryFile = 'swagger-ui-bundle.js' | 'swagger-ui.css';

const FOLDER = new URL(`../../../dist/vendor/${LIBRARY}/`, import.meta.url);

let version: string | undefined;
const files = new Map<LibraryFile, Buffer>();

function read(name: string): Buffer {
  try {
    return readFileSync(new URL(name, FOLDER));
  } catch (cause) {
    throw new Error(`The explorer's library file ${name} is not in dist/vendor/${LIBRARY}; run \`npm run build\` to copy it.`, { cause });
  }
}

/** The shipped version: part of the files' addresses, so a browser never keeps an old copy after an upgrade. */
export function libraryVersion(): string {
  return (version ??= (JSON.parse(read('package.json').toString('utf8')) as { version: string }).version);
}

export function libraryFile(name: LibraryFile): Buffer {
  let bytes = files.get(name);
  if (!bytes) {
    bytes = read(name);
    files.set(name, bytes);
  }
  return bytes;
}
