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
  maxWorkers: 1,
};
