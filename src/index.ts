import { Emulator, type EmulatorOptions } from './emulator.js';
import { createApp, type AppOptions } from './http/app.js';
import { listen, type RunningServer } from './http/server.js';

export { Emulator, type EmulatorOptions, type WorkspaceInput, DEFAULT_WORKSPACE } from './emulator.js';
export { createApp, type AppOptions } from './http/app.js';
export { listen, type RunningServer } from './http/server.js';
export { buildOpenApi } from './http/openapi.js';
export { parseFixtures, readFixturesFile, FixturesError } from './fixtures/fixtures.load.js';
export type { FixturesDocument } from './fixtures/fixtures.schema.js';
export { ERROR_CODES, type ErrorCode } from './core/errors.js';
export { verifySignature, type VerifyOptions } from './delivery/signature.js';

/**
 * In-process use from a Node test suite: the emulator, its Express app (for supertest) and a
 * way to listen on 127.0.0.1 when a real port is wanted.
 */
export function createEmulator(options: EmulatorOptions & AppOptions = {}) {
  const emulator = new Emulator(options);
  return {
    emulator,
    app: createApp(emulator, options),
    listen: (port = 0, host = '127.0.0.1'): Promise<RunningServer> => listen(emulator, { ...options, port, host }),
  };
}
