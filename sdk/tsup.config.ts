// The published package: ES modules and CommonJS side by side, each with its declarations, for Node 18 and later.
// openapi-fetch stays a dependency the customer's install brings, not a copy inside the build.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  platform: 'node',
  target: 'node18',
  outDir: 'dist',
});
