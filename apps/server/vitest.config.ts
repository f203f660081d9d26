import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // Migrates once per run into a template that every test file copies (src/test/template.ts).
    globalSetup: ['src/test/global-setup.ts'],
    // A hang guard, not a timing assertion: Chromium PDF and concurrency tests run long on a loaded 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
