// One jest run for the whole repository: `npm test` from the root.
const os = require('node:os');
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      // @afrofx/sdk's TypeScript source, not its published build (sdk/package.json exports).
      testEnvironmentOptions: { customExportConditions: ['node', 'node-addons', '@afrofx/source'] },
      roots: ['<rootDir>/server/test', '<rootDir>/shared/src'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.(tsx?|js)$': swc },
      // ESM-only dependencies that jest's CommonJS runtime cannot require as they ship.
      // lightweight-charts and fancy-canvas: the web app's chart page, which the public pages' renderer loads.
      transformIgnorePatterns: [
        '/node_modules/(?!(content-disposition|cookie|@scalar|github-slugger|lightweight-charts|fancy-canvas)/)',
      ],
      moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/web/test/asset-stub.js' },
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/web/src'],
      testMatch: ['**/*.test.ts?(x)'],
      transform: { '^.+\\.tsx?$': swc },
      setupFilesAfterEnv: ['<rootDir>/web/jest.setup.ts'],
      moduleNameMapper: { '\\.(css|svg|png)$': '<rootDir>/web/test/asset-stub.js' },
    },
  ],
  // A test file starts a real database (and often servers); on a loaded 2-core machine that can take a while. Tests
  // and hooks wait on the event under test, so this bound only stops a hang: on a machine whose cores were busy
  // with other work, 60 s failed hooks that were still making progress.
  testTimeout: 120000,
  // Much of a test file's time is spent waiting (servers, timers, retries): two workers overlap it even on 2 cores.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  // Each test file leaves its module registry (and its embedded database's memory) in the worker's heap until the
  // worker ends: one worker for the whole run grew to 1.5 GB, and the garbage collector's work with it took a third
  // of the run's CPU. A worker past this between files is replaced by a fresh one.
  workerIdleMemoryLimit: '800MB',
  // Tests that cut a Redis connection under a running app leave BullMQ's own reconnecting clients behind, which keep
  // jest's process alive after the run (the product's processes exit explicitly after closing). Every file closes
  // what it opened; this only keeps such a leftover from holding CI until its time limit.
  forceExit: true,
};
