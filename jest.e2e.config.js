// Browser end-to-end specs: `npm run e2e` (scripts/e2e.mjs) builds, starts the server and runs this config.
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'e2e',
  testEnvironment: 'node',
  roots: ['<rootDir>/web/e2e'],
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  testTimeout: 60000,
  // scripts/e2e.mjs runs two workers, each against a server of its own (web/e2e/browser.ts); run directly, one.
  maxWorkers: 1,
};
