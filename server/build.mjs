// Bundles the server (and the shared workspace it imports) into dist/; npm packages stay external.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@afrofx/shared');

await build({
  // The password strength meter runs on a thread of its own, which loads it by its file name (src/passwords.ts).
  entryPoints: {
    main: 'src/main.ts',
    worker: 'src/worker.ts',
    'password-strength': 'src/password-strength.cjs',
  },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
