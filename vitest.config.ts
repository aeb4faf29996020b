import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/helpers/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real-terminal tests spawn the built app; several at once on two cores just time out.
    maxWorkers: 2,
  },
});
