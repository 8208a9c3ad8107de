import { defineConfig } from 'vitest/config';

// Builds index real git repositories with the real compiler: seconds each on a busy 2-core machine.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 60_000 } });
