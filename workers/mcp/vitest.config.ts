import { defineConfig } from 'vitest/config';

// A test's local R2 (Miniflare) starts a workerd process per test file: allow it time on a 2-core machine.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } });
