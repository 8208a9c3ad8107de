import { defineConfig } from 'vitest/config';

// End-to-end tests start real processes (wrangler dev + workerd, Miniflare) on a 2-core
// machine: allow minutes, and run files one at a time so they do not fight over CPU.
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts', 'bench/**/*.test.ts', 'architecture/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
