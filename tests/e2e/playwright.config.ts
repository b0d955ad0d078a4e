import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, ROOT } from './server-control';

// Browser tests: Debian's chromium (never a downloaded browser), a 390x844 phone, against real servers that
// global-setup.ts builds and starts, one per worker. Run with `npm run test:e2e`
// (= playwright test -c tests/e2e/playwright.config.ts). Under CI a JSON report is written as well, for
// the summary line of .ci/run.
// Two workers by default (E2E_WORKERS sets another count): much of a browser test is waiting (a service
// worker installing, the network going idle, a toast's timer), and on two cores a second worker fills
// that time; files stay whole on one worker, in order, so a file's serial steps share one server.

const results = path.join(ROOT, 'test-results');

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(results, 'playwright'),
  globalSetup: './global-setup.ts',
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  // Under CI a failed test runs once more: one that fails twice fails the run; one that passes on its
  // second try is listed as flaky in the report, to be mended rather than left.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: path.join(results, 'playwright.json') }]] : 'list',
  use: {
    // baseURL is set per test from CANOPY_E2E_BASE_URL (helpers.ts), known only after the global setup.
    locale: 'en-SG',
    timezoneId: 'Asia/Singapore',
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium-phone',
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        screen: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_FLAGS },
      },
    },
  ],
});
