import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './helpers/browser';

// Several people run the suite on one machine: each run gets its own port (E2E_PORT, else one derived from the
// runner's pid). Workers inherit the runner's environment, so they all see the same value.
process.env.E2E_PORT ??= String(32000 + (process.pid % 2000));

/** Runs against the built app on a fresh embedded database (see global-setup.ts); Chromium comes from Debian. */
export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: './artifacts/test-results',
  globalSetup: './global-setup.ts',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT}`,
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM,
    // The app's service worker (PWA) would answer asset and page requests out of the tests' sight: only
    // handheld.spec.ts, which tests it, lets it run.
    serviceWorkers: 'block',
  },
});
