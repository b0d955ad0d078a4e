// What bench/lighthouse.ts loads from this package: Lighthouse and chrome-launcher, resolved from
// tools/lighthouse/node_modules (npm ci --prefix tools/lighthouse), not from the app's install.
export { default as lighthouse } from 'lighthouse';
export * as chromeLauncher from 'chrome-launcher';
