import { defineConfig } from 'vitest/config';

// The image suite (`npm run test:image`): builds the Dockerfile and runs containers on a real
// engine. One file at a time: containers, builds and load runs share two cores.
export default defineConfig({
  test: {
    include: ['test/image/**/*.test.ts'],
    globalSetup: ['test/image/setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
