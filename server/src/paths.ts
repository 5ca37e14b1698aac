import { existsSync } from 'node:fs';
import path from 'node:path';

// The server runs from TypeScript sources (tests, tsx) and from the bundle in dist/: find the package root either way.
function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'drizzle', 'meta', '_journal.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`server package root not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const packageRoot = findPackageRoot(__dirname);
export const migrationsDir = path.join(packageRoot, 'drizzle');
