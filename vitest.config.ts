import { defineConfig } from 'vitest/config';

/** One vitest run, three projects: contracts (unit), server (unit + integration), web (unit, jsdom-free). */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { test: { name: 'contracts', root: './packages/contracts', include: ['src/**/*.test.ts'] } },
      './apps/server/vitest.config.ts',
      './apps/web/vitest.config.ts',
    ],
  },
});
