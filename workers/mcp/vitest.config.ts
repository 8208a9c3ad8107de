import { defineConfig } from 'vitest/config';

// getPlatformProxy starts a workerd process per test file: allow it time on a 2-core machine.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } });
