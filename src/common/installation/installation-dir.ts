import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The installation folder: the one holding `package.json`, above this file (in `src/` or in `dist/`). */
export function installationDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('cannot find the installation folder (no package.json above the code)');
    dir = parent;
  }
  return dir;
}
