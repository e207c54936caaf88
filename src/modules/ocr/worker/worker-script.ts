import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What `new Worker(source, { eval })` is given. */
export interface WorkerScript {
  source: string;
  eval: boolean;
}

/**
 * The worker entry `name` beside the calling module: the compiled `name.js` when it exists (running
 * from `dist/`), else a bootstrap that compiles `name.ts` and its relative imports on the fly with
 * @swc/core (running from the TypeScript source, as under Jest), so the same worker code runs in both.
 */
export function workerScriptFor(directory: string, name: string): WorkerScript {
  const compiled = join(directory, `${name}.js`);
  if (existsSync(compiled)) return { source: compiled, eval: false };
  const source = join(directory, `${name}.ts`);
  if (existsSync(source)) return { source: typeScriptBootstrap(source), eval: true };
  throw new Error(`worker entry ${name}.js or ${name}.ts not found in ${directory}`);
}

/**
 * Registers a `.ts` loader (swc, the compiler the tests use) and maps `./x.js` imports to `./x.ts`
 * as the NodeNext sources spell them; dynamic `import()` stays native, so ESM-only packages load.
 */
function typeScriptBootstrap(entry: string): string {
  return `
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const entry = ${JSON.stringify(entry)};
const { transformSync } = Module.createRequire(entry)('@swc/core');
const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
};
Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try {
    return resolveFilename.call(this, request, ...rest);
  } catch (error) {
    if (request.startsWith('.') && request.endsWith('.js')) {
      return resolveFilename.call(this, request.slice(0, -3) + '.ts', ...rest);
    }
    throw error;
  }
};
require(entry);
`;
}
