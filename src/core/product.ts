import { readFileSync } from 'node:fs';

/**
 * What the emulator says of itself: its version (package.json's, the one place it is written)
 * and where it listens unless told otherwise.
 */
export const EMULATOR_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4010;
/** The base URL of links and of the CLI's --url when nothing says otherwise. */
export const DEFAULT_BASE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
